import type { Product } from '../../../domain/catalog/product';
import { css } from '../../html-page';
import { type ModuleFrame, modulePage, Usd } from '../layout';
import { AddToCart } from './page';
import { ProductImage } from '../parts/product-picture';

const PRODUCT_STYLE = css`
.crumbs{font-size:14px;margin:0 0 14px}
.item{display:grid;gap:22px;grid-template-columns:minmax(0,320px) minmax(0,1fr);align-items:start}
.item>img{width:100%;height:auto;aspect-ratio:1;background:#fff;border:1px solid var(--line);border-radius:12px}
.item .desc{margin:8px 0 16px}
.facts{margin:0 0 16px;display:grid;grid-template-columns:auto 1fr;gap:4px 16px;font-size:14px}
.facts dt{color:var(--muted)}
.facts dd{margin:0}
.item .price{font-size:22px;font-weight:700;font-variant-numeric:tabular-nums;margin:0 0 12px}
.item form{display:flex;flex-wrap:wrap;align-items:center;gap:8px;margin:0}
.item label{font-size:14px}
.buy{display:flex;align-items:center;gap:8px}
.qty{width:4.6em}
.related{margin-top:32px}
.mini{display:grid;gap:12px;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));list-style:none;margin:0;padding:0}
.mini li{background:#fff;border:1px solid var(--line);border-radius:12px;padding:12px;font-size:14px}
.mini img{display:block;width:100%;height:auto;max-width:96px;margin:0 auto 6px;aspect-ratio:1}
.mini a{color:var(--ink);font-weight:550}
.mini span{display:block;color:var(--muted);font-variant-numeric:tabular-nums}
@media (max-width:620px){.item{grid-template-columns:1fr}.item>img{max-width:240px}}
`;

export interface ProductView {
  readonly product: Product;
  /** Up to four other active products of the same category. */
  readonly related: readonly Product[];
  /** The page follows an add to the cart. */
  readonly added: boolean;
}

/** One product: everything about it, a quantity and the add button, and others of its category. */
export function productPage(frame: ModuleFrame, { product, related, added }: ProductView): string {
  const { paths } = frame;
  return modulePage(
    frame,
    'catalog',
    product.name,
    <>
      {added && (
        <div class="flash" role="status">
          <span>
            Added <strong>{product.name}</strong> to your cart.
          </span>
          <a href={paths.cart}>Review cart</a>
        </div>
      )}
      <p class="crumbs">
        <a href={paths.home}>Supplies</a> /{' '}
        <a href={paths.catalog({ category: product.category })}>{product.category}</a>
      </p>
      <div class="item">
        <ProductImage product={product} size={320} lazy={false} />
        <div>
          <h1>{product.name}</h1>
          <p class="desc">{product.description}</p>
          <dl class="facts">
            <dt>Unit</dt>
            <dd>{product.unit}</dd>
            <dt>SKU</dt>
            <dd class="sku">{product.productId}</dd>
            <dt>Category</dt>
            <dd>{product.category}</dd>
          </dl>
          <p class="price">
            <Usd cents={product.priceCents} />
          </p>
          <AddToCart frame={frame} product={product} id="quantity">
            <input type="hidden" name="from" value="product" />
          </AddToCart>
        </div>
      </div>
      {related.length > 0 && (
        <section class="related" aria-labelledby="related">
          <h2 id="related">More in {product.category}</h2>
          <ul class="mini">
            {related.map((other) => (
              <li>
                <ProductImage product={other} size={96} lazy />
                <a href={paths.product(other.productId)}>{other.name}</a>
                <span>
                  <Usd cents={other.priceCents} />
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>,
    [PRODUCT_STYLE],
  );
}
