import type { VNode } from 'preact';
import { formatUsd } from '../../../domain/money';
import type { LimitReason } from '../../../domain/spending/monthly-spend';
import type { OrderPricing } from '../../../domain/orders/order-pricing';
import type { MonthSpend } from '../../../domain/spending/monthly-spend';
import type { PricedCart } from '../../../domain/orders/cart-service';
import { MAX_ORDER_NOTES_LENGTH, MAX_PO_NUMBER_LENGTH } from '../../../domain/orders/order-references';
import type { ShippingLocation } from '../../../domain/organizations/organization';
import { css } from '../../html-page';
import { LINES_STYLE } from '../parts/lines-style';
import { AddressLines } from '../parts/address-lines';
import { taxLabel, Totals } from '../parts/totals';
import { LinePicture } from '../parts/product-picture';
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
.items li{display:flex;align-items:center;gap:12px;padding:6px 0;border-bottom:1px solid var(--line);font-size:14px}
.items li:last-child{border-bottom:0}
.items .what{flex:1;min-width:0;overflow-wrap:anywhere}
fieldset.panel{border:1px solid var(--line);margin:0;min-width:0}
legend{float:left;width:100%}
legend+*{clear:both}
`;

/**
 * What the order would cost shipped to a location, with what placing it takes (above the
 * order limit, or taking the month above the monthly limit, an approval: `limitPassed`).
 */
export interface LocationQuote {
  readonly location: ShippingLocation;
  readonly pricing: OrderPricing;
  readonly needsApproval: boolean;
  readonly limitPassed?: LimitReason;
}

const shippingLine = (location: ShippingLocation): string =>
  `Shipping to ${location.name}, ${location.address.city}. Payment: invoice.`;

/**
 * A shipping location to choose. Its radio carries the location's quote, so the module's script can show the totals
 * of the one selected before the order is placed; with `only`, the one there is, shown checked and not to be changed.
 */
const Place = ({ quote, chosen, only = false }: { quote: LocationQuote; chosen: boolean; only?: boolean }): VNode => {
  const { location, pricing } = quote;
  return (
    <label class="place">
      <input
        type="radio"
        disabled={only}
        name="location"
        value={location.id}
        checked={chosen}
        data-subtotal={formatUsd(pricing.subtotalCents)}
        data-tax-label={taxLabel(pricing, location.address.province)}
        data-tax={formatUsd(pricing.taxCents)}
        data-shipping={pricing.shippingCents === 0 ? 'Free' : formatUsd(pricing.shippingCents)}
        data-total={formatUsd(pricing.totalCents)}
        data-ship-line={shippingLine(location)}
        data-approval={quote.needsApproval ? '1' : undefined}
      />
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
};

/** The buyer's own references on an order: its PO number and notes. */
export interface OrderReferences {
  readonly poNumber: string;
  readonly notes: string;
}

export interface CheckoutView {
  readonly cart: PricedCart;
  /** Every active location with the cart priced for it. */
  readonly quotes: readonly LocationQuote[];
  /** The location the totals are for: the one chosen, else the default, else the first. */
  readonly chosen: LocationQuote;
  /** A Place order (or Submit) posted with another location than the one its totals were for: shown again, re-quoted. */
  readonly requoted?: OrderReferences;
  /** What the PO number and notes fields start with: as posted when re-quoted, else the resubmitted request's. */
  readonly references?: OrderReferences;
  /** The user's month so far: shown, and weighed, when they have a monthly limit. */
  readonly month: MonthSpend;
}

/**
 * Checkout is one form: where to ship, the PO number and notes, and Place order (or, above the user's order limit or
 * taking the month's orders above the monthly limit, Submit for approval, posted to the approvals instead; the server refuses such an order anyway). It carries the
 * location its totals were quoted for (`quoted`): with script, choosing another location rewrites the totals and the
 * button on the spot (module-pages-entry.ts); without, placing with another location than the quoted one answers
 * with this page re-quoted for it, and nothing is placed until the buyer has seen those totals.
 */
export function checkoutPage(frame: ModuleFrame, view: CheckoutView): string {
  const { paths } = frame;
  const { cart, chosen, quotes, requoted } = view;
  const references = requoted ?? view.references;
  const limit = frame.view.profile.orderLimitCents;
  const anyNeedsApproval = quotes.some((q) => q.needsApproval);
  const { spentCents, limitCents: monthlyLimit } = view.month;
  // One note, which the page's script shows or hides per location: the order limit's words when any location passes it.
  const noteFor: LimitReason | undefined = quotes.some((q) => q.limitPassed === 'order_limit')
    ? 'order_limit'
    : anyNeedsApproval
      ? 'monthly_limit'
      : undefined;
  return modulePage(
    frame,
    'checkout',
    'Checkout',
    <>
      <h1>Checkout</h1>
      <p class="lede">Review your order. It is billed on account to {frame.view.organization.name} (invoice).</p>
      {requoted && (
        <p class="flash" role="status" data-testid="requoted">
          The totals are now for {chosen.location.name}, where you chose to ship. Check them, then place the order
          again.
        </p>
      )}
      <form
        method="post"
        action={chosen.needsApproval ? paths.approvals : paths.orders}
        class="two"
        data-checkout
        data-orders={paths.orders}
        data-approvals={paths.approvals}
      >
        <TokenField token={frame.token} />
        <input type="hidden" name="quoted" value={chosen.location.id} />
        <div class="stack">
          {quotes.length > 1 ? (
            <fieldset class="panel">
              <legend>Ship to</legend>
              <div class="places">
                {quotes.map((q) => (
                  <Place quote={q} chosen={q.location.id === chosen.location.id} />
                ))}
              </div>
            </fieldset>
          ) : (
            <section class="panel" aria-labelledby="ship-to">
              <h2 id="ship-to">Ship to</h2>
              <input type="hidden" name="location" value={chosen.location.id} />
              <div class="places">
                <Place quote={chosen} chosen only />
              </div>
            </section>
          )}
          <section class="panel" aria-labelledby="items">
            <h2 id="items">Items</h2>
            <ul class="items">
              {cart.lines.map((l) => (
                <li>
                  <LinePicture image={l.product.image} />
                  <span class="what">
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
          <Totals pricing={chosen.pricing} state={chosen.location.address.province} />
          <p class="note" data-sum="ship-line">
            {shippingLine(chosen.location)}
          </p>
          {monthlyLimit !== undefined && (
            <p class="note" data-testid="month-spend">
              <Usd cents={spentCents} /> of <Usd cents={monthlyLimit} /> spent this month
            </p>
          )}
          {noteFor === 'order_limit' && limit !== undefined && (
            <p class="approval-note" data-testid="approval-note" hidden={!chosen.needsApproval}>
              This total is above your order limit of <Usd cents={limit} />, so an approver in your organization decides
              on it. Nothing is ordered until they approve.
            </p>
          )}
          {noteFor === 'monthly_limit' && monthlyLimit !== undefined && (
            <p class="approval-note" data-testid="approval-note" hidden={!chosen.needsApproval}>
              With this order your orders this month would total more than your monthly limit of{' '}
              <Usd cents={monthlyLimit} />, so an approver in your organization decides on it. Nothing is ordered until
              they approve.
            </p>
          )}
          <div class="refs">
            <label for="po_number">
              PO number <span class="meta">(optional)</span>
            </label>
            <input
              type="text"
              id="po_number"
              name="po_number"
              maxlength={MAX_PO_NUMBER_LENGTH}
              autocomplete="off"
              value={references?.poNumber}
            />
            <label for="notes">
              Order notes <span class="meta">(optional)</span>
            </label>
            <textarea id="notes" name="notes" rows={3} maxlength={MAX_ORDER_NOTES_LENGTH}>
              {references?.notes}
            </textarea>
          </div>
          <div class="actions">
            <button type="submit" class="primary big" data-submit>
              {chosen.needsApproval ? 'Submit for approval' : 'Place order'}
            </button>
          </div>
        </aside>
      </form>
    </>,
    [LINES_STYLE, CHECKOUT_STYLE],
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
