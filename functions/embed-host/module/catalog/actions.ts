import { MAX_LINE_QUANTITY } from '../../../domain/orders/cart';
import { categoriesOf } from '../../../domain/catalog/categories';
import {
  type CatalogSort,
  isCatalogSort,
  matchesCatalogFilter,
  pageOfCatalog,
  sortCatalog,
} from '../../../domain/catalog/catalog-listing';
import { isProductId } from '../../../domain/catalog/product';
import { ProductNotFound, ValidationFailed } from '../../../domain/errors';
import { html, type HttpResponse, seeOther } from '../../../http/responses';
import type { CatalogQuery } from '../module-paths';
import { cardId, catalogPage } from './page';
import { productPage } from './product-page';
import { type ModuleRequest, moduleFrame, moduleSession, verifiedFormPost } from '../module-session';

/** Longer searches are cut here: no product text is longer, and a 2 KB query is no search. */
const MAX_SEARCH = 100;
/** A category is at most 64 characters (categories.ts); a longer one matches nothing anyway. */
const MAX_CATEGORY = 64;

const searchOf = (value: string | undefined) => value?.trim().slice(0, MAX_SEARCH) || undefined;
const categoryOf = (value: string | undefined) => value?.trim().slice(0, MAX_CATEGORY) || undefined;
const sortOf = (value: string | undefined): CatalogSort => (isCatalogSort(value) ? value : 'name');
const pageOf = (value: string | undefined): number => (value && /^\d{1,4}$/.test(value) ? Number(value) : 1);

/** The catalog view a request names: what the address keeps, and what an add from a card returns to. */
const catalogQueryOf = (
  read: (name: string) => string | undefined,
): CatalogQuery & { readonly sort: CatalogSort; readonly page: number } => ({
  category: categoryOf(read('category')),
  q: searchOf(read('q')),
  sort: sortOf(read('sort')),
  page: pageOf(read('page')),
});

/** `GET /embedded/{partnerId}[?category=…&q=…&sort=…&page=…&added=…]`: the catalog, home of the module. */
export async function showCatalog(request: ModuleRequest): Promise<HttpResponse> {
  const { deps, event } = request;
  const query = event.queryStringParameters ?? {};
  const view = catalogQueryOf((name) => query[name]);
  // The catalog is the same for every user: read while the session is checked, not after.
  const listing = deps.catalog.listActive();
  // Awaited below; until then a failed read must not count as unhandled when the session is refused first.
  listing.catch(() => undefined);
  const session = await moduleSession(request);
  const [frame, active] = await Promise.all([moduleFrame(deps, session), listing]);
  const added =
    query.added && isProductId(query.added) ? active.find((product) => product.productId === query.added) : undefined;
  const found = active.filter((product) =>
    matchesCatalogFilter(product, {
      ...(view.category ? { category: view.category } : {}),
      ...(view.q ? { search: view.q } : {}),
    }),
  );
  return html(
    200,
    catalogPage(frame, {
      ...pageOfCatalog(sortCatalog(found, view.sort), view.page),
      categories: categoriesOf(active),
      sort: view.sort,
      ...(view.category ? { category: view.category } : {}),
      ...(view.q ? { search: view.q } : {}),
      ...(added ? { added } : {}),
    }),
  );
}

/** Whole numbers only: `Number('')` is 0 and `Number('1e1')` is 10, neither of which the user typed as a quantity. */
const QUANTITY_TEXT = /^\s*\d{1,3}\s*$/;

/**
 * `POST /embedded/{partnerId}/cart/items` (`product_id`, `quantity` 1-999, default 1): that
 * many more in the cart, then back where the add came from: the product's page
 * (`from=product`), the cart (`from=order`, an order page's line), else the same catalog view (category, search, sort and page kept) at the card it came from.
 */
export async function addToCart(request: ModuleRequest): Promise<HttpResponse> {
  const { session, form } = await verifiedFormPost(request);
  const productId = form.get('product_id') ?? '';
  const quantityText = form.get('quantity') ?? '1';
  if (!QUANTITY_TEXT.test(quantityText)) {
    throw new ValidationFailed([
      { code: 'INVALID_TYPE', message: `Enter a quantity from 1 to ${MAX_LINE_QUANTITY}`, path: ['quantity'] },
    ]);
  }
  await request.deps.cartService.add(session.view.profile.id, productId, Number(quantityText));
  if (form.get('from') === 'product') return seeOther(session.paths.product(productId, { added: true }));
  // An order page's line: the cart says it was added.
  if (form.get('from') === 'order') return seeOther(session.paths.cartAfterAdding(1, []));
  const view = session.paths.catalog({ ...catalogQueryOf((name) => form.get(name)), added: productId });
  return seeOther(`${view}#${encodeURIComponent(cardId(productId))}`);
}

/** Other products a product page links to, of the same category. */
const RELATED_PRODUCTS = 4;

/**
 * `GET /embedded/{partnerId}/products/{productId}[?added=1]`: one product on sale, with
 * up to four others of its category; an unknown or inactive one is the 404 page.
 */
export async function showProduct(request: ModuleRequest): Promise<HttpResponse> {
  const { deps, event } = request;
  const productId = event.pathParameters?.productId ?? '';
  const listing = deps.catalog.listActive();
  listing.catch(() => undefined);
  const session = await moduleSession(request);
  const [frame, active] = await Promise.all([moduleFrame(deps, session), listing]);
  const product = isProductId(productId) ? active.find((candidate) => candidate.productId === productId) : undefined;
  if (!product) throw new ProductNotFound(productId);
  const others = active.filter((other) => other.category === product.category && other.productId !== product.productId);
  const related = sortCatalog(others, 'name').slice(0, RELATED_PRODUCTS);
  return html(200, productPage(frame, { product, related, added: event.queryStringParameters?.added === '1' }));
}
