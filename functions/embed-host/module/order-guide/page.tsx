import { MAX_LINE_QUANTITY } from '../../../domain/orders/cart';
import type { VNode } from 'preact';
import type { Product } from '../../../domain/catalog/product';
import type { OrderGuideEntry } from '../../../domain/orders/order-guide';
import { css } from '../../html-page';
import { type ModuleFrame, modulePage, TokenField, Usd } from '../layout';
import { LINES_STYLE } from '../parts/lines-style';
import { LinePicture } from '../parts/product-picture';

const GUIDE_STYLE = css`
.guide{width:100%;border-collapse:collapse;font-size:14px}
.guide td{padding:10px 6px;border-bottom:1px solid var(--line);vertical-align:middle}
.guide tr:last-child td{border-bottom:0}
.guide .pick{width:28px}
.guide .pick input{width:20px;height:20px}
.guide .qty input{width:72px}
.guide .ops{white-space:nowrap;text-align:right}
.guide .gone{color:var(--bad);font-weight:600;font-size:13px}
.toolbar{display:flex;flex-wrap:wrap;gap:10px;align-items:center;justify-content:space-between;margin:0 0 12px}
@media (max-width:560px){.guide tr{display:grid;grid-template-columns:28px 1fr auto;gap:6px}.guide td{border:0;padding:4px}.guide tr{border-bottom:1px solid var(--line);padding:8px 0}.guide .ops{grid-column:2/4;text-align:left}}
`;

export interface OrderGuideView {
  readonly entries: readonly OrderGuideEntry[];
  /** The product just added from the catalog, if the page follows an add. */
  readonly added?: Product;
}

const Row = ({ entry }: { entry: OrderGuideEntry }): VNode => {
  const { line, product } = entry;
  const name = product?.name ?? line.productId;
  const id = line.productId;
  const sold = product?.active === true;
  return (
    <tr>
      <td class="pick">
        <input
          type="checkbox"
          id={`select-${id}`}
          name={`select:${id}`}
          value="1"
          checked={sold}
          disabled={!sold}
          aria-label={`Select ${name}`}
        />
      </td>
      <td>
        <div class="named">
          <LinePicture image={product?.image} />
          <div>
            <label for={`select-${id}`}>
              <strong>{name}</strong>
            </label>
            <br />
            <span class="meta">
              {product ? (
                <>
                  {product.unit} · {id} · <Usd cents={product.priceCents} />
                </>
              ) : (
                id
              )}
            </span>
            {!sold && (
              <>
                <br />
                <span class="gone">No longer sold</span>
              </>
            )}
          </div>
        </div>
      </td>
      <td class="qty">
        <input type="hidden" name={`version:${id}`} value={String(line.version)} />
        <input
          type="number"
          name={`quantity:${id}`}
          min={1}
          max={MAX_LINE_QUANTITY}
          value={String(line.quantity)}
          aria-label={`Quantity of ${name}`}
          inputmode="numeric"
        />
      </td>
      <td class="ops">
        <button type="submit" name="action" value={`save:${id}`} aria-label={`Save usual quantity of ${name}`}>
          Save
        </button>{' '}
        <button
          type="submit"
          name="action"
          value={`remove:${id}`}
          class="quiet"
          aria-label={`Remove ${name} from order guide`}
        >
          Remove
        </button>
      </td>
    </tr>
  );
};

/**
 * The organization's order guide: every line with a checkbox (checked unless no longer
 * sold) and a quantity field, Save (the quantity becomes the usual one) and Remove per
 * line, and Add selected to cart, first in the form so Enter in a field adds to the cart.
 * One form: the button pressed says what to do, so it all works without script.
 */
export function orderGuidePage(frame: ModuleFrame, view: OrderGuideView): string {
  const { paths } = frame;
  return modulePage(
    frame,
    'guide',
    'Order guide',
    <>
      {view.added && (
        <div class="flash" role="status">
          <span>
            Added <strong>{view.added.name}</strong> to the order guide.
          </span>
        </div>
      )}
      <h1>Order guide</h1>
      <p class="lede">
        What {frame.view.organization.name} orders regularly, shared by everyone in your organization. Choose lines,
        adjust quantities, and add them to your cart.
      </p>
      {view.entries.length ? (
        <form method="post" action={paths.orderGuide} class="panel">
          <TokenField token={frame.token} />
          <div class="toolbar">
            <span class="meta">
              {view.entries.length} product{view.entries.length === 1 ? '' : 's'}
            </span>
            <button type="submit" name="action" value="cart" class="primary">
              Add selected to cart
            </button>
          </div>
          <table class="guide" aria-label="Order guide lines">
            <tbody>
              {view.entries.map((entry) => (
                <Row entry={entry} />
              ))}
            </tbody>
          </table>
        </form>
      ) : (
        <div class="panel problem">
          <h2>Your order guide is empty</h2>
          <p class="lede">
            Add the supplies your office orders regularly from their catalog cards ("Add to order guide"); everyone in
            your organization sees them here.
          </p>
          <div class="actions">
            <a class="button primary" href={paths.home}>
              Browse supplies
            </a>
          </div>
        </div>
      )}
    </>,
    [LINES_STYLE, GUIDE_STYLE],
  );
}
