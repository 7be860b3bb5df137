import type { VNode } from 'preact';
import type { PricedCart, PricedCartLine, UnavailableCartLine } from '../../../domain/orders/cart-service';
import { MAX_LINE_QUANTITY } from '../../../domain/orders/cart';
import { LINES_STYLE } from '../parts/lines-style';
import { LinePicture } from '../parts/product-picture';
import { type ModuleFrame, modulePage, TokenField, Usd } from '../layout';

/** Units of available products: what the header's Cart link counts. */
export const cartUnits = (cart: PricedCart): number => cart.lines.reduce((sum, line) => sum + line.quantity, 0);

const LineForm = ({
  frame,
  productId,
  name,
  quantity,
}: {
  frame: ModuleFrame;
  productId: string;
  name: string;
  quantity: number;
}): VNode => {
  const field = `qty-${productId}`;
  return (
    <form method="post" action={frame.paths.cartItem(productId)}>
      <TokenField token={frame.token} />
      <label for={field}>
        Quantity<span class="sr"> of {name}</span>
      </label>
      <input
        type="number"
        id={field}
        name="quantity"
        value={quantity}
        min={0}
        max={MAX_LINE_QUANTITY}
        inputmode="numeric"
        required
      />
      <button type="submit" name="action" value="update">
        Update<span class="sr"> quantity of {name}</span>
      </button>
      <button type="submit" name="action" value="remove" class="quiet">
        Remove<span class="sr"> {name}</span>
      </button>
    </form>
  );
};

// A line's product name is an h2: the page's h1 is "Cart" and headings do not skip a level.
const Line = ({
  frame,
  line: { product, quantity, lineTotalCents },
}: {
  frame: ModuleFrame;
  line: PricedCartLine;
}): VNode => (
  <li class="line">
    <div class="named">
      <LinePicture image={product.image} />
      <div>
        <h2>{product.name}</h2>
        <p class="meta">
          {product.unit} · <Usd cents={product.priceCents} /> each · {product.productId}
        </p>
      </div>
    </div>
    <div class="amount">
      <Usd cents={lineTotalCents} />
    </div>
    <LineForm frame={frame} productId={product.productId} name={product.name} quantity={quantity} />
  </li>
);

const UnavailableLine = ({ frame, gone }: { frame: ModuleFrame; gone: UnavailableCartLine }): VNode => {
  const name = gone.product?.name ?? gone.productId;
  return (
    <li class="line gone">
      <div>
        <h2>{name}</h2>
        <p class="meta">No longer available: remove it to check out.</p>
      </div>
      <div class="amount" />
      <form method="post" action={frame.paths.cartItem(gone.productId)}>
        <TokenField token={frame.token} />
        <button type="submit" name="action" value="remove">
          Remove<span class="sr"> {name}</span>
        </button>
      </form>
    </li>
  );
};

/** The cart: change quantities, remove lines, go to checkout. */
/** What a page that filled the cart (Buy again, the order guide) tells it to say: how many products, and which were skipped. */
export interface CartNotice {
  readonly added: number;
  /** Names (or ids) of the products no longer sold, which were not added. */
  readonly skipped: readonly string[];
}

const Notice = ({ notice }: { notice: CartNotice | undefined }): VNode | null =>
  notice ? (
    <div class="flash" role="status" data-testid="cart-notice">
      <span>
        Added {notice.added} product{notice.added === 1 ? '' : 's'} to your cart.
        {notice.skipped.length > 0 && <> No longer sold, so not added: {notice.skipped.join(', ')}.</>}
      </span>
    </div>
  ) : null;

export function cartPage(frame: ModuleFrame, cart: PricedCart, notice?: CartNotice): string {
  const { paths } = frame;
  if (cart.lines.length === 0 && cart.unavailable.length === 0) {
    return modulePage(
      frame,
      'cart',
      'Cart',
      <>
        <Notice notice={notice} />
        <h1>Cart</h1>
        <div class="panel problem">
          <h2>Your cart is empty</h2>
          <p class="lede">Browse the catalog and add what your team needs.</p>
          <div class="actions">
            <a class="button primary" href={paths.home}>
              Browse supplies
            </a>
            <a class="button" href={paths.orders}>
              View orders
            </a>
          </div>
        </div>
      </>,
      [LINES_STYLE],
    );
  }
  const units = cartUnits(cart);
  return modulePage(
    frame,
    'cart',
    'Cart',
    <>
      <Notice notice={notice} />
      <h1>Cart</h1>
      {cart.resubmits !== undefined && (
        <p class="flash" data-testid="resubmits">
          <span>
            This cart resubmits <a href={paths.approval(cart.resubmits)}>Request {cart.resubmits.slice(0, 8)}</a>:
            submitting it for approval links the new request to that one.
          </span>
        </p>
      )}
      <p class="lede">
        {units} item{units === 1 ? '' : 's'} · prices are current catalog prices
      </p>
      <div class="two">
        <section class="panel" aria-label="Items in your cart">
          <ul class="lines">
            {cart.lines.map((l) => (
              <Line frame={frame} line={l} />
            ))}
            {cart.unavailable.map((l) => (
              <UnavailableLine frame={frame} gone={l} />
            ))}
          </ul>
        </section>
        <aside class="panel" aria-labelledby="summary">
          <h2 id="summary">Summary</h2>
          <dl class="sums">
            <dt>Subtotal</dt>
            <dd>
              <Usd cents={cart.subtotalCents} />
            </dd>
          </dl>
          <p class="note">Tax and shipping are shown at checkout, for the address you choose.</p>
          <div class="actions">
            {cart.lines.length > 0 && cart.unavailable.length === 0 ? (
              <a class="button primary big" href={paths.checkout}>
                Checkout
              </a>
            ) : cart.unavailable.length > 0 ? (
              <p class="note">Remove the products that are no longer available to check out.</p>
            ) : null}
            <a class="button big" href={paths.home}>
              Continue shopping
            </a>
          </div>
        </aside>
      </div>
    </>,
    [LINES_STYLE],
  );
}
