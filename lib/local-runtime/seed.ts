import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Dependencies } from '../../functions/container';
import type { CatalogRepository } from '../../functions/domain/catalog/catalog-repository';
import { importCatalogFile } from '../../functions/domain/catalog/catalog-file-import';
import type { ProductImageStore } from '../../functions/domain/catalog/product-image';
import { SEED_CATALOG } from '../../functions/domain/catalog/seed-catalog';
import type { PartnerId } from '../../functions/domain/partners/partner';

interface SeededPartner {
  readonly partnerId: string;
  readonly apiKey: string;
}

export interface SeedOutcome extends SeededPartner {
  /** True when this call created the partner and its key (no seed file, or its partner was gone). */
  readonly issued: boolean;
}

/**
 * The local sandbox partner. Its key is only ever known in plaintext at creation, so
 * it is kept in `.local/seed.json` (git-ignored, local data only) to print it again on
 * the next start; if the partner vanished (a reset), a new one is created.
 */
export async function seedSandboxPartner(deps: Dependencies, seedFile: string): Promise<SeedOutcome> {
  if (existsSync(seedFile)) {
    const seeded = JSON.parse(readFileSync(seedFile, 'utf8')) as SeededPartner;
    if (await deps.partners.getPartner(seeded.partnerId as PartnerId))
      return { partnerId: seeded.partnerId, apiKey: seeded.apiKey, issued: false };
  }
  const created = await deps.partnerAdmin.createPartner({
    name: 'Local Sandbox Partner',
    alertEmail: 'alerts@partner.test',
  });
  const seeded = { partnerId: created.partnerId, apiKey: created.apiKey };
  writeFileSync(seedFile, `${JSON.stringify(seeded, null, 2)}\n`, { mode: 0o600 });
  return { ...seeded, issued: true };
}

/** The seed catalog's `image` paths are relative to this directory (seed-images/). */
const SEED_IMAGES_BASE = new URL('./', import.meta.url);

/**
 * The seed supplies catalog, through the same import as an operator's file (pictures
 * checked and stored, then the products), written only into an empty catalog: an
 * operator's own import survives restarts. The pictures are stored on every start all
 * the same: the local S3 (fauxqs) keeps nothing across restarts, DynamoDB Local does.
 * Returns how many products were written.
 */
export async function seedCatalog(deps: {
  catalog: CatalogRepository;
  productImages: ProductImageStore;
}): Promise<number> {
  const empty = (await deps.catalog.listActive()).length === 0;
  const imported = await importCatalogFile(SEED_CATALOG, {
    catalog: empty ? deps.catalog : { upsertMany: async () => undefined },
    images: deps.productImages,
    readImage: async (path) => readFile(new URL(path, SEED_IMAGES_BASE)),
  });
  if (!imported.ok)
    throw new Error(`The seed catalog is invalid: ${imported.issues.map((issue) => issue.message).join('; ')}`);
  return empty ? imported.products.length : 0;
}
