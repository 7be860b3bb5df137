import { CategoryId } from '../../../domain/catalog/categories';
import { isProductId } from '../../../domain/catalog/product';
import { html, type JsonResponse, seeOther } from '../../../api/pipeline/responses';
import { catalogPage } from './page';
import { type ModuleRequest, moduleFrame, moduleSession, verifiedFormPost } from '../module-session';

/** Longer searches are cut here: no product text is longer, and a 2 KB query is no search. */
const MAX_SEARCH = 100;

const categoryOf = (value: string | undefined) => {
  const parsed = CategoryId.safeParse(value);
  return parsed.success ? parsed.data : undefined;
};
const searchOf = (value: string | undefined) => value?.trim().slice(0, MAX_SEARCH) || undefined;

/** `GET /embedded/{partnerId}[?category=…&q=…&added=…]`: the catalog, home of the module. */
export async function showCatalog(request: ModuleRequest): Promise<JsonResponse> {
  const { deps, event } = request;
  const query = event.queryStringParameters ?? {};
  const category = categoryOf(query.category);
  const search = searchOf(query.q);
  // The catalog is the same for every user: read while the session is checked, not after.
  const listing = deps.catalog.listActive({ ...(category ? { category } : {}), ...(search ? { search } : {}) });
  // Awaited below; until then a failed read must not count as unhandled when the session is refused first.
  listing.catch(() => undefined);
  const session = await moduleSession(request);
  const [frame, products, added] = await Promise.all([
    moduleFrame(deps, session),
    listing,
    query.added && isProductId(query.added) ? deps.catalog.get([query.added]).then((found) => found.get(query.added as never)) : undefined,
  ]);
  return html(
    200,
    catalogPage(frame, { products, ...(category ? { category } : {}), ...(search ? { search } : {}), ...(added ? { added } : {}) }),
  );
}

/** `POST /embedded/{partnerId}/cart/items` (`product_id`): one more in the cart, then back to the same catalog view. */
export async function addToCart(request: ModuleRequest): Promise<JsonResponse> {
  const { session, form } = await verifiedFormPost(request);
  const productId = form.get('product_id') ?? '';
  await request.deps.cartService.add(session.view.profile.id, productId, 1);
  return seeOther(session.paths.catalog({ category: categoryOf(form.get('category')), q: searchOf(form.get('q')), added: productId }));
}
