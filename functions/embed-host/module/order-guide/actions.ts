import { MAX_LINE_QUANTITY } from '../../../domain/orders/cart';
import { isProductId } from '../../../domain/catalog/product';
import { ValidationFailed } from '../../../domain/errors';
import { html, type HttpResponse, seeOther } from '../../../http/responses';
import { orderGuidePage } from './page';
import { type ModuleRequest, moduleFrame, moduleSession, verifiedFormPost } from '../module-session';

/** Whole numbers only, as in the cart: `Number('')` is 0 and `Number('1e1')` is 10. */
const WHOLE_NUMBER = /^\s*\d{1,3}\s*$/;

const quantityOf = (text: string | undefined, name: string): number => {
  if (text === undefined || !WHOLE_NUMBER.test(text)) {
    throw new ValidationFailed([
      {
        code: 'INVALID_TYPE',
        message: `Enter a quantity from 1 to ${MAX_LINE_QUANTITY} for ${name}`,
        path: ['quantity'],
      },
    ]);
  }
  return Number(text);
};

const versionOf = (text: string | undefined): number | undefined =>
  text !== undefined && /^\d{1,9}$/.test(text) ? Number(text) : undefined;

/** `GET /embedded/{partnerId}/order-guide[?added=…]`: the organization's order guide. */
export async function showOrderGuide(request: ModuleRequest): Promise<HttpResponse> {
  const session = await moduleSession(request);
  const added = request.event.queryStringParameters?.added;
  const [frame, entries] = await Promise.all([
    moduleFrame(request.deps, session),
    request.deps.orderGuide.view(session.view.organization.id),
  ]);
  const addedProduct =
    added && isProductId(added) ? entries.find((entry) => entry.line.productId === added)?.product : undefined;
  return html(200, orderGuidePage(frame, { entries, ...(addedProduct ? { added: addedProduct } : {}) }));
}

/** `POST /embedded/{partnerId}/order-guide/items` (`product_id`, `quantity`): from a catalog card; then the guide, saying so. */
export async function addToOrderGuide(request: ModuleRequest): Promise<HttpResponse> {
  const { session, form } = await verifiedFormPost(request);
  const productId = form.get('product_id') ?? '';
  const quantity = form.has('quantity') ? quantityOf(form.get('quantity'), 'the order guide') : 1;
  const product = await request.deps.orderGuide.add(session.view.organization.id, productId, quantity);
  return seeOther(`${session.paths.orderGuide}?added=${encodeURIComponent(product.productId)}`);
}

/**
 * `POST /embedded/{partnerId}/order-guide`: the guide page's one form; the button says what to do.
 * - `action=cart`: the checked lines (`select:<id>`) with their quantities (`quantity:<id>`) into the cart; then the cart, saying what was added and skipped;
 * - `action=save:<id>`: `quantity:<id>` becomes the line's usual quantity, if `version:<id>` is still its version;
 * - `action=remove:<id>`: removes the line, on the same condition.
 */
export async function changeOrderGuide(request: ModuleRequest): Promise<HttpResponse> {
  const { session, form } = await verifiedFormPost(request);
  const organizationId = session.view.organization.id;
  const action = form.get('action') ?? '';
  if (action === 'cart') {
    const chosen = [...form.keys()]
      .filter((name) => name.startsWith('select:'))
      .map((name) => name.slice('select:'.length))
      .map((productId) => ({ productId, quantity: quantityOf(form.get(`quantity:${productId}`), productId) }));
    const result = await request.deps.orderGuide.addToCart(organizationId, session.view.profile.id, chosen);
    return seeOther(session.paths.cartAfterAdding(result.added.length, result.skipped));
  }
  const [verb, productId = ''] = action.split(/:(.*)/s, 2);
  const version = versionOf(form.get(`version:${productId}`));
  if (verb === 'save') {
    await request.deps.orderGuide.changeQuantity(
      organizationId,
      productId,
      quantityOf(form.get(`quantity:${productId}`), productId),
      version,
    );
  } else if (verb === 'remove') {
    await request.deps.orderGuide.remove(organizationId, productId, version);
  } else {
    throw new ValidationFailed([
      { code: 'INVALID_VALUE', message: 'Choose Add selected to cart, Save or Remove', path: ['action'] },
    ]);
  }
  return seeOther(session.paths.orderGuide);
}
