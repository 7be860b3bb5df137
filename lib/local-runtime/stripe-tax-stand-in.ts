// Project-owned stand-in for the Stripe Tax calls the service makes (`tax.calculations.create`,
// `tax.transactions.createFromCalculation`): stripe-stateful-mock computes no tax. It answers the real `stripe` SDK
// with objects typed as the SDK's own (`Stripe.Tax.Calculation`, `Stripe.Tax.Transaction`), at the combined rates of
// a documented set of US addresses (docs/billing.md, "Sales tax"); any other address is taxed at FALLBACK and its
// warning says which rate it used. Registered beside the invoicing stand-in on the one Stripe port
// (stripe-stand-in-server.ts), its calculations and transactions kept in the same state file.
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readRequestText, sendStripeJson } from './stripe-stand-in-http';
import type Stripe from 'stripe';
import { divideRoundHalfUp } from '../../functions/domain/money';
import { StripeError } from './stripe-error';
import type { StandInStateFile } from './stripe-stand-in-state';
import { type FormValue, integer, list, parseStripeForm, record, text } from './stripe-form-body';

/** A destination's combined rate (state + county + city + districts) and whether it taxes separately stated shipping. */
interface Destination {
  readonly name: string;
  /** Decimal text, as Stripe's `percentage_decimal`. */
  readonly percent: string;
  readonly taxesShipping: boolean;
}

/** By ZIP code: the documented addresses (docs/billing.md) and the demo's. */
const BY_POSTAL_CODE: Readonly<Record<string, Destination>> = {
  '94105': { name: 'San Francisco, CA', percent: '8.625', taxesShipping: false },
  '10004': { name: 'New York, NY', percent: '8.875', taxesShipping: true },
  '78701': { name: 'Austin, TX', percent: '8.25', taxesShipping: true },
  '78759': { name: 'Austin, TX', percent: '8.25', taxesShipping: true },
  '24011': { name: 'Roanoke, VA', percent: '5.3', taxesShipping: false },
};
/** Oregon has no sales tax anywhere. */
const OREGON: Destination = { name: 'Oregon', percent: '0', taxesShipping: false };
/** Everywhere else: one flat rate, named so nobody mistakes it for the real one. */
const FALLBACK: Destination = {
  name: 'stand-in fallback rate (address not in its table)',
  percent: '6',
  taxesShipping: false,
};

/** Nontaxable goods (Stripe's `txcd_00000000`): no tax at any destination. */
const NONTAXABLE = 'txcd_00000000';
/** Stripe keeps a calculation for 90 days; after that it can no longer become a transaction. */
const CALCULATION_LIFETIME_SECONDS = 90 * 24 * 3600;

export const servesStripeTaxPath = (path: string): boolean =>
  /^\/v1\/tax\/(calculations|transactions)(\/|$|\?)/.test(path);

/** What the stand-in keeps across restarts, under the `tax` kind of the state file. */
interface TaxSnapshot {
  readonly calculations: Stripe.Tax.Calculation[];
  readonly transactions: Stripe.Tax.Transaction[];
  readonly idempotent: [string, IdempotentAnswer][];
}

/** The first answer to an idempotency key, and when (epoch seconds; absent on keys kept before it was recorded). */
interface IdempotentAnswer {
  readonly fingerprint: string;
  readonly body: unknown;
  readonly at?: number;
}

/** How long Stripe remembers an idempotency key. */
const IDEMPOTENCY_WINDOW_SECONDS = 24 * 3600;

export interface StripeTaxStandInOptions {
  readonly now?: () => Date;
  /**
   * `npm start`: calculations, transactions and idempotency keys survive a restart, so an order placed before it
   * is still invoiced, and its sale recorded once, after it.
   */
  readonly stateFile?: StandInStateFile;
  /** Told when an address is not in the table and the fallback rate was used. */
  readonly onWarning?: (message: string) => void;
}

export class StripeTaxStandIn {
  private readonly calculations = new Map<string, Stripe.Tax.Calculation>();
  private readonly transactions = new Map<string, Stripe.Tax.Transaction>();
  private readonly idempotent = new Map<string, IdempotentAnswer>();
  private readonly seconds: () => number;
  private readonly stateFile: StandInStateFile | undefined;
  private readonly onWarning: (message: string) => void;

  constructor(options: StripeTaxStandInOptions = {}) {
    const now = options.now ?? (() => new Date());
    this.seconds = () => Math.floor(now().getTime() / 1000);
    this.stateFile = options.stateFile;
    this.onWarning = options.onWarning ?? (() => undefined);
    const saved = this.stateFile?.read().kinds.tax as TaxSnapshot | undefined;
    for (const calculation of saved?.calculations ?? []) this.calculations.set(calculation.id ?? '', calculation);
    for (const transaction of saved?.transactions ?? []) this.transactions.set(transaction.id, transaction);
    for (const [key, stored] of saved?.idempotent ?? []) this.idempotent.set(key, stored);
  }

  private persist(): void {
    if (!this.stateFile) return;
    const tax: TaxSnapshot = {
      calculations: [...this.calculations.values()],
      transactions: [...this.transactions.values()],
      idempotent: [...this.idempotent.entries()],
    };
    const state = this.stateFile.read();
    this.stateFile.write({ ...state, kinds: { ...state.kinds, tax } });
  }

  readonly handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const path = new URL(req.url ?? '/', 'http://stand-in').pathname;
      const body = req.method === 'POST' ? parseStripeForm(await readRequestText(req)) : {};
      const key = req.headers['idempotency-key'];
      if (req.method !== 'POST' || typeof key !== 'string')
        return sendStripeJson(res, 200, this.api(req.method ?? 'GET', path, body));
      const fingerprint = createHash('sha256')
        .update(`${path}\n${JSON.stringify(body)}`)
        .digest('hex');
      const remembered = this.idempotent.get(key);
      // Stripe forgets a key 24 hours after its first use: a request after that is a new one.
      const stored =
        remembered && this.seconds() - (remembered.at ?? 0) < IDEMPOTENCY_WINDOW_SECONDS ? remembered : undefined;
      if (stored && stored.fingerprint !== fingerprint)
        throw new StripeError(
          400,
          'idempotency_error',
          `Keys for idempotent requests can only be used with the same parameters they were first used with.`,
        );
      if (stored) return sendStripeJson(res, 200, stored.body, { 'Idempotent-Replayed': 'true' });
      const answer = this.api('POST', path, body);
      this.idempotent.set(key, { fingerprint, body: answer, at: this.seconds() });
      this.persist();
      return sendStripeJson(res, 200, answer);
    } catch (error) {
      if (error instanceof StripeError)
        return sendStripeJson(res, error.status, {
          error: {
            type: error.type,
            message: error.message,
            ...(error.code ? { code: error.code } : {}),
            ...(error.param ? { param: error.param } : {}),
          },
        });
      return sendStripeJson(res, 500, { error: { type: 'api_error', message: String(error) } });
    }
  };

  private api(method: string, path: string, body: Record<string, FormValue>): unknown {
    if (method === 'POST' && path === '/v1/tax/calculations') return this.calculate(body);
    if (method === 'POST' && path === '/v1/tax/transactions/create_from_calculation') return this.record(body);
    const calculation = /^\/v1\/tax\/calculations\/(taxcalc_[A-Za-z0-9]+)$/.exec(path)?.[1];
    if (method === 'GET' && calculation) return this.calculationOf(calculation);
    throw new StripeError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);
  }

  private calculate(body: Record<string, FormValue>): Stripe.Tax.Calculation {
    const details = body.customer_details;
    const address = typeof details === 'object' && !Array.isArray(details) ? record(details.address) : {};
    const override =
      typeof details === 'object' && !Array.isArray(details) ? text(details.taxability_override) : undefined;
    if (address.country !== 'US' || !address.postal_code)
      throw new StripeError(
        400,
        'invalid_request_error',
        'customer_details[address] needs a US country and postal code.',
        'customer_tax_location_invalid',
      );
    const exempt = override === 'customer_exempt';
    const destination = destinationOf(address);
    if (destination === FALLBACK)
      this.onWarning(
        `Stripe Tax stand-in: ${[address.line1, address.city, address.state, address.postal_code].filter(Boolean).join(', ')} is not in its table of addresses (docs/billing.md); taxed at its fallback rate of ${FALLBACK.percent} %, not a real one.`,
      );
    const items = list(body.line_items).map((item, index) => {
      const fields = typeof item === 'object' && !Array.isArray(item) ? item : {};
      const amount = integer(fields.amount);
      if (amount === undefined || amount < 0)
        throw new StripeError(
          400,
          'invalid_request_error',
          `line_items[${index}][amount] must be a non-negative integer.`,
        );
      const taxCode = text(fields.tax_code) ?? 'txcd_99999999';
      const taxable = !exempt && taxCode !== NONTAXABLE;
      return {
        amount,
        taxCode,
        reference: text(fields.reference) ?? `line_${index}`,
        tax: taxable ? taxOn(amount, destination) : 0,
        taxable,
      };
    });
    const shipping =
      typeof body.shipping_cost === 'object' && !Array.isArray(body.shipping_cost) ? body.shipping_cost : {};
    const shippingAmount = integer(shipping.amount) ?? 0;
    const shippingTaxable = !exempt && destination.taxesShipping;
    const shippingTax = shippingTaxable ? taxOn(shippingAmount, destination) : 0;
    const taxTotal = items.reduce((sum, item) => sum + item.tax, shippingTax);
    const goods = items.reduce((sum, item) => sum + item.amount, 0);
    const taxableAmount = items.reduce(
      (sum, item) => sum + (item.taxable ? item.amount : 0),
      shippingTaxable ? shippingAmount : 0,
    );
    const id = `taxcalc_${randomBytes(12).toString('hex')}`;
    const created = this.seconds();
    const reason = exempt ? 'customer_exempt' : destination.percent === '0' ? 'not_subject_to_tax' : 'standard_rated';
    const calculation: Stripe.Tax.Calculation = {
      id,
      object: 'tax.calculation',
      amount_total: goods + shippingAmount + taxTotal,
      currency: 'usd',
      customer: null,
      customer_details: {
        address: {
          line1: address.line1 ?? null,
          line2: address.line2 ?? null,
          city: address.city ?? null,
          state: address.state ?? null,
          postal_code: address.postal_code,
          country: 'US',
        },
        address_source: 'shipping',
        ip_address: null,
        tax_ids: [],
        taxability_override: exempt ? 'customer_exempt' : 'none',
      },
      expires_at: created + CALCULATION_LIFETIME_SECONDS,
      livemode: false,
      ship_from_details: null,
      shipping_cost: {
        amount: shippingAmount,
        amount_tax: shippingTax,
        tax_behavior: 'exclusive',
        tax_code: text(shipping.tax_code) ?? 'txcd_92010001',
      },
      tax_amount_exclusive: taxTotal,
      tax_amount_inclusive: 0,
      tax_breakdown: [
        {
          amount: taxTotal,
          inclusive: false,
          tax_rate_details: {
            country: 'US',
            flat_amount: null,
            percentage_decimal: exempt ? '0' : destination.percent,
            rate_type: 'percentage',
            state: address.state ?? null,
            tax_type: 'sales_tax',
          },
          taxability_reason: reason,
          taxable_amount: exempt ? 0 : taxableAmount,
        },
      ],
      tax_date: created,
    };
    this.calculations.set(id, calculation);
    this.persist();
    return calculation;
  }

  private record(body: Record<string, FormValue>): Stripe.Tax.Transaction {
    const calculation = this.calculationOf(text(body.calculation) ?? '');
    const reference = text(body.reference);
    if (!reference) throw new StripeError(400, 'invalid_request_error', 'Missing required param: reference.');
    if ((calculation.expires_at ?? 0) <= this.seconds())
      throw new StripeError(400, 'invalid_request_error', `Tax calculation ${calculation.id ?? ''} has expired.`);
    if ([...this.transactions.values()].some((transaction) => transaction.reference === reference))
      throw new StripeError(
        400,
        'invalid_request_error',
        `A transaction with reference ${reference} already exists.`,
        'resource_already_exists',
        'reference',
      );
    const transaction: Stripe.Tax.Transaction = {
      id: `tax_${randomBytes(12).toString('hex')}`,
      object: 'tax.transaction',
      created: this.seconds(),
      currency: calculation.currency,
      customer: calculation.customer,
      customer_details: calculation.customer_details,
      livemode: false,
      metadata: {},
      posted_at: this.seconds(),
      reference,
      reversal: null,
      ship_from_details: null,
      shipping_cost: calculation.shipping_cost
        ? {
            amount: calculation.shipping_cost.amount,
            amount_tax: calculation.shipping_cost.amount_tax,
            tax_behavior: calculation.shipping_cost.tax_behavior,
            tax_code: calculation.shipping_cost.tax_code,
          }
        : null,
      tax_date: calculation.tax_date,
      type: 'transaction',
    };
    this.transactions.set(transaction.id, transaction);
    this.persist();
    return transaction;
  }

  /** The transactions recorded so far (tests read what the supplier's Stripe Tax reports would count). */
  recorded(): readonly Stripe.Tax.Transaction[] {
    return [...this.transactions.values()];
  }

  private calculationOf(id: string): Stripe.Tax.Calculation {
    const calculation = this.calculations.get(id);
    if (!calculation)
      throw new StripeError(404, 'invalid_request_error', `No such tax calculation: '${id}'`, 'resource_missing');
    return calculation;
  }
}

function destinationOf(address: Record<string, string>): Destination {
  const zip = (address.postal_code ?? '').slice(0, 5);
  if (Object.hasOwn(BY_POSTAL_CODE, zip)) return BY_POSTAL_CODE[zip] ?? FALLBACK;
  if (address.state === 'OR') return OREGON;
  return FALLBACK;
}

/** Tax on one amount, rounded half up to the cent (the rate is decimal text: no binary float touches it). */
function taxOn(amountCents: number, destination: Destination): number {
  const [whole = '0', fraction = ''] = destination.percent.split('.');
  const scale = 10n ** BigInt(fraction.length + 2);
  const rate = BigInt(whole + fraction);
  return Number(divideRoundHalfUp(BigInt(amountCents) * rate, scale));
}
