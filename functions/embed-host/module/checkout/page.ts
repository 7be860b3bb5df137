import type { Address } from '../../../domain/addresses/address';
import type { PricedCart } from '../../../domain/orders/cart-service';
import type { OrderPricing } from '../../../domain/orders/order-pricing';
import { salesTaxRate } from '../../../domain/orders/sales-tax';
import type { ShippingLocation } from '../../../domain/organizations/organization';
import { CART_STYLE } from '../cart/page';
import { escapeHtml, type ModuleFrame, modulePage, problemContent, tokenField, usd } from '../layout';

const CHECKOUT_STYLE = `
fieldset{border:0;margin:0;padding:0}
legend{font-weight:700;font-size:16px;margin-bottom:10px;padding:0}
.places{display:grid;gap:10px}
.place{display:flex;gap:10px;align-items:flex-start;border:1px solid var(--line);border-radius:10px;padding:12px 14px;cursor:pointer}
.place:has(input:checked){border-color:var(--accent);background:var(--soft)}
.place input{margin-top:4px;accent-color:var(--accent)}
.place address{font-style:normal;color:var(--muted);font-size:14px}
.place b{font-weight:600}
.stack{display:grid;gap:18px}
.items{list-style:none;margin:0;padding:0}
.items li{display:flex;justify-content:space-between;gap:12px;padding:6px 0;border-bottom:1px solid var(--line);font-size:14px}
.items li:last-child{border-bottom:0}
`;

export const addressLines = (address: Pick<Address, 'line1' | 'line2' | 'city' | 'province' | 'postalCode'>): string =>
  [address.line1, address.line2, `${address.city}, ${address.province} ${address.postalCode}`]
    .filter((part): part is string => Boolean(part))
    .map(escapeHtml)
    .join('<br>');

const place = (location: ShippingLocation, chosen: boolean): string => `<label class="place">
  <input type="radio" name="location" value="${escapeHtml(location.id)}"${chosen ? ' checked' : ''}>
  <span><b>${escapeHtml(location.name)}</b>${location.nickname ? ` (${escapeHtml(location.nickname)})` : ''}${
    location.isDefault ? ' <span class="badge">Default</span>' : ''
  }<address>${addressLines(location.address)}</address></span>
</label>`;

/** Subtotal, tax (with the state's rate), shipping and total, as the order will have them. */
export const totals = (pricing: OrderPricing, state: string | undefined): string => `<dl class="sums">
  <dt>Subtotal</dt><dd>${usd(pricing.subtotalCents)}</dd>
  <dt>Tax${state ? ` (${escapeHtml(state)})` : ''}</dt><dd>${usd(pricing.taxCents)}</dd>
  <dt>Shipping</dt><dd>${pricing.shippingCents === 0 ? 'Free' : usd(pricing.shippingCents)}</dd>
  <dt class="total">Total</dt><dd class="total" data-testid="order-total">${usd(pricing.totalCents)}</dd>
</dl>`;

export interface CheckoutView {
  readonly cart: PricedCart;
  readonly locations: readonly ShippingLocation[];
  /** The location the totals are for: the one chosen, else the default, else the first. */
  readonly chosen: ShippingLocation;
}

/**
 * Checkout: where to ship (the default preselected; choosing another reloads the totals
 * for its state, without script), what is ordered and what it costs, then Place order.
 */
export function checkoutPage(frame: ModuleFrame, view: CheckoutView): string {
  const { paths } = frame;
  const { cart, chosen } = view;
  const pricing = cart.pricing;
  if (!pricing) throw new RangeError('checkout prices the cart for the chosen location');
  const rate = salesTaxRate(chosen.address.province);
  const choose =
    view.locations.length > 1
      ? `<form method="get" action="${escapeHtml(paths.checkout)}" class="panel"><fieldset><legend>Ship to</legend><div class="places">${view.locations
          .map((l) => place(l, l.id === chosen.id))
          .join('')}</div></fieldset><div class="actions"><button type="submit">Use this address</button></div></form>`
      : `<section class="panel" aria-labelledby="ship-to"><h2 id="ship-to">Ship to</h2><div class="places">${place(chosen, true).replace(
          '<input type="radio"',
          '<input type="radio" disabled',
        )}</div></section>`;
  return modulePage(
    frame,
    'checkout',
    'Checkout',
    `<h1>Checkout</h1><p class="lede">Review your order. It is billed on account to ${escapeHtml(frame.view.organization.name)} (invoice).</p>
<div class="two">
  <div class="stack">${choose}
    <section class="panel" aria-labelledby="items"><h2 id="items">Items</h2><ul class="items">${cart.lines
      .map((l) => `<li><span>${l.quantity} × ${escapeHtml(l.product.name)} <span class="meta">(${escapeHtml(l.product.unit)})</span></span><span>${usd(l.lineTotalCents)}</span></li>`)
      .join('')}</ul><p class="note"><a href="${escapeHtml(paths.cart)}">Edit cart</a></p></section>
  </div>
  <aside class="panel" aria-labelledby="summary"><h2 id="summary">Order summary</h2>
    ${totals(pricing, `${rate.state} ${rate.percent}%`)}
    <p class="note">Shipping to ${escapeHtml(chosen.name)}, ${escapeHtml(chosen.address.city)}. Payment: invoice.</p>
    <form method="post" action="${escapeHtml(paths.orders)}">${tokenField(frame.token)}
      <input type="hidden" name="location" value="${escapeHtml(chosen.id)}">
      <div class="actions"><button type="submit" class="primary big">Place order</button></div>
    </form>
  </aside>
</div>`,
    CART_STYLE + CHECKOUT_STYLE,
  );
}

export const emptyCheckoutPage = (frame: ModuleFrame): string =>
  modulePage(
    frame,
    'checkout',
    'Checkout',
    problemContent('Your cart is empty', 'There is nothing to check out yet. Add supplies from the catalog first.', [
      { href: frame.paths.home, label: 'Browse supplies', primary: true },
      { href: frame.paths.orders, label: 'View orders' },
    ]),
  );

export const noShippingLocationPage = (frame: ModuleFrame): string =>
  modulePage(
    frame,
    'checkout',
    'Checkout',
    problemContent(
      'No shipping address yet',
      'Your organization has no active shipping location, so there is nowhere to send an order. Ask your administrator to add one in your practice software.',
      [{ href: frame.paths.cart, label: 'Back to cart' }],
    ),
  );
