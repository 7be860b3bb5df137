import { SalesTaxUnavailable } from '../../../functions/domain/errors';
import { divideRoundHalfUp } from '../../../functions/domain/money';
import type {
  SalesTaxCalculation,
  SalesTaxProvider,
  SalesTaxRequest,
} from '../../../functions/domain/tax/sales-tax-provider';

/**
 * Stripe Tax for the in-memory tests: a rate per state in basis points (California
 * 862.5 bp is written 8625 tenths), applied to each line and rounded half up; shipping
 * untaxed; an exempt request pays none. Counts its calls and can be made to fail.
 */
export class RateTableSalesTax implements SalesTaxProvider {
  calls = 0;
  failing = false;
  readonly transactions: { calculationId: string; reference: string; idempotencyKey: string }[] = [];
  private next = 0;

  constructor(
    /** Per state, in thousandths of a percent (8.625 % = 8625). */
    private readonly rates: Readonly<Record<string, number>> = { California: 8625, Oregon: 0 },
  ) {}

  async calculate(request: SalesTaxRequest): Promise<SalesTaxCalculation> {
    this.calls += 1;
    if (this.failing) throw new SalesTaxUnavailable('the test made Stripe Tax fail');
    const rate = request.exempt ? 0 : (this.rates[request.address.state] ?? 0);
    const taxCents = request.lines.reduce(
      (sum, line) => sum + Number(divideRoundHalfUp(BigInt(line.amountCents) * BigInt(rate), 100_000n)),
      0,
    );
    this.next += 1;
    return {
      calculationId: `taxcalc_test_${this.next}`,
      taxCents,
      shippingTaxCents: 0,
      ...(taxCents > 0 ? { ratePercent: String(rate / 1000) } : {}),
      expiresAt: '2099-01-01T00:00:00.000Z',
    };
  }

  async recordTransaction(input: { calculationId: string; reference: string; idempotencyKey: string }) {
    if (this.failing) throw new SalesTaxUnavailable('the test made Stripe Tax fail');
    if (!this.transactions.some((t) => t.idempotencyKey === input.idempotencyKey)) this.transactions.push(input);
    return { transactionId: `tax_${input.reference}` };
  }
}
