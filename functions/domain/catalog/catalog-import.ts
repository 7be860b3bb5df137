import * as z from 'zod/mini';
import { toValidationIssues, type ValidationIssue } from '../validation';
import { type Product, ProductInput } from './product';

/** An import larger than this is a mistake (or a different tool's job): the catalog is a few hundred products. */
const MAX_IMPORT_ROWS = 5_000;

/** A problem in an import file. `path` starts with the row's index (as a string, like every issue path); `row` repeats it as a number. */
export interface CatalogImportIssue extends ValidationIssue {
  readonly row?: number;
}

export type CatalogImportResult =
  { readonly ok: true; readonly products: Product[] } | { readonly ok: false; readonly issues: CatalogImportIssue[] };

const ImportFile = z.array(ProductInput).check(z.minLength(1), z.maxLength(MAX_IMPORT_ROWS));

/**
 * Validates a whole catalog import file (a JSON array of products, already parsed from
 * JSON) before anything is applied: either every product, or every problem found, each
 * by row index and field (`path: ['3', 'price']`, `row: 3`) with the house issue codes.
 * A product_id that repeats an earlier row's is a DUPLICATE_ID on the later row. The
 * products' `image` is still the row's path: `importCatalogFile` reads and stores them.
 */
export function parseCatalogImport(json: unknown): CatalogImportResult {
  const parsed = ImportFile.safeParse(json);
  const issues: CatalogImportIssue[] = parsed.success ? [] : toValidationIssues(parsed.error).map(withRow);
  issues.push(...duplicateProductIds(json));
  if (issues.length > 0 || !parsed.success) return { ok: false, issues: inRowOrder(issues) };
  return { ok: true, products: parsed.data };
}

/** Checked on the raw rows, so a duplicate is reported even when the row has other problems. */
function duplicateProductIds(json: unknown): CatalogImportIssue[] {
  if (!Array.isArray(json)) return [];
  const firstRowOf = new Map<string, number>();
  const issues: CatalogImportIssue[] = [];
  json.forEach((row: unknown, index) => {
    if (typeof row !== 'object' || row === null || !('product_id' in row)) return;
    const productId = row.product_id;
    if (typeof productId !== 'string' || productId.trim() === '') return;
    const key = productId.trim();
    const first = firstRowOf.get(key);
    if (first === undefined) {
      firstRowOf.set(key, index);
      return;
    }
    issues.push({
      code: 'DUPLICATE_ID',
      message: `[${index}].product_id repeats "${key}" of row ${first}`,
      path: [String(index), 'product_id'],
      row: index,
    });
  });
  return issues;
}

const withRow = (issue: ValidationIssue): CatalogImportIssue => {
  const [first] = issue.path;
  if (first === undefined) return { ...issue, message: issue.message.replace(/^request body/, 'the import file') };
  return /^\d+$/.test(first) ? { ...issue, row: Number(first) } : issue;
};

export const inRowOrder = (issues: CatalogImportIssue[]): CatalogImportIssue[] =>
  issues
    .map((issue, position) => ({ issue, position }))
    .sort((a, b) => (a.issue.row ?? -1) - (b.issue.row ?? -1) || a.position - b.position)
    .map(({ issue }) => issue);
