import type { CatalogRepository } from './catalog-repository';
import { type CatalogImportIssue, type CatalogImportResult, inRowOrder, parseCatalogImport } from './catalog-import';
import type { Product } from './product';
import { checkProductImage } from './product-image-check';
import { type ProductImageKey, type ProductImageStore, productImageKey } from './product-image';

export interface CatalogFileImportDependencies {
  readonly catalog: Pick<CatalogRepository, 'upsertMany'>;
  readonly images: Pick<ProductImageStore, 'put'>;
  /** The bytes of a row's `image`, a path relative to the catalog file; rejects when the file cannot be read. */
  readImage(path: string): Promise<Uint8Array>;
}

/** Files read at once: a 5,000-row import must not open 5,000 files together. */
const READS_AT_ONCE = 16;

/**
 * Imports a catalog file (its parsed JSON), all or nothing:
 * 1. every row is checked (`parseCatalogImport`), and every row's picture is read and
 *    checked by its content (PNG, JPEG, WebP or SVG; at most 512 KiB);
 * 2. on any problem nothing is stored, and every problem is returned by row and field;
 * 3. the pictures are stored under their content keys, then the products are written
 *    with those keys. A picture stored by an import that then fails to write is only an
 *    unreferenced object: its key is its content, so the next import reuses it.
 */
export async function importCatalogFile(
  json: unknown,
  deps: CatalogFileImportDependencies,
): Promise<CatalogImportResult> {
  const parsed = parseCatalogImport(json);
  const pictures = await readPictures(json, deps.readImage);
  const issues = [...(parsed.ok ? [] : parsed.issues), ...pictures.issues];
  if (!parsed.ok || issues.length > 0) return { ok: false, issues: inRowOrder(issues) };

  const products: Product[] = parsed.products.map((product, row) => ({
    ...product,
    image: pictures.keys.get(row) as ProductImageKey,
  }));
  const distinct = new Map(
    [...pictures.bytes].map(([row, bytes]) => [pictures.keys.get(row) as ProductImageKey, bytes]),
  );
  await inBatches([...distinct], ([key, bytes]) => deps.images.put(key, bytes));
  await deps.catalog.upsertMany(products);
  return { ok: true, products };
}

/** Each row's picture, by row index: read and checked wherever the row names one, whatever else is wrong with the row. */
async function readPictures(json: unknown, readImage: (path: string) => Promise<Uint8Array>) {
  const keys = new Map<number, ProductImageKey>();
  const bytes = new Map<number, Uint8Array>();
  const issues: CatalogImportIssue[] = [];
  const rows = Array.isArray(json) ? json.map((row: unknown, index) => ({ row, index })) : [];
  const named = rows.filter(
    ({ row }) => typeof row === 'object' && row !== null && typeof (row as { image?: unknown }).image === 'string',
  );
  await inBatches(named, async ({ row, index }) => {
    const path = (row as { image: string }).image.trim();
    if (path === '') return; // REQUIRED, from the row's own check
    const problem = (code: string, message: string) =>
      issues.push({ code, message: `[${index}].image ${message}`, path: [String(index), 'image'], row: index });
    let content: Uint8Array;
    try {
      content = await readImage(path);
    } catch (error) {
      problem('FILE_UNREADABLE', `cannot read ${path}: ${(error as Error).message}`);
      return;
    }
    const check = await checkProductImage(content);
    if (!check.ok) {
      problem('INVALID_IMAGE', `${path} ${check.message}`);
      return;
    }
    keys.set(index, productImageKey(content, check.type));
    bytes.set(index, content);
  });
  return { keys, bytes, issues };
}

async function inBatches<T>(items: readonly T[], work: (item: T) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < items.length; start += READS_AT_ONCE)
    await Promise.all(items.slice(start, start + READS_AT_ONCE).map(work));
}
