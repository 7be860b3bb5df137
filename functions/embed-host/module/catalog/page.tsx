import { MAX_LINE_QUANTITY } from '../../../domain/orders/cart';
import type { VNode } from 'preact';
import { CATALOG_SORTS, type CatalogSort } from '../../../domain/catalog/catalog-listing';
import type { Product } from '../../../domain/catalog/product';
import { ProductImage } from '../parts/product-picture';
import { css } from '../../html-page';
import { type ModuleFrame, modulePage, TokenField, Usd } from '../layout';
import type { CatalogQuery } from '../module-paths';

const CATALOG_STYLE = css`
.find{display:flex;flex-wrap:wrap;gap:8px;margin:14px 0 12px}
.find input{flex:1 1 200px;min-width:0}
.sortby{display:flex;align-items:center;gap:6px;font-size:14px;color:var(--muted)}
.chips{display:flex;flex-wrap:wrap;gap:6px;list-style:none;margin:0 0 18px;padding:0}
.chips a{display:inline-block;padding:5px 12px;border-radius:999px;border:1px solid var(--line);background:#fff;color:var(--ink);text-decoration:none;font-size:14px}
.chips a[aria-current=page]{background:var(--ink);border-color:var(--ink);color:#fff}
.grid{display:grid;gap:14px;grid-template-columns:repeat(auto-fill,minmax(210px,1fr));list-style:none;margin:0;padding:0}
.product .added{margin:4px 0 0;font-size:13px;font-weight:600;color:var(--accent-ink)}
.product{scroll-margin-top:12px;background:#fff;border:1px solid var(--line);border-radius:12px;padding:14px 16px;display:flex;flex-direction:column;gap:4px}
.product img{display:block;width:100%;height:auto;max-width:160px;margin:0 auto 6px;aspect-ratio:1}
.product .cat{font-size:12px;font-weight:600;color:var(--accent-ink);text-transform:uppercase;letter-spacing:.05em}
.product h2{font-size:15px;line-height:1.3;margin:0}
.product h2 a{color:var(--ink)}
.product .desc{color:var(--muted);font-size:13px;margin:0;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden}
.product .unit{font-size:13px;margin:2px 0 0;color:var(--muted)}
.product .price{font-size:17px;font-weight:700;font-variant-numeric:tabular-nums;margin-top:auto;padding-top:8px}
.product form,.buy{display:flex;flex-wrap:wrap;align-items:center;gap:4px 8px;margin:0}
.buy label,.guide-add label{flex-basis:100%;font-size:12px;font-weight:600;color:var(--muted)}
.qty{width:4.2em}
.product .guide-add{display:flex;flex-wrap:wrap;gap:4px 6px;align-items:center;margin-top:6px;padding-top:8px;border-top:1px solid var(--line)}
.product .guide-add input{width:64px;padding:4px 6px}
.product .guide-add button{padding:4px 6px;font-size:13px}
.results{color:var(--muted);font-size:14px;margin:0 0 10px}
.pages{display:flex;align-items:center;justify-content:center;gap:14px;margin:20px 0 0}
`;

export interface CatalogView {
  /** This page's products. */
  readonly products: readonly Product[];
  readonly page: number;
  readonly pageCount: number;
  /** Products matching the view, on every page. */
  readonly total: number;
  /** Every category with an active product: the category links. */
  readonly categories: readonly string[];
  readonly sort: CatalogSort;
  readonly category?: string;
  readonly search?: string;
  /** The product just put in the cart, if the page follows an add. */
  readonly added?: Product;
}

/** The view's address parts, kept by every link and form on the page. */
const queryOf = (view: CatalogView): CatalogQuery => ({
  category: view.category,
  q: view.search,
  sort: view.sort,
  page: view.page,
});

const Hidden = ({ name, value }: { name: string; value: string | number | undefined }): VNode | null =>
  value === undefined ? null : <input type="hidden" name={name} value={value} />;

/** A quantity field and the add button: on every card and on the product page. */
export const AddToCart = ({
  frame,
  product,
  id,
  children,
}: {
  frame: ModuleFrame;
  product: Product;
  id: string;
  children?: VNode | (VNode | null)[] | null;
}): VNode => (
  <form method="post" action={frame.paths.cartItems}>
    <TokenField token={frame.token} />
    <input type="hidden" name="product_id" value={product.productId} />
    {children}
    <span class="buy">
      <label for={id}>
        Quantity<span class="sr"> of {product.name}</span>
      </label>
      <input
        class="qty"
        type="number"
        id={id}
        name="quantity"
        value="1"
        min={1}
        max={MAX_LINE_QUANTITY}
        step={1}
        inputMode="numeric"
        required
      />
      <button type="submit" class="primary">
        Add<span class="sr"> {product.name}</span> to cart
      </button>
    </span>
  </form>
);

/** A card's element id: an add from the card comes back to it (`#…`), not to the top of a long page. */
export const cardId = (productId: string): string => `card-${productId}`;

// The product's name is the card's h2 and the link to its page: the page's h1 is "Supplies" and headings do not skip a level.
const Card = ({
  frame,
  view,
  product,
  index,
}: {
  frame: ModuleFrame;
  view: CatalogView;
  product: Product;
  index: number;
}): VNode => {
  const query = queryOf(view);
  return (
    <li class="product" id={cardId(product.productId)}>
      <ProductImage product={product} size={160} lazy />
      <span class="cat">{product.category}</span>
      <h2>
        <a href={frame.paths.product(product.productId)}>{product.name}</a>
      </h2>
      <p class="desc">{product.description}</p>
      <p class="unit">
        {product.unit} · <span class="sku">{product.productId}</span>
      </p>
      <p class="price">
        <Usd cents={product.priceCents} />
      </p>
      {view.added?.productId === product.productId && <p class="added">Added to your cart</p>}
      <AddToCart frame={frame} product={product} id={`qty-${index}`}>
        <Hidden name="category" value={query.category} />
        <Hidden name="q" value={query.q} />
        <Hidden name="sort" value={view.sort === 'name' ? undefined : view.sort} />
        <Hidden name="page" value={view.page === 1 ? undefined : view.page} />
      </AddToCart>
      <form class="guide-add" method="post" action={frame.paths.orderGuideItems}>
        <TokenField token={frame.token} />
        <input type="hidden" name="product_id" value={product.productId} />
        <label for={`usual-${index}`}>
          Usual quantity<span class="sr"> of {product.name}</span>
        </label>
        <input type="number" id={`usual-${index}`} name="quantity" min={1} max={MAX_LINE_QUANTITY} value="1" />
        <button type="submit">
          Add<span class="sr"> {product.name}</span> to order guide
        </button>
      </form>
    </li>
  );
};

const Pages = ({ frame, view }: { frame: ModuleFrame; view: CatalogView }): VNode | null => {
  if (view.pageCount <= 1) return null;
  const at = (page: number) => frame.paths.catalog({ ...queryOf(view), page });
  return (
    <nav class="pages" aria-label="Pages">
      {view.page > 1 ? (
        <a href={at(view.page - 1)} rel="prev">
          Previous
        </a>
      ) : null}
      <span>
        Page {view.page} of {view.pageCount}
      </span>
      {view.page < view.pageCount ? (
        <a href={at(view.page + 1)} rel="next">
          Next
        </a>
      ) : null}
    </nav>
  );
};

/** Home: find supplies by category, search and sort, page by page, and put them in the cart. */
export function catalogPage(frame: ModuleFrame, view: CatalogView): string {
  const { paths } = frame;
  const scope = [view.category ?? '', view.search ? `“${view.search}”` : ''].filter(Boolean).join(', ');
  const { total } = view;
  return modulePage(
    frame,
    'catalog',
    'Catalog',
    <>
      {view.added && (
        <div class="flash" role="status">
          <span>
            Added <strong>{view.added.name}</strong> to your cart.
          </span>
          <a href={paths.cart}>Review cart</a>
        </div>
      )}
      <h1>Supplies</h1>
      <p class="lede">Order for {frame.view.organization.name}, billed on account.</p>
      <form class="find" role="search" method="get" action={paths.home}>
        <label class="sr" for="q">
          Search supplies
        </label>
        <input
          type="search"
          id="q"
          name="q"
          value={view.search ?? ''}
          placeholder="Search gloves, paper, coffee…"
          maxlength={100}
        />
        <Hidden name="category" value={view.category} />
        <span class="sortby">
          <label for="sort">Sort</label>
          <select id="sort" name="sort" data-apply-on-change>
            {CATALOG_SORTS.map((sort) => (
              <option value={sort.id} selected={sort.id === view.sort}>
                {sort.label}
              </option>
            ))}
          </select>
        </span>
        <button type="submit">Search</button>
      </form>
      <nav aria-label="Categories">
        <ul class="chips">
          <li>
            <a
              href={paths.catalog({ q: view.search, sort: view.sort })}
              aria-current={view.category ? undefined : 'page'}
            >
              All
            </a>
          </li>
          {view.categories.map((category) => (
            <li>
              <a
                href={paths.catalog({ category, q: view.search, sort: view.sort })}
                aria-current={view.category === category ? 'page' : undefined}
              >
                {category}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <section aria-label="Products">
        {total ? (
          <>
            <p class="results">
              {total} product{total === 1 ? '' : 's'}
              {scope ? ` in ${scope}` : ''}
            </p>
            <ul class="grid">
              {view.products.map((p, index) => (
                <Card frame={frame} view={view} product={p} index={index} />
              ))}
            </ul>
            <Pages frame={frame} view={view} />
          </>
        ) : (
          <div class="panel">
            <h2>No products found</h2>
            <p class="lede">Nothing matches {scope || 'this view'}. Try fewer words or another category.</p>
            <a class="button" href={paths.home}>
              Show all supplies
            </a>
          </div>
        )}
      </section>
    </>,
    [CATALOG_STYLE],
  );
}
