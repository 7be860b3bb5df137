import type { VNode } from 'preact';
import type { Product, ProductId } from '../../../domain/catalog/product';
import { productImagePath } from '../../../domain/catalog/product-image';

/** A product's picture in a slot of `size` CSS pixels; the name is its text alternative. */
export const ProductImage = ({ product, size, lazy }: { product: Product; size: number; lazy: boolean }): VNode => (
  <img
    src={productImagePath(product.image)}
    alt={product.name}
    width={size}
    height={size}
    {...(lazy ? { loading: 'lazy' as const } : {})}
    decoding="async"
  />
);

/**
 * A product's picture beside its name in a list of lines (cart, checkout, order guide, order, request). The name is
 * written next to it, so the picture is decorative (`alt=""`): a screen reader does not read each name twice. An
 * order's product that left the catalog has no picture: an empty slot keeps the lines aligned.
 */
export const LinePicture = ({ image }: { image: string | undefined }): VNode =>
  image === undefined ? (
    <span class="pic" />
  ) : (
    <img class="pic" src={productImagePath(image)} alt="" width={48} height={48} loading="lazy" decoding="async" />
  );

/** Each product's picture key, from the catalog as it is now: an order's or a request's lines are snapshots without one. */
export async function picturesOf(
  catalog: { get(ids: readonly ProductId[]): Promise<ReadonlyMap<ProductId, Product>> },
  items: readonly { readonly productId: ProductId }[],
): Promise<ReadonlyMap<ProductId, string>> {
  const products = await catalog.get(items.map((item) => item.productId));
  return new Map([...products].map(([id, product]) => [id, product.image]));
}
