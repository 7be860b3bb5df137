import type { PricedCart, PricedCartLine, UnavailableCartLine } from '../../../domain/orders/cart-service';
import { MAX_LINE_QUANTITY } from '../../../domain/orders/cart';
import { escapeHtml, type ModuleFrame, modulePage, tokenField, usd } from '../layout';

export const CART_STYLE = `
.lines{list-style:none;margin:0;padding:0}
.line{display:grid;grid-template-columns:minmax(0,1fr) auto;gap:6px 16px;padding:14px 0;border-bottom:1px solid var(--line)}
.line:first-child{padding-top:0}
.line h3{font-size:15px;margin:0}
.line .meta{color:var(--muted);font-size:13px;margin:0}
.line .amount{font-weight:700;text-align:right;font-variant-numeric:tabular-nums}
.line form{grid-column:1/-1;display:flex;flex-wrap:wrap;align-items:center;gap:8px;margin:0}
.line input{width:76px}
.line.gone h3{color:var(--muted);text-decoration:line-through}
.note{color:var(--muted);font-size:13px;margin:12px 0 0}
`;

/** Units of available products: what the header's Cart link counts. */
export const cartUnits = (cart: PricedCart): number => cart.lines.reduce((sum, line) => sum + line.quantity, 0);

const lineForm = (frame: ModuleFrame, productId: string, name: string, quantity: number): string => {
  const field = `qty-${escapeHtml(productId)}`;
  return `<form method="post" action="${escapeHtml(frame.paths.cartItem(productId))}">${tokenField(frame.token)}
      <label for="${field}">Quantity<span class="sr"> of ${escapeHtml(name)}</span></label>
      <input type="number" id="${field}" name="quantity" value="${quantity}" min="0" max="${MAX_LINE_QUANTITY}" inputmode="numeric" required>
      <button type="submit" name="action" value="update">Update<span class="sr"> quantity of ${escapeHtml(name)}</span></button>
      <button type="submit" name="action" value="remove" class="quiet">Remove<span class="sr"> ${escapeHtml(name)}</span></button>
    </form>`;
};

const line = (frame: ModuleFrame, { product, quantity, lineTotalCents }: PricedCartLine): string => `<li class="line">
    <div><h3>${escapeHtml(product.name)}</h3><p class="meta">${escapeHtml(product.unit)} · ${usd(product.priceCents)} each · ${escapeHtml(product.productId)}</p></div>
    <div class="amount">${usd(lineTotalCents)}</div>
    ${lineForm(frame, product.productId, product.name, quantity)}
  </li>`;

const unavailableLine = (frame: ModuleFrame, gone: UnavailableCartLine): string => {
  const name = gone.product?.name ?? gone.productId;
  return `<li class="line gone">
    <div><h3>${escapeHtml(name)}</h3><p class="meta">No longer available: remove it to check out.</p></div>
    <div class="amount"></div>
    <form method="post" action="${escapeHtml(frame.paths.cartItem(gone.productId))}">${tokenField(frame.token)}
      <button type="submit" name="action" value="remove">Remove<span class="sr"> ${escapeHtml(name)}</span></button></form>
  </li>`;
};

/** The cart: change quantities, remove lines, go to checkout. */
export function cartPage(frame: ModuleFrame, cart: PricedCart): string {
  const { paths } = frame;
  if (cart.lines.length === 0 && cart.unavailable.length === 0) {
    return modulePage(
      frame,
      'cart',
      'Cart',
      `<h1>Cart</h1><div class="panel problem"><h2>Your cart is empty</h2><p class="lede">Browse the catalog and add what your team needs.</p>
<div class="actions"><a class="button primary" href="${escapeHtml(paths.home)}">Browse supplies</a><a class="button" href="${escapeHtml(paths.orders)}">View orders</a></div></div>`,
      CART_STYLE,
    );
  }
  const units = cartUnits(cart);
  return modulePage(
    frame,
    'cart',
    'Cart',
    `<h1>Cart</h1><p class="lede">${units} item${units === 1 ? '' : 's'} · prices are current catalog prices</p>
<div class="two">
  <section class="panel" aria-label="Items in your cart"><ul class="lines">
  ${cart.lines.map((l) => line(frame, l)).join('\n')}
  ${cart.unavailable.map((l) => unavailableLine(frame, l)).join('\n')}
  </ul></section>
  <aside class="panel" aria-labelledby="summary"><h2 id="summary">Summary</h2>
    <dl class="sums"><dt>Subtotal</dt><dd>${usd(cart.subtotalCents)}</dd></dl>
    <p class="note">Tax and shipping are shown at checkout, for the address you choose.</p>
    <div class="actions">${
      cart.lines.length && !cart.unavailable.length
        ? `<a class="button primary big" href="${escapeHtml(paths.checkout)}">Checkout</a>`
        : cart.unavailable.length
          ? '<p class="note">Remove the products that are no longer available to check out.</p>'
          : ''
    }<a class="button big" href="${escapeHtml(paths.home)}">Continue shopping</a></div>
  </aside>
</div>`,
    CART_STYLE,
  );
}
