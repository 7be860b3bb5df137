import type { VNode } from 'preact';
import type { OrderItem, ShippingAddressSnapshot } from '../../../domain/orders/order';
import { css } from '../../html-page';
import { AddressLines } from './address-lines';
import { Usd } from '../layout';
import { LinePicture } from './product-picture';

/** What an order's page and an approval request's page both show: the snapshot an order is made of. */
export const ORDER_PARTS_STYLE = css`
.refs{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:4px 14px;background:#fff;border:1px solid var(--line);border-radius:12px;padding:12px 18px;margin:0 0 18px}
.refs dt{color:var(--muted);font-size:13px;font-weight:600}
.refs dd{margin:0;overflow-wrap:anywhere}
.id{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px;color:var(--muted);word-break:break-all}
.stack{display:grid;gap:18px}
table{width:100%;border-collapse:collapse;font-size:14px}
th,td{padding:8px 6px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
th{color:var(--muted);font-weight:600;font-size:13px}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
@media (max-width:520px){.items-table th:nth-child(3),.items-table td:nth-child(3){display:none}}
`;

/** The buyer's PO number and notes, when there are any. */
export const References = ({
  poNumber,
  notes,
  label,
}: {
  poNumber: string | undefined;
  notes: string | undefined;
  label: string;
}): VNode | null =>
  poNumber === undefined && notes === undefined ? null : (
    <dl class="refs" aria-label={label}>
      {poNumber !== undefined && (
        <>
          <dt>PO number</dt>
          <dd data-testid="po-number">{poNumber}</dd>
        </>
      )}
      {notes !== undefined && (
        <>
          <dt>Order notes</dt>
          <dd data-testid="order-notes">{notes}</dd>
        </>
      )}
    </dl>
  );

/** The items of an order or request, each with the product's picture when the catalog still has it. */
export const ItemsTable = ({
  items,
  pictures,
}: {
  items: readonly OrderItem[];
  pictures: ReadonlyMap<string, string>;
}): VNode => (
  <table class="items-table">
    <thead>
      <tr>
        <th scope="col">Product</th>
        <th scope="col" class="n">
          Qty
        </th>
        <th scope="col" class="n">
          Price
        </th>
        <th scope="col" class="n">
          Amount
        </th>
      </tr>
    </thead>
    <tbody>
      {items.map((i) => (
        <tr>
          <td>
            <div class="named">
              <LinePicture image={pictures.get(i.productId)} />
              <div>
                {i.name}
                <br />
                <span class="meta">
                  {i.unit} · {i.productId}
                </span>
              </div>
            </div>
          </td>
          <td class="n">{i.quantity}</td>
          <td class="n">
            <Usd cents={i.unitPriceCents} />
          </td>
          <td class="n">
            <Usd cents={i.unitPriceCents * i.quantity} />
          </td>
        </tr>
      ))}
    </tbody>
  </table>
);

/** The location an order ships to, as it was when the order (or request) was made. */
export const SnapshotAddress = ({ address }: { address: ShippingAddressSnapshot }): VNode => (
  <>
    <b>{address.locationName}</b>
    <br />
    <span class="meta">
      <AddressLines
        address={{
          line1: address.line1,
          ...(address.line2 === undefined ? {} : { line2: address.line2 }),
          city: address.city,
          province: address.state,
          postalCode: address.zip,
        }}
      />
    </span>
  </>
);
