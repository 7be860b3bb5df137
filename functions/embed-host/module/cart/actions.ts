import { MAX_LINE_QUANTITY } from '../../../domain/orders/cart';
import { isProductId, type Product, type ProductId } from '../../../domain/catalog/product';
import { ValidationFailed } from '../../../domain/errors';
import { html, type HttpResponse, seeOther } from '../../../http/responses';
import { cartPage } from './page';
import { frameWithCart, type ModuleRequest, moduleSession, verifiedFormPost } from '../module-session';

/** At most this many skipped products are named on the cart page (a cart holds at most 50 lines). */
const MAX_NAMED_SKIPS = 50;

/**
 * `GET /embedded/{partnerId}/cart[?added=N&skipped=ID,ID]`: the cart; after a Buy again or
 * an order-guide add it also says how many products were added and names those skipped
 * (no longer sold). The query only chooses what to say: names come from the catalog.
 */
export async function showCart(request: ModuleRequest): Promise<HttpResponse> {
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
export async function changeCartLine(request: ModuleRequest): Promise<HttpResponse> {
  const { session, form } = await verifiedFormPost(request);
  const profileId = session.view.profile.id;
  const productId = request.event.pathParameters?.productId ?? '';
  if (form.get('action') === 'remove') {
    await request.deps.cartService.remove(profileId, productId);
  } else {
    const text = form.get('quantity') ?? '';
    if (!QUANTITY_TEXT.test(text)) {
      throw new ValidationFailed([
        {
          code: 'INVALID_TYPE',
          message: `Enter a quantity from 0 to ${MAX_LINE_QUANTITY} (0 removes the product)`,
          path: ['quantity'],
        },
      ]);
    }
    await request.deps.cartService.changeQuantity(profileId, productId, Number(text));
  }
  return seeOther(session.paths.cart);
}
