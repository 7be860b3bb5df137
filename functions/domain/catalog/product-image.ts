/**
 * Product pictures: which files are pictures, how they are named once stored, and the
 * port of the store (an S3 bucket of the stack; fauxqs's S3 locally).
 *
 * A stored picture's key is the SHA-256 of its bytes plus the type's extension, so a key
 * names one content forever: browsers may keep it for a year (`immutable`), a changed
 * picture is a new key, and storing the same file twice is one object.
 */
import { createHash } from 'node:crypto';

export type ProductImageType = 'png' | 'jpeg' | 'webp' | 'svg';

/** The largest picture an import accepts: a product card's picture, not a print file. */
export const MAX_PRODUCT_IMAGE_BYTES = 512 * 1024;

const EXTENSIONS: Readonly<Record<ProductImageType, string>> = { png: 'png', jpeg: 'jpg', webp: 'webp', svg: 'svg' };

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  svg: 'image/svg+xml',
};

/** `<64 hex>.<png|jpg|webp|svg>`: the only keys the store holds and the asset route serves. */
const IMAGE_KEY = /^[0-9a-f]{64}\.(png|jpg|webp|svg)$/;

export type ProductImageKey = string & { readonly __brand: 'ProductImageKey' };

export const isProductImageKey = (value: string): value is ProductImageKey => IMAGE_KEY.test(value);

export const productImageKey = (bytes: Uint8Array, type: ProductImageType): ProductImageKey =>
  `${createHash('sha256').update(bytes).digest('hex')}.${EXTENSIONS[type]}` as ProductImageKey;

/** The Content-Type a key is served with: from the extension the importer chose after reading the bytes, never from the upload. */
export const contentTypeOf = (key: ProductImageKey): string =>
  CONTENT_TYPES[key.slice(key.lastIndexOf('.') + 1)] as string;

/** Where the embed host serves a stored picture, under its own origin. */
export const productImagePath = (key: string): string => `/embedded/assets/products/${encodeURIComponent(key)}`;

/** A stored picture as the store gives it back. */
export interface StoredProductImage {
  readonly bytes: Uint8Array;
}

/** Storage port for product pictures. */
export interface ProductImageStore {
  /** Stores the bytes under their key (an overwrite writes the same bytes). */
  put(key: ProductImageKey, bytes: Uint8Array): Promise<void>;
  /** The picture, or undefined when the store has no such key. */
  get(key: ProductImageKey): Promise<StoredProductImage | undefined>;
}
