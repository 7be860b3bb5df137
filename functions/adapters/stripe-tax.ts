import type Stripe from 'stripe';
import { US_STATES } from '../domain/addresses/us-states';
import { SalesTaxUnavailable } from '../domain/errors';
import { SHIPPING_TAX_CODE } from '../domain/tax/product-tax-codes';
import type {
  SalesTaxCalculation,
  SalesTaxProvider,
  SalesTaxRequest,
  TaxAddress,
} from '../domain/tax/sales-tax-provider';

/**
 * Stripe Tax behind the domain's port: `tax.calculations.create` for a quote, and
 * `tax.transactions.createFromCalculation` when the order is invoiced, so the supplier's
 * Stripe Tax reports count the sale. Whatever goes wrong (Stripe unreachable, rate
 * limited, an address it cannot place) is SalesTaxUnavailable: the caller never guesses.
 */
export class StripeTax implements SalesTaxProvider {
  constructor(private readonly stripe: () => Promise<Stripe>) {}

  async calculate(request: SalesTaxRequest): Promise<SalesTaxCalculation> {
    const calculation = await unavailableOnFailure(async () =>
      (await this.stripe()).tax.calculations.create({
        currency: 'usd',
        line_items: request.lines.map((line) => ({
          amount: line.amountCents,
          quantity: line.quantity,
          reference: line.reference,
          tax_code: line.taxCode,
          tax_behavior: 'exclusive',
        })),
        shipping_cost: { amount: request.shippingCents, tax_code: SHIPPING_TAX_CODE, tax_behavior: 'exclusive' },
        customer_details: {
          address: toStripeAddress(request.address),
          address_source: 'shipping',
          taxability_override: request.exempt ? 'customer_exempt' : 'none',
        },
      }),
    );
    return toSalesTaxCalculation(calculation);
  }

  async recordTransaction(input: { calculationId: string; reference: string; idempotencyKey: string }) {
    const transaction = await unavailableOnFailure(async () => {
      try {
        return await (
          await this.stripe()
        ).tax.transactions.createFromCalculation(
          { calculation: input.calculationId, reference: input.reference },
          { idempotencyKey: input.idempotencyKey },
        );
      } catch (error) {
        if (isReferenceTaken(error)) return undefined;
        throw error;
      }
    });
    return { transactionId: transaction?.id };
  }
}

/**
 * Stripe's answer to a second transaction of one `reference` (which "must be unique across all transactions"):
 * an invalid request about `reference`, or `resource_already_exists`. Stripe documents no code of its own for it, so
 * either form means the sale is recorded already.
 */
function isReferenceTaken(error: unknown): boolean {
  const { type, code, param, message } = error as {
    type?: unknown;
    code?: unknown;
    param?: unknown;
    message?: unknown;
  };
  if (type !== 'StripeInvalidRequestError') return false;
  if (code === 'resource_already_exists') return true;
  return param === 'reference' && typeof message === 'string' && /already/i.test(message);
}

async function unavailableOnFailure<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new SalesTaxUnavailable(error instanceof Error ? error.message : String(error));
  }
}

function toSalesTaxCalculation(calculation: Stripe.Tax.Calculation): SalesTaxCalculation {
  if (!calculation.id || calculation.expires_at === null) {
    throw new SalesTaxUnavailable('Stripe Tax answered a calculation without an id or expiry');
  }
  const taxed = calculation.tax_breakdown.find((entry) => entry.amount > 0);
  return {
    calculationId: calculation.id,
    taxCents: calculation.tax_amount_exclusive,
    shippingTaxCents: calculation.shipping_cost?.amount_tax ?? 0,
    ...(taxed ? { ratePercent: taxed.tax_rate_details.percentage_decimal } : {}),
    expiresAt: new Date(calculation.expires_at * 1000).toISOString(),
  };
}

function toStripeAddress(address: TaxAddress): Stripe.Tax.CalculationCreateParams.CustomerDetails.Address {
  const state = US_STATES.find((candidate) => candidate.name === address.state)?.abbreviation ?? address.state;
  return {
    line1: address.line1,
    ...(address.line2 ? { line2: address.line2 } : {}),
    city: address.city,
    state,
    postal_code: address.postalCode,
    country: 'US',
  };
}
