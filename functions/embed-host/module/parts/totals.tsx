import type { VNode } from 'preact';
import type { OrderPricing } from '../../../domain/orders/order-pricing';
import { Usd } from '../layout';

/**
 * The tax line's label: the combined rate Stripe Tax applied at the destination ("Tax (California 8.625%)"), or that
 * the organization is exempt; plain "Tax" for orders placed before Stripe Tax.
 */
export const taxLabel = (pricing: Pick<OrderPricing, 'salesTax'>, state: string): string => {
  const { salesTax } = pricing;
  if (salesTax?.exempt) return 'Tax (exempt)';
  if (salesTax?.ratePercent !== undefined) return `Tax (${state} ${salesTax.ratePercent}%)`;
  return 'Tax';
};

/**
 * Subtotal, tax, shipping and total, as the order will have them; `data-sum` names the figures checkout's script
 * rewrites when another location is chosen (module-pages-entry.ts).
 */
export const Totals = ({ pricing, state }: { pricing: OrderPricing; state: string }): VNode => (
  <dl class="sums">
    <dt>Subtotal</dt>
    <dd data-sum="subtotal">
      <Usd cents={pricing.subtotalCents} />
    </dd>
    <dt data-sum="tax-label">{taxLabel(pricing, state)}</dt>
    <dd data-sum="tax">
      <Usd cents={pricing.taxCents} />
    </dd>
    <dt>Shipping</dt>
    <dd data-sum="shipping">{pricing.shippingCents === 0 ? 'Free' : <Usd cents={pricing.shippingCents} />}</dd>
    <dt class="total">Total</dt>
    <dd class="total" data-testid="order-total" data-sum="total">
      <Usd cents={pricing.totalCents} />
    </dd>
  </dl>
);
