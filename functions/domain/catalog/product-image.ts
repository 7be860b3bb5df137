/**
 * Product pictures: which files are pictures, how they are named once stored, and the
 * port of the store (an S3 bucket of the stack; fauxqs's S3 locally).
 *
 * A stored picture's key is the SHA-256 of its bytes plus the type's extension, so a key
 * names one content forever: browsers may keep it for a year (`immutable`), a changed
 * picture is a new key, and storing the same file twice is one object.
 */
import { createHash } from 'node:crypto';
import { checkSvgPicture } from './svg-picture';

export type ProductImageType = 'png' | 'jpeg' | 'webp' | 'svg';

/** The largest picture an import accepts: a product card's picture, not a print file. */
const MAX_PRODUCT_IMAGE_BYTES = 512 * 1024;

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

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0): boolean =>
  prefix.every((byte, index) => bytes[at + index] === byte);
const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

export type ImageCheck =
  { readonly ok: true; readonly type: ProductImageType } | { readonly ok: false; readonly message: string };

/**
 * Which picture the bytes are, by their content (PNG, JPEG and WebP signatures; an SVG
 * document that only draws, `checkSvgPicture`), never by a file name, and whether it is
 * small enough. The import checks every picture with it, and the asset route checks an
 * SVG again before serving it, so a picture put in the bucket another way is not served.
 */
export function checkProductImage(bytes: Uint8Array): ImageCheck {
  if (bytes.length === 0) return { ok: false, message: 'is an empty file' };
  if (bytes.length > MAX_PRODUCT_IMAGE_BYTES)
    return {
      ok: false,
      message: `is ${Math.ceil(bytes.length / 1024)} KiB; at most ${MAX_PRODUCT_IMAGE_BYTES / 1024} KiB`,
    };
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { ok: true, type: 'png' };
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { ok: true, type: 'jpeg' };
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return { ok: true, type: 'webp' };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, message: 'is not a PNG, JPEG, WebP or SVG image' };
  }
  if (!/^\uFEFF?\s*</.test(text) || !/<svg[\s>]/.test(text))
    return { ok: false, message: 'is not a PNG, JPEG, WebP or SVG image' };
  const svg = checkSvgPicture(text);
  if (!svg.ok && svg.tooDeep) return { ok: false, message: `is an SVG too deep to accept: it ${svg.reason}` };
  if (!svg.ok) return { ok: false, message: `is an SVG that does more than draw: it ${svg.reason}` };
  return { ok: true, type: 'svg' };
}

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
