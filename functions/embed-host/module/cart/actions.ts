import { isProductId, type Product, type ProductId } from '../../../domain/catalog/product';
import { ValidationFailed } from '../../../domain/errors';
import { html, type JsonResponse, seeOther } from '../../../api/pipeline/responses';
import { cartPage } from './page';
import { checkoutPage, emptyCheckoutPage, noShippingLocationPage } from '../checkout/page';
import { frameWithCart, type ModuleRequest, moduleSession, verifiedFormPost } from '../module-session';

/** At most this many skipped products are named on the cart page (a cart holds at most 50 lines). */
const MAX_NAMED_SKIPS = 50;

/**
 * `GET /embedded/{partnerId}/cart[?added=N&skipped=ID,ID]`: the cart; after a Buy again or
 * an order-guide add it also says how many products were added and names those skipped
 * (no longer sold). The query only chooses what to say: names come from the catalog.
 */
export async function showCart(request: ModuleRequest): Promise<JsonResponse> {
  const session = await moduleSession(request);
  const query = request.event.queryStringParameters ?? {};
  const added = /^\d{1,2}$/.test(query.added ?? '') ? Number(query.added) : undefined;
  const skippedIds = (query.skipped ?? '').split(',').filter(isProductId).slice(0, MAX_NAMED_SKIPS);
  const [cart, products] = await Promise.all([
    request.deps.cartService.view(session.view.profile.id),
    skippedIds.length ? request.deps.catalog.get(skippedIds) : new Map<ProductId, Product>(),
  ]);
  const notice =
    added === undefined ? undefined : { added, skipped: skippedIds.map((id) => products.get(id)?.name ?? id) };
  return html(200, cartPage(await frameWithCart(request.deps, session, cart), cart, notice));
}

/** Whole numbers only: `Number('')` is 0 and `Number('1e1')` is 10, neither of which the user typed as a quantity. */
const QUANTITY_TEXT = /^\s*\d{1,3}\s*$/;

/**
 * `POST /embedded/{partnerId}/cart/items/{productId}`: `action=remove`, or
 * `action=update` with `quantity` (0 removes). Back to the cart either way.
 */
export async function changeCartLine(request: ModuleRequest): Promise<JsonResponse> {
  const { session, form } = await verifiedFormPost(request);
  const profileId = session.view.profile.id;
  const productId = request.event.pathParameters?.productId ?? '';
  if (form.get('action') === 'remove') {
    await request.deps.cartService.remove(profileId, productId);
  } else {
    const text = form.get('quantity') ?? '';
    if (!QUANTITY_TEXT.test(text)) {
      throw new ValidationFailed([
        { code: 'INVALID_TYPE', message: 'Enter a quantity from 0 to 99 (0 removes the product)', path: ['quantity'] },
      ]);
    }
    await request.deps.cartService.changeQuantity(profileId, productId, Number(text));
  }
  return seeOther(session.paths.cart);
}

/**
 * `GET /embedded/{partnerId}/checkout[?location=…]`: the cart priced for a shipping
 * location (the one chosen, else the default, else the first active one).
 */
export async function showCheckout(request: ModuleRequest): Promise<JsonResponse> {
  const session = await moduleSession(request);
  const { locations } = session.view;
  const wanted = request.event.queryStringParameters?.location;
  const chosen = locations.find((l) => l.id === wanted) ?? locations.find((l) => l.isDefault) ?? locations[0];
  const cart = await request.deps.cartService.view(session.view.profile.id, chosen?.address.province);
  const frame = await frameWithCart(request.deps, session, cart);
  if (cart.lines.length === 0) return html(200, emptyCheckoutPage(frame));
  if (cart.unavailable.length > 0) return seeOther(session.paths.cart);
  if (!chosen) return html(200, noShippingLocationPage(frame));
  const month = await request.deps.orderService.monthSpend(session.view.profile, session.view);
  return html(200, checkoutPage(frame, { cart, locations, chosen, month }));
}
