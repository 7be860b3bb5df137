import type { ApprovalRequest } from '../../../domain/approvals/approval-request';
import { ORDER_STATUSES, type Order, type OrderStatus } from '../../../domain/orders/order';
import { MAX_ORDERS_SEARCHED } from '../../../domain/orders/order-search';
import { css } from '../../html-page';
import { type ModuleFrame, modulePage, shortOrderId, Usd, When } from '../layout';
import { APPROVAL_STYLE, ApprovalList } from '../parts/approval-list';
import { ORDER_PARTS_STYLE } from '../parts/order-parts';
import { StatusBadge, statusLabel } from '../parts/order-status';

/** The orders list's own rules. */
const ORDERS_STYLE = css`
.orders{list-style:none;margin:0;padding:0}
.orders li{display:grid;grid-template-columns:minmax(0,1.2fr) minmax(0,1.3fr) auto auto;gap:4px 16px;align-items:center;padding:12px 16px;border-bottom:1px solid var(--line)}
.orders li:last-child{border-bottom:0}
.orders a{font-weight:650;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.orders .meta{color:var(--muted);font-size:13px}
.orders .amount{font-weight:700;text-align:right;font-variant-numeric:tabular-nums}
@media (max-width:560px){.orders li{grid-template-columns:1fr auto}}
.filter{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:0 0 14px}
.filter label{font-weight:600}
/* A label stays on its control's line when the form wraps. */
.filter .field{display:inline-flex;gap:8px;align-items:center;max-width:100%}
`;

const units = (order: Order): number => order.items.reduce((sum, item) => sum + item.quantity, 0);

export interface OrdersView {
  readonly orders: readonly Order[];
  /** The status the list is filtered by, if any. */
  readonly status?: OrderStatus;
  /** The search text and days (YYYY-MM-DD, the organization's zone) as the user typed them. */
  readonly search?: { readonly q?: string; readonly from?: string; readonly to?: string };
  /** False when a text search stopped at its bound with older orders unread. */
  readonly searchComplete?: boolean;
  /** The next page's address, when older orders follow. */
  readonly olderHref?: string;
  /** The user's own approval requests of the last 30 days, as of `now` (first, unfiltered page only). */
  readonly requests?: { readonly list: readonly ApprovalRequest[]; readonly now: Date };
}

/** The organization's orders, newest first. */
export function ordersPage(frame: ModuleFrame, view: OrdersView): string {
  const { paths } = frame;
  return modulePage(
    frame,
    'orders',
    'Orders',
    <>
      <h1>Orders</h1>
      <p class="lede">Everything {frame.view.organization.name} ordered here, newest first.</p>
      {view.requests && view.requests.list.length > 0 && (
        <>
          <h2>Your approval requests</h2>
          <ApprovalList
            requests={view.requests.list}
            frame={frame}
            options={{ showRequester: false, now: view.requests.now, label: 'Your approval requests' }}
          />
          <h2 style="margin-top:22px">Orders</h2>
        </>
      )}
      <form class="filter" method="get" action={paths.orders}>
        <span class="field">
          <label for="status">Status</label>
          <select id="status" name="status" data-apply-on-change>
            <option value="" selected={!view.status}>
              All statuses
            </option>
            {ORDER_STATUSES.map((s) => (
              <option value={s} selected={view.status === s}>
                {statusLabel(s)}
              </option>
            ))}
          </select>
        </span>
        <span class="field">
          <label for="q">Search orders</label>
          <input
            type="search"
            id="q"
            name="q"
            value={view.search?.q ?? ''}
            maxlength={64}
            placeholder="Order, PO or product"
          />
        </span>
        <span class="field">
          <label for="from">From</label>
          <input type="date" id="from" name="from" value={view.search?.from ?? ''} />
        </span>
        <span class="field">
          <label for="to">To</label>
          <input type="date" id="to" name="to" value={view.search?.to ?? ''} />
        </span>
        <button type="submit">Filter</button>
      </form>
      {view.searchComplete === false && (
        <p class="note" role="status" data-testid="search-bound">
          Only the newest {MAX_ORDERS_SEARCHED} orders were searched: set From and To to search older ones.
        </p>
      )}
      {view.orders.length ? (
        <>
          <section class="panel" style="padding:4px 0" aria-label="Orders">
            <ul class="orders">
              {view.orders.map((o) => (
                <li>
                  <span>
                    <a href={paths.order(o.id)}>Order {shortOrderId(o.id)}</a>
                    <br />
                    <span class="meta">
                      {units(o)} item{units(o) === 1 ? '' : 's'} · {o.userEmail}
                      {o.poNumber ? ` · PO ${o.poNumber}` : ''}
                    </span>
                  </span>
                  <span class="meta">
                    <When iso={o.createdAt} zone={frame.timeZone} />
                    <br />
                    to {o.shippingAddress.locationName}
                  </span>
                  <span class="amount">
                    <Usd cents={o.totalCents} />
                  </span>
                  <StatusBadge status={o.status} order={o} />
                </li>
              ))}
            </ul>
          </section>
          {view.olderHref && (
            <div class="actions">
              <a class="button" href={view.olderHref}>
                Older orders
              </a>
            </div>
          )}
        </>
      ) : (
        <div class="panel problem">
          {view.search?.q || view.search?.from || view.search?.to ? (
            <>
              <h2>No orders match</h2>
              <p class="lede">
                <a href={paths.orders}>Show all orders</a>
              </p>
            </>
          ) : view.status ? (
            <>
              <h2>No {statusLabel(view.status).toLowerCase()} orders</h2>
              <p class="lede">
                <a href={paths.orders}>Show all orders</a>
              </p>
            </>
          ) : (
            <>
              <h2>No orders yet</h2>
              <p class="lede">Orders your organization places appear here, with their status.</p>
            </>
          )}
          <div class="actions">
            <a class="button primary" href={paths.home}>
              Browse supplies
            </a>
          </div>
        </div>
      )}
    </>,
    [ORDERS_STYLE, ORDER_PARTS_STYLE, APPROVAL_STYLE],
  );
}
