/**
 * Which picture some bytes are (docs/decisions.md, "SVG pictures: parsed, allow-listed"), apart from the key and path
 * helpers in product-image.ts: the SVG check parses XML, so only the code that checks pictures (the catalog import,
 * the embed host's picture route) carries it, not every function that links to a picture.
 */
import { MAX_PRODUCT_IMAGE_BYTES, type ProductImageType } from './product-image';
import { checkSvgPicture } from './svg-picture';

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
export async function checkProductImage(bytes: Uint8Array): Promise<ImageCheck> {
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
  const svg = await checkSvgPicture(text);
  if (!svg.ok && svg.tooDeep) return { ok: false, message: `is an SVG too deep to accept: it ${svg.reason}` };
  if (!svg.ok) return { ok: false, message: `is an SVG that does more than draw: it ${svg.reason}` };
  return { ok: true, type: 'svg' };
}
