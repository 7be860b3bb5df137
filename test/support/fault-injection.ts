import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { LOCAL_STRIPE_SECRET_KEY } from '../../functions/resources/function-environment';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { SalesTaxUnavailable } from '../../functions/domain/errors';
import { stripeClientSource } from '../../functions/adapters/stripe-client';
import { StripePayments } from '../../functions/adapters/stripe-payments';
import { StripeTax } from '../../functions/adapters/stripe-tax';
import type {
  SalesTaxCalculation,
  SalesTaxProvider,
  SalesTaxRequest,
} from '../../functions/domain/tax/sales-tax-provider';
import type {
  PaymentCustomerDetails,
  PaymentCustomerRequest,
  PaymentProvider,
} from '../../functions/domain/payments/payment-provider';

const local = (endpoint: string) => ({
  endpoint,
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});

/** The real Stripe adapter on the stand-in, able to fail on demand before or after Stripe did its work. */
export class FaultyPayments implements PaymentProvider {
  private failures: ('before' | 'after')[] = [];
  private gates: { signalEntered: () => void; released: Promise<void> }[] = [];
  calls = 0;
  private readonly real: PaymentProvider;

  constructor() {
    const { stripeApiBase, endpoints } = inject('standIns');
    this.real = new StripePayments(
      stripeClientSource(
        { STRIPE_SECRET_KEY: LOCAL_STRIPE_SECRET_KEY, STRIPE_API_BASE: stripeApiBase, STRIPE_SECRET_NAME: '' },
        new SecretsManagerClient(local(endpoints.secretsManager)),
      ),
    );
  }

  /** Disarms failures a test armed but did not use. */
  reset(): void {
    this.failures = [];
    this.gates = [];
  }

  /**
   * The next call waits until the returned `release` is called; `entered` resolves once
   * it is waiting, so a test can act while a setup is provably in flight.
   */
  holdNextCall(): { entered: Promise<void>; release: () => void } {
    let release = () => {};
    let signalEntered = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const entered = new Promise<void>((resolve) => (signalEntered = resolve));
    this.gates.push({ signalEntered, released });
    return { entered, release };
  }

  /** The next call fails without reaching Stripe (Stripe down). */
  failNextCall(): void {
    this.failures.push('before');
  }

  /** The next call reaches Stripe, which creates the customer, but the answer is lost (timeout). */
  loseNextAnswer(): void {
    this.failures.push('after');
  }

  async ensureCustomer(request: PaymentCustomerRequest): Promise<string> {
    this.calls += 1;
    const gate = this.gates.shift();
    if (gate) {
      gate.signalEntered();
      await gate.released;
    }
    const failure = this.failures.shift();
    if (failure === 'before')
      throw Object.assign(new Error('connect ECONNREFUSED api.stripe.com'), { name: 'StripeConnectionError' });
    const id = await this.real.ensureCustomer(request);
    if (failure === 'after') throw Object.assign(new Error('Request timed out'), { name: 'StripeConnectionError' });
    return id;
  }

  async updateCustomer(customerId: string, details: PaymentCustomerDetails): Promise<void> {
    this.calls += 1;
    const failure = this.failures.shift();
    if (failure === 'before')
      throw Object.assign(new Error('connect ECONNREFUSED api.stripe.com'), { name: 'StripeConnectionError' });
    await this.real.updateCustomer(customerId, details);
    if (failure === 'after') throw Object.assign(new Error('Request timed out'), { name: 'StripeConnectionError' });
  }
}

/** The real Stripe Tax adapter on the stand-in, its calls counted, able to fail on demand (Stripe Tax down). */
export class FaultySalesTax implements SalesTaxProvider {
  /** What was sent to `tax.calculations.create`, in order. */
  readonly calculated: SalesTaxRequest[] = [];
  /** The calculations recorded as tax transactions, in order. */
  readonly recorded: string[] = [];
  /** Every call fails while set; `failNextCall` fails one. */
  failing = false;
  private failures = 0;
  private readonly real: SalesTaxProvider;

  constructor() {
    const { stripeApiBase, endpoints } = inject('standIns');
    this.real = new StripeTax(
      stripeClientSource(
        { STRIPE_SECRET_KEY: LOCAL_STRIPE_SECRET_KEY, STRIPE_API_BASE: stripeApiBase, STRIPE_SECRET_NAME: '' },
        new SecretsManagerClient(local(endpoints.secretsManager)),
      ),
    );
  }

  failNextCall(): void {
    this.failures += 1;
  }

  private fail(): void {
    if (!this.failing && this.failures === 0) return;
    this.failures = Math.max(0, this.failures - 1);
    // What the adapter makes of a Stripe outage.
    throw new SalesTaxUnavailable('connect ECONNREFUSED api.stripe.com (injected)');
  }

  async calculate(request: SalesTaxRequest): Promise<SalesTaxCalculation> {
    this.fail();
    this.calculated.push(request);
    return this.real.calculate(request);
  }

  async recordTransaction(input: { calculationId: string; reference: string; idempotencyKey: string }) {
    this.fail();
    const recorded = await this.real.recordTransaction(input);
    this.recorded.push(input.calculationId);
    return recorded;
  }
}

/**
 * A DynamoDB client of its own whose next TransactWriteItems calls fail as a DynamoDB
 * outage would, before anything is written (AWS SDK middleware, real stand-in otherwise).
 */
export function faultyDynamoDb(): {
  client: DynamoDBDocumentClient;
  failNextTransactions(count?: number): void;
  conflictNextTransactions(count?: number): void;
} {
  let pending = 0;
  let conflicts = 0;
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({ ...local(inject('standIns').endpoints.dynamodb), maxAttempts: 1 }),
    {
      marshallOptions: { removeUndefinedValues: true },
    },
  );
  client.middlewareStack.add(
    (next) => async (args) => {
      const input = args.input as { TransactItems?: unknown };
      if (input.TransactItems && pending > 0) {
        pending -= 1;
        throw Object.assign(new Error('Internal server error (injected)'), {
          name: 'InternalServerError',
          $fault: 'server',
        });
      }
      if (Array.isArray(input.TransactItems) && conflicts > 0) {
        conflicts -= 1;
        // What DynamoDB answers when another transaction holds one of the items.
        throw new TransactionCanceledException({
          message:
            'Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict]',
          $metadata: {},
          CancellationReasons: input.TransactItems.map((_, index) => ({
            Code: index === 0 ? 'TransactionConflict' : 'None',
          })),
        });
      }
      return next(args);
    },
    { step: 'initialize', name: 'injectTransactionFailures' },
  );
  return {
    client,
    failNextTransactions: (count = 1) => {
      pending += count;
    },
    conflictNextTransactions: (count = 1) => {
      conflicts += count;
    },
  };
}
