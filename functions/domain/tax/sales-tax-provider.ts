import type { UsStateName } from '../addresses/us-states';
import type { Cents } from '../money';

/** One priced line of an order as the tax provider sees it: its amount (unit price × quantity) and tax code. */
interface TaxableLine {
  /** The product's SKU: the calculation's line reference, unique within one calculation. */
  readonly reference: string;
  readonly amountCents: Cents;
  readonly quantity: number;
  /** The Stripe product tax code (product-tax-codes.ts). */
  readonly taxCode: string;
}

/** Where the goods go: the shipping location's address, which is what destination-based US sales tax follows. */
export interface TaxAddress {
  readonly line1: string;
  readonly line2?: string;
  readonly city: string;
  readonly state: UsStateName;
  readonly postalCode: string;
}

export interface SalesTaxRequest {
  readonly lines: readonly TaxableLine[];
  /** The order's shipping charge; taxed, or not, as the destination's rules say. */
  readonly shippingCents: Cents;
  readonly address: TaxAddress;
  /** The organization is tax-exempt: the calculation is made (and reported) with no tax. */
  readonly exempt: boolean;
}

/** What the provider computed: the tax to charge and the calculation it can later record as a sale. */
export interface SalesTaxCalculation {
  /** Stripe's `taxcalc_…`: recorded as a tax transaction when the order is invoiced. */
  readonly calculationId: string;
  /** Exclusive tax on the lines and shipping together: the order's `tax`. */
  readonly taxCents: Cents;
  /** Of which on shipping. */
  readonly shippingTaxCents: Cents;
  /** The combined rate applied to the goods, as Stripe's decimal text ("8.625"); absent when nothing was taxed. */
  readonly ratePercent?: string;
  /** ISO 8601: after this the calculation can no longer be recorded, so it is not reused. */
  readonly expiresAt: string;
}

/**
 * Port to the sales-tax engine (Stripe Tax in production). Both calls throw
 * `SalesTaxUnavailable` when the engine cannot answer: no order is ever placed with a
 * guessed tax.
 */
export interface SalesTaxProvider {
  calculate(request: SalesTaxRequest): Promise<SalesTaxCalculation>;
  /**
   * Records the calculation as a sale (Stripe Tax's transaction, which its reports and
   * filings count), under `reference` (the order id) and the caller's idempotency key.
   * `transactionId` is `undefined` when the engine answers that a transaction of this
   * `reference` exists already: an earlier attempt recorded the sale and its answer was lost
   * past the idempotency key's window (Stripe keeps keys for 24 hours), so it is done.
   */
  recordTransaction(input: {
    readonly calculationId: string;
    readonly reference: string;
    readonly idempotencyKey: string;
  }): Promise<{ readonly transactionId: string | undefined }>;
}
