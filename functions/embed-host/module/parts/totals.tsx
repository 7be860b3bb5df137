import type { VNode } from 'preact';
import type { OrderPricing } from '../../../domain/orders/order-pricing';
import { Usd } from '../layout';

/**
 * Subtotal, tax (with the state's rate), shipping and total, as the order will have them; `data-sum` names the
 * figures checkout's script rewrites when another location is chosen (module-pages-entry.ts).
 */
export const Totals = ({ pricing, state }: { pricing: OrderPricing; state: string | undefined }): VNode => (
  <dl class="sums">
    <dt>Subtotal</dt>
    <dd data-sum="subtotal">
      <Usd cents={pricing.subtotalCents} />
    </dd>
    <dt data-sum="tax-label">Tax{state ? ` (${state})` : ''}</dt>
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
