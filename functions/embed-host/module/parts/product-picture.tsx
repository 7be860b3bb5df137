import type { VNode } from 'preact';
import type { Product } from '../../../domain/catalog/product';
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
