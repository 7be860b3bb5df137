/**
 * The body of `GET /v1/catalog/products`: what a partner needs to order a product. The
 * schema is strict so the document and the contract tests hold real responses to it;
 * the builder returns its type.
 */
// zod/mini: the orders Lambda builds this schema at cold start.
import * as z from 'zod/mini';
import type { Product } from '../../domain/catalog/product';
import { productImagePath } from '../../domain/catalog/product-image';
import { fromCents } from '../../domain/money';

const CatalogProductBody = z.strictObject({
  /** The SKU: what `items[].product_id` of a sandbox order names. */
  product_id: z.string(),
  name: z.string(),
  description: z.string(),
  /** A name people read, e.g. "Gloves & PPE"; the catalog import defines the categories. */
  category: z.string(),
  /** US dollars, at most two decimals. */
  price: z.number().check(z.gt(0)),
  /** What one of `quantity` is, e.g. "box of 100". */
  unit: z.string(),
  /** The product's picture on the embed host (absolute URL; content-addressed, cacheable for a year). */
  image_url: z.url(),
});

/** Every active product in catalog order, on one page: `has_more` is false today (a boolean, so paging can come without breaking a client). */
export const CatalogProductListBody = z.strictObject({ data: z.array(CatalogProductBody), has_more: z.boolean() });
export type CatalogProductListBody = z.infer<typeof CatalogProductListBody>;

/** `embedBaseUrl`: the embed host with its scheme, where the pictures are served. */
export const toCatalogResponse = (products: readonly Product[], embedBaseUrl: string): CatalogProductListBody => ({
  data: products.map((product) => ({
    product_id: product.productId,
    name: product.name,
    description: product.description,
    category: product.category,
    price: fromCents(product.priceCents),
    unit: product.unit,
    image_url: new URL(productImagePath(product.image), embedBaseUrl).href,
  })),
  has_more: false,
});
