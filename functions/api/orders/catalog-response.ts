/**
 * The body of `GET /v1/catalog/products`: what a partner needs to order a product. The
 * schema is strict so the document and the contract tests hold real responses to it;
 * the builder returns its type.
 */
// zod/mini: the orders Lambda builds this schema at cold start.
import * as z from 'zod/mini';
import { CategoryId } from '../../domain/catalog/categories';
import type { Product } from '../../domain/catalog/product';
import { fromCents } from '../../domain/money';

export const CatalogProductBody = z.strictObject({
  /** The SKU: what `items[].product_id` of a sandbox order names. */
  product_id: z.string(),
  name: z.string(),
  description: z.string(),
  category: CategoryId,
  /** US dollars, at most two decimals. */
  price: z.number().check(z.gt(0)),
  /** What one of `quantity` is, e.g. "box of 100". */
  unit: z.string(),
});

/** Every active product in catalog order, on one page: `has_more` is false today (a boolean, so paging can come without breaking a client). */
export const CatalogProductListBody = z.strictObject({ data: z.array(CatalogProductBody), has_more: z.boolean() });
export type CatalogProductListBody = z.infer<typeof CatalogProductListBody>;

export const toCatalogResponse = (products: readonly Product[]): CatalogProductListBody => ({
  data: products.map((product) => ({
    product_id: product.productId,
    name: product.name,
    description: product.description,
    category: product.category,
    price: fromCents(product.priceCents),
    unit: product.unit,
  })),
  has_more: false,
});
