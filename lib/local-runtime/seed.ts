import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Dependencies } from '../../functions/container';
import type { CatalogRepository } from '../../functions/domain/catalog/catalog-repository';
import { parseCatalogImport } from '../../functions/domain/catalog/catalog-import';
import { SEED_CATALOG } from '../../functions/domain/catalog/seed-catalog';
import type { PartnerId } from '../../functions/domain/partners/partner';

export interface SeededPartner {
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
    if (await deps.partners.getPartner(seeded.partnerId as PartnerId)) return { partnerId: seeded.partnerId, apiKey: seeded.apiKey, issued: false };
  }
  const created = await deps.partnerAdmin.createPartner({ name: 'Local Sandbox Partner', alertEmail: 'alerts@partner.test' });
  const seeded = { partnerId: created.partnerId, apiKey: created.apiKey };
  writeFileSync(seedFile, `${JSON.stringify(seeded, null, 2)}\n`, { mode: 0o600 });
  return { ...seeded, issued: true };
}

/**
 * The seed supplies catalog, written only into an empty catalog: an operator's own
 * import survives restarts. Returns how many products were written.
 */
export async function seedCatalog(catalog: CatalogRepository): Promise<number> {
  if ((await catalog.listActive()).length > 0) return 0;
  const parsed = parseCatalogImport(SEED_CATALOG);
  if (!parsed.ok) throw new Error(`The seed catalog is invalid: ${parsed.issues.map((issue) => issue.message).join('; ')}`);
  await catalog.upsertMany(parsed.products);
  return parsed.products.length;
}
