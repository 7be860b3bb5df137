import type { VNode } from 'preact';
import { CATEGORIES, type CategoryId, categoryName } from '../../../domain/catalog/categories';
import type { Product } from '../../../domain/catalog/product';
import { css } from '../../html-page';
import { type ModuleFrame, modulePage, TokenField, Usd } from '../layout';

const CATALOG_STYLE = css`
.find{display:flex;gap:8px;margin:14px 0 12px}
.find input{flex:1;min-width:0}
.chips{display:flex;flex-wrap:wrap;gap:6px;list-style:none;margin:0 0 18px;padding:0}
.chips a{display:inline-block;padding:5px 12px;border-radius:999px;border:1px solid var(--line);background:#fff;color:var(--ink);text-decoration:none;font-size:14px}
.chips a[aria-current=page]{background:var(--ink);border-color:var(--ink);color:#fff}
.grid{display:grid;gap:14px;grid-template-columns:repeat(auto-fill,minmax(210px,1fr));list-style:none;margin:0;padding:0}
.product{background:#fff;border:1px solid var(--line);border-radius:12px;padding:14px 16px;display:flex;flex-direction:column;gap:4px}
.product .cat{font-size:12px;font-weight:600;color:var(--accent-ink);text-transform:uppercase;letter-spacing:.05em}
.product h2{font-size:15px;line-height:1.3;margin:0}
.product .desc{color:var(--muted);font-size:13px;margin:0;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden}
.product .unit{font-size:13px;margin:2px 0 0;color:var(--muted)}
.product .buy{margin-top:auto;padding-top:10px;display:flex;align-items:center;justify-content:space-between;gap:8px}
.product .price{font-size:17px;font-weight:700;font-variant-numeric:tabular-nums}
.product form{margin:0}
.product .guide-add{display:flex;gap:6px;align-items:center;margin-top:6px;padding-top:8px;border-top:1px solid var(--line)}
.product .guide-add input{width:64px;padding:4px 6px}
.product .guide-add button{padding:4px 6px;font-size:13px}
.results{color:var(--muted);font-size:14px;margin:0 0 10px}
`;

export interface CatalogView {
  readonly products: readonly Product[];
  readonly category?: CategoryId;
  readonly search?: string;
  /** The product just put in the cart, if the page follows an add. */
  readonly added?: Product;
}

/** The view's filter, kept by the forms on the page so an add or a search stays in it. */
const CategoryField = ({ view }: { view: CatalogView }): VNode | null => (view.category ? <input type="hidden" name="category" value={view.category} /> : null);

// The product's name is the card's h2: the page's h1 is "Supplies" and headings do not skip a level.
const Card = ({ frame, view, product }: { frame: ModuleFrame; view: CatalogView; product: Product }): VNode => (
  <li class="product">
    <span class="cat">{categoryName(product.category)}</span>
    <h2>{product.name}</h2>
    <p class="desc">{product.description}</p>
    <p class="unit">
      {product.unit} · <span class="sku">{product.productId}</span>
    </p>
    <div class="buy">
      <span class="price">
        <Usd cents={product.priceCents} />
      </span>
      <form method="post" action={frame.paths.cartItems}>
        <TokenField token={frame.token} />
        <input type="hidden" name="product_id" value={product.productId} />
        <CategoryField view={view} />
        {view.search ? <input type="hidden" name="q" value={view.search} /> : null}
        <button type="submit" class="primary">
          Add<span class="sr"> {product.name}</span> to cart
        </button>
      </form>
    </div>
    <form class="guide-add" method="post" action={frame.paths.orderGuideItems}>
      <TokenField token={frame.token} />
      <input type="hidden" name="product_id" value={product.productId} />
      <input type="number" name="quantity" min={1} max={99} value="1" aria-label={`Usual quantity of ${product.name}`} />
      <button type="submit" aria-label={`Add ${product.name} to order guide`}>
        Add to order guide
      </button>
    </form>
  </li>
);

/** Home: find supplies by category and search, and put them in the cart. */
export function catalogPage(frame: ModuleFrame, view: CatalogView): string {
  const { paths } = frame;
  const scope = [view.category ? categoryName(view.category) : '', view.search ? `“${view.search}”` : ''].filter(Boolean).join(', ');
  const count = view.products.length;
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
        <input type="search" id="q" name="q" value={view.search ?? ''} placeholder="Search gloves, paper, coffee…" maxlength={100} />
        <CategoryField view={view} />
        <button type="submit">Search</button>
      </form>
      <nav aria-label="Categories">
        <ul class="chips">
          <li>
            <a href={paths.catalog({ q: view.search })} aria-current={view.category ? undefined : 'page'}>
              All
            </a>
          </li>
          {CATEGORIES.map((c) => (
            <li>
              <a href={paths.catalog({ category: c.id, q: view.search })} aria-current={view.category === c.id ? 'page' : undefined}>
                {c.name}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <section aria-label="Products">
        {count ? (
          <>
            <p class="results">
              {count} product{count === 1 ? '' : 's'}
              {scope ? ` in ${scope}` : ''}
            </p>
            <ul class="grid">
              {view.products.map((p) => (
                <Card frame={frame} view={view} product={p} />
              ))}
            </ul>
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
