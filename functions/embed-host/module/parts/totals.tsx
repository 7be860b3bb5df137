import type { VNode } from 'preact';
import type { OrderPricing } from '../../../domain/orders/order-pricing';
import { Usd } from '../layout';

/** Subtotal, tax (with the state's rate), shipping and total, as the order will have them. */
export const Totals = ({ pricing, state }: { pricing: OrderPricing; state: string | undefined }): VNode => (
  <dl class="sums">
    <dt>Subtotal</dt>
    <dd>
      <Usd cents={pricing.subtotalCents} />
    </dd>
    <dt>Tax{state ? ` (${state})` : ''}</dt>
    <dd>
      <Usd cents={pricing.taxCents} />
    </dd>
    <dt>Shipping</dt>
    <dd>{pricing.shippingCents === 0 ? 'Free' : <Usd cents={pricing.shippingCents} />}</dd>
    <dt class="total">Total</dt>
    <dd class="total" data-testid="order-total">
      <Usd cents={pricing.totalCents} />
    </dd>
  </dl>
);
