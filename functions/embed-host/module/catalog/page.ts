import { CATEGORIES, type CategoryId, categoryName } from '../../../domain/catalog/categories';
import type { Product } from '../../../domain/catalog/product';
import { escapeHtml, type ModuleFrame, modulePage, tokenField, usd } from '../layout';

export const CATALOG_STYLE = `
.find{display:flex;gap:8px;margin:14px 0 12px}
.find input{flex:1;min-width:0}
.chips{display:flex;flex-wrap:wrap;gap:6px;list-style:none;margin:0 0 18px;padding:0}
.chips a{display:inline-block;padding:5px 12px;border-radius:999px;border:1px solid var(--line);background:#fff;color:var(--ink);text-decoration:none;font-size:14px}
.chips a[aria-current=page]{background:var(--ink);border-color:var(--ink);color:#fff}
.grid{display:grid;gap:14px;grid-template-columns:repeat(auto-fill,minmax(210px,1fr));list-style:none;margin:0;padding:0}
.product{background:#fff;border:1px solid var(--line);border-radius:12px;padding:14px 16px;display:flex;flex-direction:column;gap:4px}
.product .cat{font-size:12px;font-weight:600;color:var(--accent-ink);text-transform:uppercase;letter-spacing:.05em}
.product h3{font-size:15px;line-height:1.3;margin:0}
.product .desc{color:var(--muted);font-size:13px;margin:0;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden}
.product .unit{font-size:13px;margin:2px 0 0;color:var(--muted)}
.product .buy{margin-top:auto;padding-top:10px;display:flex;align-items:center;justify-content:space-between;gap:8px}
.product .price{font-size:17px;font-weight:700;font-variant-numeric:tabular-nums}
.product form{margin:0}
.results{color:var(--muted);font-size:14px;margin:0 0 10px}
`;

export interface CatalogView {
  readonly products: readonly Product[];
  readonly category?: CategoryId;
  readonly search?: string;
  /** The product just put in the cart, if the page follows an add. */
  readonly added?: Product;
}

const card = (frame: ModuleFrame, view: CatalogView, product: Product): string => `<li class="product">
  <span class="cat">${escapeHtml(categoryName(product.category))}</span>
  <h3>${escapeHtml(product.name)}</h3>
  <p class="desc">${escapeHtml(product.description)}</p>
  <p class="unit">${escapeHtml(product.unit)} · <span class="sku">${escapeHtml(product.productId)}</span></p>
  <div class="buy"><span class="price">${usd(product.priceCents)}</span>
    <form method="post" action="${escapeHtml(frame.paths.cartItems)}">${tokenField(frame.token)}
      <input type="hidden" name="product_id" value="${escapeHtml(product.productId)}">${
        view.category ? `<input type="hidden" name="category" value="${escapeHtml(view.category)}">` : ''
      }${view.search ? `<input type="hidden" name="q" value="${escapeHtml(view.search)}">` : ''}
      <button type="submit" class="primary">Add<span class="sr"> ${escapeHtml(product.name)}</span> to cart</button>
    </form></div>
</li>`;

/** Home: find supplies by category and search, and put them in the cart. */
export function catalogPage(frame: ModuleFrame, view: CatalogView): string {
  const { paths } = frame;
  const chips = [
    `<li><a href="${escapeHtml(paths.catalog({ q: view.search }))}"${view.category ? '' : ' aria-current="page"'}>All</a></li>`,
    ...CATEGORIES.map(
      (c) =>
        `<li><a href="${escapeHtml(paths.catalog({ category: c.id, q: view.search }))}"${view.category === c.id ? ' aria-current="page"' : ''}>${escapeHtml(c.name)}</a></li>`,
    ),
  ].join('');
  const scope = [view.category ? categoryName(view.category) : '', view.search ? `“${view.search}”` : ''].filter(Boolean).join(', ');
  const flash = view.added
    ? `<div class="flash" role="status"><span>Added <strong>${escapeHtml(view.added.name)}</strong> to your cart.</span><a href="${escapeHtml(paths.cart)}">Review cart</a></div>`
    : '';
  const results = view.products.length
    ? `<p class="results">${view.products.length} product${view.products.length === 1 ? '' : 's'}${scope ? ` in ${escapeHtml(scope)}` : ''}</p>
<ul class="grid">${view.products.map((p) => card(frame, view, p)).join('\n')}</ul>`
    : `<div class="panel"><h2>No products found</h2><p class="lede">Nothing matches ${escapeHtml(scope || 'this view')}. Try fewer words or another category.</p><a class="button" href="${escapeHtml(paths.home)}">Show all supplies</a></div>`;
  return modulePage(
    frame,
    'catalog',
    'Catalog',
    `${flash}<h1>Supplies</h1>
<p class="lede">Order for ${escapeHtml(frame.view.organization.name)}, billed on account.</p>
<form class="find" role="search" method="get" action="${escapeHtml(paths.home)}">
  <label class="sr" for="q">Search supplies</label>
  <input type="search" id="q" name="q" value="${escapeHtml(view.search ?? '')}" placeholder="Search gloves, paper, coffee…" maxlength="100">${
    view.category ? `<input type="hidden" name="category" value="${escapeHtml(view.category)}">` : ''
  }
  <button type="submit">Search</button>
</form>
<nav aria-label="Categories"><ul class="chips">${chips}</ul></nav>
<section aria-label="Products">${results}</section>`,
    CATALOG_STYLE,
  );
}
