import { createHash } from 'node:crypto';
import type { Clock } from '../clock';
import type { ProfileId } from '../organizations/organization';
import type { SalesTaxCalculation, SalesTaxProvider, SalesTaxRequest } from './sales-tax-provider';

/** A calculation kept for reuse, and until when it may be reused. */
export interface RememberedSalesTax {
  readonly calculation: SalesTaxCalculation;
  /** ISO 8601. */
  readonly reuseUntil: string;
}

/** Where calculations are kept for reuse: beside the buyer's cart, by the key of what was calculated. */
export interface SalesTaxMemory {
  rememberedSalesTax(profileId: ProfileId, key: string): Promise<RememberedSalesTax | undefined>;
  rememberSalesTax(profileId: ProfileId, key: string, remembered: RememberedSalesTax): Promise<void>;
  forgetSalesTax(profileId: ProfileId, key: string): Promise<void>;
}

/**
 * For a function with no cart to keep calculations beside (the partner API's sandbox
 * orders name their items; there is no quote to reuse): every order is calculated once.
 */
export const NO_SALES_TAX_MEMORY: SalesTaxMemory = {
  rememberedSalesTax: () => Promise.resolve(undefined),
  rememberSalesTax: () => Promise.resolve(),
  forgetSalesTax: () => Promise.resolve(),
};

/**
 * A calculation is reused for a day at most: rates change on the first of a month and an
 * order placed from a week-old checkout page should be taxed at today's. Stripe keeps a
 * calculation 90 days, far beyond that, so its `expires_at` (Stripe's clock, not ours) is
 * not compared with ours.
 */
const MAX_REUSE_MS = 24 * 3600 * 1000;

/** The key of a calculation: everything that changes its answer (lines, tax codes, shipping, address, exemption). */
function salesTaxKey(request: SalesTaxRequest): string {
  const { address } = request;
  const canonical = JSON.stringify([
    request.lines.map((line) => [line.reference, line.amountCents, line.quantity, line.taxCode]),
    request.shippingCents,
    [address.line1, address.line2 ?? '', address.city, address.state, address.postalCode],
    request.exempt,
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}

/**
 * Sales tax for a buyer's order, one provider call per cart contents and address: the
 * checkout page's calculation for a location is remembered beside the cart, and placing
 * (or submitting) the order it quoted finds it there, so what the buyer saw is what the
 * order carries, to the cent, and reloading checkout costs no second call.
 */
export class SalesTaxQuotes {
  constructor(
    private readonly options: {
      readonly provider: SalesTaxProvider;
      readonly memory: SalesTaxMemory;
      readonly clock: Clock;
    },
  ) {}

  /** The calculation for `request`, and the key it is remembered under (for `used`). */
  async taxFor(
    buyer: ProfileId,
    request: SalesTaxRequest,
  ): Promise<{ readonly calculation: SalesTaxCalculation; readonly key: string }> {
    const { provider, memory, clock } = this.options;
    const key = salesTaxKey(request);
    const remembered = await memory.rememberedSalesTax(buyer, key);
    const now = clock.now().getTime();
    if (remembered && Date.parse(remembered.reuseUntil) > now) return { calculation: remembered.calculation, key };
    const calculation = await provider.calculate(request);
    const reuseUntil = new Date(now + MAX_REUSE_MS).toISOString();
    await memory.rememberSalesTax(buyer, key, { calculation, reuseUntil });
    return { calculation, key };
  }

  /**
   * An order (or approval request) now carries the calculation: it is forgotten, so the
   * next order of the same cart and address gets its own. Each order's tax transaction is
   * then recorded from a calculation no other order uses.
   */
  async used(buyer: ProfileId, key: string): Promise<void> {
    await this.options.memory.forgetSalesTax(buyer, key);
  }
}
