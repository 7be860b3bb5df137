import type { VNode } from 'preact';
import { type Cents, formatUsd } from '../../../domain/money';
import {
  ORDER_STATUSES,
  type Order,
  type OrderChange,
  type OrderStatus,
  refundedCentsOf,
} from '../../../domain/orders/order';
import { MAX_ORDERS_SEARCHED } from '../../../domain/orders/order-search';
import { STATE_TIME_ZONES } from '../../../domain/time-zones';
import { salesTaxRate } from '../../../domain/orders/sales-tax';
import { css } from '../../html-page';
import { ItemsTable, ORDER_PARTS_STYLE, References, SnapshotAddress } from '../parts/order-parts';
import { LINES_STYLE } from '../parts/lines-style';
import { Totals } from '../parts/totals';
import { type ModuleFrame, modulePage, shortOrderId, TokenField, Usd, When } from '../layout';
import { APPROVAL_STYLE, ApprovalList } from '../approvals/page';
import type { ApprovalRequest } from '../../../domain/approvals/approval-request';
import type { InvoiceRecord } from '../../../domain/billing/invoice';
import { INVOICE_PARTS_STYLE, InvoiceBadge } from '../parts/invoice-parts';

const ORDER_STYLE = css`
.orders{list-style:none;margin:0;padding:0}
.orders li{display:grid;grid-template-columns:minmax(0,1.2fr) minmax(0,1.3fr) auto auto;gap:4px 16px;align-items:center;padding:12px 16px;border-bottom:1px solid var(--line)}
.orders li:last-child{border-bottom:0}
.orders a{font-weight:650;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.orders .meta{color:var(--muted);font-size:13px}
.orders .amount{font-weight:700;text-align:right;font-variant-numeric:tabular-nums}
@media (max-width:560px){.orders li{grid-template-columns:1fr auto}}
.placed{display:flex;gap:12px;align-items:center;background:var(--soft);border:1px solid #bfe0d8;border-radius:12px;padding:16px 18px;margin-bottom:18px}
.placed .tick{flex:none;width:36px;height:36px;border-radius:50%;background:var(--accent);color:#fff;display:grid;place-items:center;font-size:20px;font-weight:700}
.placed h1{margin:0}
.placed p{margin:2px 0 0;color:var(--muted)}
.history{list-style:none;margin:0;padding:0 0 0 4px}
.history li{position:relative;padding:0 0 14px 22px;border-left:2px solid var(--line)}
.history li:last-child{border-left-color:transparent;padding-bottom:0}
.history li::before{content:"";position:absolute;left:-7px;top:4px;width:12px;height:12px;border-radius:50%;background:#fff;border:2px solid var(--accent)}
.history .meta{display:block;color:var(--muted);font-size:13px}
.ship{display:grid;gap:4px}
.filter{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:0 0 14px}
.filter label{font-weight:600}
.buy-again{margin:0 0 18px}
.invoice-links{display:flex;flex-wrap:wrap;gap:6px 16px;margin:12px 0 0}
.again{list-style:none;margin:10px 0 0;padding:0;display:flex;flex-wrap:wrap;gap:8px}
.again form{margin:0}
`;

const STATUS_LABEL: Readonly<Record<OrderStatus, string>> = {
  pending: 'Pending',
  confirmed: 'Confirmed',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
};

/** A delivered order refunded in part reads "Partially refunded" with the amount (it stays delivered, so it can be refunded again). */
export const statusLabel = (status: OrderStatus, order?: Pick<Order, 'refund' | 'refundedCents'>): string => {
  const refunded = order ? refundedCentsOf(order) : 0;
  return status === 'delivered' && refunded > 0
    ? `Partially refunded (${formatUsd(refunded as Cents)})`
    : STATUS_LABEL[status];
};

const StatusBadge = ({
  status,
  order,
}: {
  status: OrderStatus;
  order?: Pick<Order, 'refund' | 'refundedCents'>;
}): VNode => (
  <span class={`badge s-${status}`} data-testid="order-status">
    {statusLabel(status, order)}
  </span>
);

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
        <label for="status">Status</label>
        <select id="status" name="status" data-apply-on-change>
          <option value="" selected={!view.status}>
            All statuses
          </option>
          {ORDER_STATUSES.map((s) => (
            <option value={s} selected={view.status === s}>
              {STATUS_LABEL[s]}
            </option>
          ))}
        </select>
        <label for="q">Search orders</label>
        <input
          type="search"
          id="q"
          name="q"
          value={view.search?.q ?? ''}
          maxlength={64}
          placeholder="Order number, PO number or product"
        />
        <label for="from">From</label>
        <input type="date" id="from" name="from" value={view.search?.from ?? ''} />
        <label for="to">To</label>
        <input type="date" id="to" name="to" value={view.search?.to ?? ''} />
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
              <h2>No {STATUS_LABEL[view.status].toLowerCase()} orders</h2>
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
    [ORDER_STYLE, ORDER_PARTS_STYLE, APPROVAL_STYLE],
  );
}

const ChangeText = ({ change }: { change: OrderChange }): VNode | null => {
  switch (change.status) {
    case 'shipped':
      return (
        <>
          {' · '}
          {change.carrier}, tracking {change.trackingNumber}
        </>
      );
    case 'delivered':
      return <> · Signed for by {change.signature}</>;
    case 'cancelled':
    case 'refunded': {
      const refunded =
        change.status === 'refunded' ? (
          <>
            <Usd cents={change.amountCents} /> refunded
          </>
        ) : null;
      if (!refunded && !change.reason) return null;
      return (
        <>
          {' · '}
          {refunded}
          {refunded && change.reason ? ' · ' : ''}
          {change.reason}
        </>
      );
    }
    default:
      return null;
  }
};

/** A shipped order's invoice, or word that it is on its way (invoicing runs shortly after the shipment). */
const InvoiceSection = ({ invoice, zone }: { invoice: InvoiceRecord | undefined; zone: string }): VNode => (
  <section class="panel" aria-labelledby="invoice">
    <h2 id="invoice">Invoice</h2>
    {invoice ? (
      <>
        <dl class="sums">
          <dt>Number</dt>
          <dd data-testid="invoice-number">{invoice.number}</dd>
          <dt>Status</dt>
          <dd>
            <InvoiceBadge status={invoice.status} />
          </dd>
          <dt>Due</dt>
          <dd>
            <When iso={invoice.dueDate} zone={zone} />
          </dd>
          <dt>Amount due</dt>
          <dd data-testid="invoice-amount-due">
            <Usd cents={invoice.amountDueCents as Cents} />
          </dd>
        </dl>
        <p class="invoice-links">
          <a href={invoice.hostedInvoiceUrl} target="_blank" rel="noopener noreferrer">
            View invoice<span class="sr"> (opens in a new tab)</span>
          </a>
          <a href={invoice.invoicePdf} target="_blank" rel="noopener noreferrer">
            Download PDF<span class="sr"> (opens in a new tab)</span>
          </a>
        </p>
      </>
    ) : (
      <p class="meta" style="margin:0">
        No invoice yet: it is issued shortly after the order ships.
      </p>
    )}
  </section>
);

/** One order: what, where, how much, its history and, once shipped, how to track it. */
export function orderPage(
  frame: ModuleFrame,
  order: Order,
  justPlaced: boolean,
  pictures: ReadonlyMap<string, string>,
  invoice?: InvoiceRecord,
): string {
  const { paths } = frame;
  const address = order.shippingAddress;
  const rate = salesTaxRate(address.state);
  const zone = frame.preferredTimeZone ?? STATE_TIME_ZONES[address.state];
  return modulePage(
    frame,
    'orders',
    `Order ${shortOrderId(order.id)}`,
    <>
      {justPlaced ? (
        <>
          <div class="placed" role="status">
            <span class="tick" aria-hidden="true">
              ✓
            </span>
            <div>
              <h1>Order placed</h1>
              <p>Thank you. We sent it to fulfilment; you can follow it here and under Orders.</p>
            </div>
          </div>
          <p class="id">
            Order ID <span data-testid="order-id">{order.id}</span>
          </p>
        </>
      ) : (
        <>
          <h1>Order {shortOrderId(order.id)}</h1>
          <p class="id">
            Order ID <span data-testid="order-id">{order.id}</span>
          </p>
        </>
      )}
      <p>
        <StatusBadge status={order.status} order={order} />{' '}
        <span class="meta">
          placed <When iso={order.createdAt} zone={zone} /> by {order.userEmail}
          {order.approvedBy && (
            <span data-testid="approved-by">
              , approved by {order.approvedBy.name} ({order.approvedBy.email})
            </span>
          )}
        </span>
      </p>
      {order.approvalComment !== undefined && (
        <p class="said">
          The approver's comment: <span data-testid="approval-comment">{order.approvalComment}</span>
        </p>
      )}
      <References poNumber={order.poNumber} notes={order.notes} label="Your references" />
      <form class="buy-again" method="post" action={paths.buyAgain(order.id)}>
        <TokenField token={frame.token} />
        <button type="submit" class="primary">
          Buy again
        </button>{' '}
        <span class="meta">puts these items in your cart at today's prices</span>
      </form>
      <div class="two">
        <div class="stack">
          <section class="panel" aria-labelledby="items">
            <h2 id="items">Items</h2>
            <ItemsTable items={order.items} pictures={pictures} />
            <ul class="again">
              {order.items.map((item) => (
                <li>
                  <form method="post" action={paths.cartItems}>
                    <TokenField token={frame.token} />
                    <input type="hidden" name="product_id" value={item.productId} />
                    <input type="hidden" name="quantity" value={String(item.quantity)} />
                    <input type="hidden" name="from" value="order" />
                    <button type="submit">Add {item.name} to cart</button>
                  </form>
                </li>
              ))}
            </ul>
          </section>
          <section class="panel" aria-labelledby="history">
            <h2 id="history">Status history</h2>
            <ol class="history">
              {order.statusHistory.map((c) => (
                <li>
                  <strong>{STATUS_LABEL[c.status]}</strong>
                  <span class="meta">
                    <When iso={c.at} zone={zone} />
                    <ChangeText change={c} />
                  </span>
                </li>
              ))}
            </ol>
          </section>
        </div>
        <div class="stack">
          <aside class="panel" aria-labelledby="summary">
            <h2 id="summary">Summary</h2>
            <Totals pricing={order} state={`${rate.state} ${rate.percent}%`} />
            <p class="note">Payment: invoice, billed on account.</p>
          </aside>
          {order.shipment && <InvoiceSection invoice={invoice} zone={zone} />}
          <section class="panel" aria-labelledby="shipping">
            <h2 id="shipping">Shipping</h2>
            <p style="margin:0 0 8px">
              <SnapshotAddress address={address} />
            </p>
            {order.shipment && (
              <div class="ship">
                <span>
                  {order.shipment.carrier} · {order.shipment.trackingNumber}
                </span>
                <span class="meta">
                  Estimated delivery <When iso={order.shipment.estimatedDelivery} zone={zone} />
                </span>
                <a href={order.shipment.trackingUrl} target="_blank" rel="noopener noreferrer">
                  Track shipment<span class="sr"> (opens in a new tab)</span>
                </a>
              </div>
            )}
          </section>
        </div>
      </div>
      <p>
        <a href={paths.orders}>All orders</a>
      </p>
    </>,
    [LINES_STYLE, ORDER_STYLE, ORDER_PARTS_STYLE, INVOICE_PARTS_STYLE],
    justPlaced ? { page: 'order', order: { id: order.id, totalCents: order.totalCents } } : { page: 'order' },
  );
}
