/**
 * One order's page: what, where, how much, its history, its invoice and, once shipped,
 * how to track it.
 */
import type { VNode } from 'preact';
import type { InvoiceRecord } from '../../../domain/billing/invoice';
import type { Cents } from '../../../domain/money';
import type { Order, OrderChange } from '../../../domain/orders/order';
import { STATE_TIME_ZONES } from '../../../domain/time-zones';
import { css } from '../../html-page';
import { type ModuleFrame, modulePage, shortOrderId, TokenField, Usd, When } from '../layout';
import { INVOICE_PARTS_STYLE, InvoiceBadge } from '../parts/invoice-parts';
import { LINES_STYLE } from '../parts/lines-style';
import { ItemsTable, ORDER_PARTS_STYLE, References, SnapshotAddress } from '../parts/order-parts';
import { StatusBadge, statusLabel } from '../parts/order-status';
import { Totals } from '../parts/totals';

/** The order page's own rules. */
const ORDER_STYLE = css`
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
.buy-again{margin:0 0 18px}
.invoice-links{display:flex;flex-wrap:wrap;gap:6px 16px;margin:12px 0 0}
.again{list-style:none;margin:10px 0 0;padding:0;display:flex;flex-wrap:wrap;gap:8px}
.again form{margin:0}
`;

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
                  <strong>{statusLabel(c.status)}</strong>
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
            <Totals pricing={order} state={address.state} />
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
