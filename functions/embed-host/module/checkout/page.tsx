import type { VNode } from 'preact';
import type { Address } from '../../../domain/addresses/address';
import type { PricedCart } from '../../../domain/orders/cart-service';
import type { OrderPricing } from '../../../domain/orders/order-pricing';
import type { MonthSpend } from '../../../domain/orders/order-service';
import { MAX_ORDER_NOTES_LENGTH, MAX_PO_NUMBER_LENGTH } from '../../../domain/orders/order-references';
import { salesTaxRate } from '../../../domain/orders/sales-tax';
import type { ShippingLocation } from '../../../domain/organizations/organization';
import { css } from '../../html-page';
import { CART_STYLE } from '../cart/page';
import { type ModuleFrame, modulePage, ProblemContent, TokenField, Usd } from '../layout';

const CHECKOUT_STYLE = css`
.refs{display:grid;gap:4px;margin-top:14px}
.refs label{font-weight:600;font-size:14px;margin-top:6px}
.refs input,.refs textarea{width:100%;font:inherit;border:1px solid #c9d0d8;border-radius:8px;padding:8px 10px}
.approval-note{margin:14px 0 0;padding:10px 12px;border-radius:10px;background:var(--warn-bg);color:var(--warn);border:1px solid #f3d9a6;font-size:14px}
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

/** An address as its lines, one under the other. */
export const AddressLines = ({
  address,
}: {
  address: Pick<Address, 'line1' | 'line2' | 'city' | 'province' | 'postalCode'>;
}): VNode => (
  <>
    {[address.line1, address.line2, `${address.city}, ${address.province} ${address.postalCode}`]
      .filter((part): part is string => Boolean(part))
      .map((part, i) => (
        <>
          {i > 0 && <br />}
          {part}
        </>
      ))}
  </>
);

/** A shipping location to choose; with `only`, the one there is, shown checked and not to be changed. */
const Place = ({
  location,
  chosen,
  only = false,
}: {
  location: ShippingLocation;
  chosen: boolean;
  only?: boolean;
}): VNode => (
  <label class="place">
    <input type="radio" disabled={only} name="location" value={location.id} checked={chosen} />
    <span>
      <b>{location.name}</b>
      {location.nickname ? ` (${location.nickname})` : ''}
      {location.isDefault && (
        <>
          {' '}
          <span class="badge">Default</span>
        </>
      )}
      <address>
        <AddressLines address={location.address} />
      </address>
    </span>
  </label>
);

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

export interface CheckoutView {
  readonly cart: PricedCart;
  readonly locations: readonly ShippingLocation[];
  /** The location the totals are for: the one chosen, else the default, else the first. */
  readonly chosen: ShippingLocation;
  /** The user's month so far: shown, and weighed, when they have a monthly limit. */
  readonly month: MonthSpend;
}

/**
 * Checkout: where to ship (the default preselected; choosing another reloads the totals
 * for its state, without script), what is ordered and what it costs, then Place order,
 * or, when the total is above the user's order limit or would take the month's orders
 * above their monthly limit, Submit for approval (the same form, posted to the approvals
 * instead; the server refuses such an order anyway).
 */
export function checkoutPage(frame: ModuleFrame, view: CheckoutView): string {
  const { paths } = frame;
  const { cart, chosen } = view;
  const pricing = cart.pricing;
  if (!pricing) throw new RangeError('checkout prices the cart for the chosen location');
  const rate = salesTaxRate(chosen.address.province);
  const limit = frame.view.profile.orderLimitCents;
  const { spentCents, limitCents: monthlyLimit } = view.month;
  const overOrderLimit = limit !== undefined && pricing.totalCents > limit;
  const overMonthlyLimit = monthlyLimit !== undefined && spentCents + pricing.totalCents > monthlyLimit;
  const needsApproval = overOrderLimit || overMonthlyLimit;
  return modulePage(
    frame,
    'checkout',
    'Checkout',
    <>
      <h1>Checkout</h1>
      <p class="lede">Review your order. It is billed on account to {frame.view.organization.name} (invoice).</p>
      <div class="two">
        <div class="stack">
          {view.locations.length > 1 ? (
            <form method="get" action={paths.checkout} class="panel">
              <fieldset>
                <legend>Ship to</legend>
                <div class="places">
                  {view.locations.map((l) => (
                    <Place location={l} chosen={l.id === chosen.id} />
                  ))}
                </div>
              </fieldset>
              <div class="actions">
                <button type="submit">Use this address</button>
              </div>
            </form>
          ) : (
            <section class="panel" aria-labelledby="ship-to">
              <h2 id="ship-to">Ship to</h2>
              <div class="places">
                <Place location={chosen} chosen only />
              </div>
            </section>
          )}
          <section class="panel" aria-labelledby="items">
            <h2 id="items">Items</h2>
            <ul class="items">
              {cart.lines.map((l) => (
                <li>
                  <span>
                    {l.quantity} × {l.product.name} <span class="meta">({l.product.unit})</span>
                  </span>
                  <span>
                    <Usd cents={l.lineTotalCents} />
                  </span>
                </li>
              ))}
            </ul>
            <p class="note">
              <a href={paths.cart}>Edit cart</a>
            </p>
          </section>
        </div>
        <aside class="panel" aria-labelledby="summary">
          <h2 id="summary">Order summary</h2>
          <Totals pricing={pricing} state={`${rate.state} ${rate.percent}%`} />
          <p class="note">
            Shipping to {chosen.name}, {chosen.address.city}. Payment: invoice.
          </p>
          {monthlyLimit !== undefined && (
            <p class="note" data-testid="month-spend">
              <Usd cents={spentCents} /> of <Usd cents={monthlyLimit} /> spent this month
            </p>
          )}
          {overOrderLimit ? (
            <p class="approval-note" data-testid="approval-note">
              This total is above your order limit of <Usd cents={limit} />, so an approver in your organization decides
              on it. Nothing is ordered until they approve.
            </p>
          ) : (
            overMonthlyLimit && (
              <p class="approval-note" data-testid="approval-note">
                With this order your orders this month would total more than your monthly limit of{' '}
                <Usd cents={monthlyLimit} />, so an approver in your organization decides on it. Nothing is ordered
                until they approve.
              </p>
            )
          )}
          <form method="post" action={needsApproval ? paths.approvals : paths.orders} class="refs">
            <TokenField token={frame.token} />
            <input type="hidden" name="location" value={chosen.id} />
            <label for="po_number">
              PO number <span class="meta">(optional)</span>
            </label>
            <input type="text" id="po_number" name="po_number" maxlength={MAX_PO_NUMBER_LENGTH} autocomplete="off" />
            <label for="notes">
              Order notes <span class="meta">(optional)</span>
            </label>
            <textarea id="notes" name="notes" rows={3} maxlength={MAX_ORDER_NOTES_LENGTH} />
            <div class="actions">
              <button type="submit" class="primary big">
                {needsApproval ? 'Submit for approval' : 'Place order'}
              </button>
            </div>
          </form>
        </aside>
      </div>
    </>,
    [CART_STYLE, CHECKOUT_STYLE],
  );
}

export const emptyCheckoutPage = (frame: ModuleFrame): string =>
  modulePage(
    frame,
    'checkout',
    'Checkout',
    <ProblemContent
      title="Your cart is empty"
      message="There is nothing to check out yet. Add supplies from the catalog first."
      links={[
        { href: frame.paths.home, label: 'Browse supplies', primary: true },
        { href: frame.paths.orders, label: 'View orders' },
      ]}
    />,
  );

export const noShippingLocationPage = (frame: ModuleFrame): string =>
  modulePage(
    frame,
    'checkout',
    'Checkout',
    <ProblemContent
      title="No shipping address yet"
      message="Your organization has no active shipping location, so there is nowhere to send an order. Ask your administrator to add one in your practice software."
      links={[{ href: frame.paths.cart, label: 'Back to cart' }]}
    />,
  );
