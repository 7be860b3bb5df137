import { describe, expect, it } from 'vitest';
import { parseCatalogImport } from '../../functions/domain/catalog/catalog-import';
import { categoriesOf } from '../../functions/domain/catalog/categories';
import { type ProductRecordInput, toProductRecord } from '../../functions/domain/catalog/product';
import { SEED_CATALOG } from '../../functions/domain/catalog/seed-catalog';

const aProduct = (
  overrides: Partial<Record<keyof ProductRecordInput, unknown>> & Record<string, unknown> = {},
): Record<string, unknown> => ({
  product_id: 'GLV-NIT-M-100',
  name: 'Nitrile Exam Gloves, Medium',
  description: 'Powder-free nitrile gloves.',
  category: 'gloves-ppe',
  price: 12.49,
  unit: 'box of 100',
  active: true,
  image: 'pictures/gloves.png',
  ...overrides,
});

const issuesOf = (json: unknown) => {
  const result = parseCatalogImport(json);
  if (result.ok) throw new Error('expected the import to be refused');
  return result.issues.map(({ code, path, row }) => ({ code, path, row }));
};

describe('catalog import', () => {
  it('returns every product with its price in cents', () => {
    const result = parseCatalogImport([
      aProduct(),
      aProduct({ product_id: 'SPR-DIS-24OZ', category: 'cleaning', price: 8.45, active: false }),
    ]);
    expect(result).toEqual({
      ok: true,
      products: [
        {
          productId: 'GLV-NIT-M-100',
          name: 'Nitrile Exam Gloves, Medium',
          description: 'Powder-free nitrile gloves.',
          category: 'gloves-ppe',
          priceCents: 1249,
          unit: 'box of 100',
          active: true,
          image: 'pictures/gloves.png',
        },
        {
          productId: 'SPR-DIS-24OZ',
          name: 'Nitrile Exam Gloves, Medium',
          description: 'Powder-free nitrile gloves.',
          category: 'cleaning',
          priceCents: 845,
          unit: 'box of 100',
          active: false,
          image: 'pictures/gloves.png',
        },
      ],
    });
  });

  it('reports every problem by row index and field, and applies nothing', () => {
    const issues = issuesOf([
      aProduct(),
      aProduct({ product_id: 'A-1', price: 1.005 }),
      aProduct({ product_id: 'A-2', price: 0 }),
      aProduct({ product_id: 'a b', category: 'C'.repeat(65), name: '  ' }),
      aProduct({ product_id: 'A-4', price: '12.50', active: 'yes', colour: 'blue' }),
      { product_id: 'A-5' },
    ]);
    expect(issues).toEqual([
      { code: 'INVALID_AMOUNT', path: ['1', 'price'], row: 1 },
      { code: 'TOO_SMALL', path: ['2', 'price'], row: 2 },
      { code: 'INVALID_FORMAT', path: ['3', 'product_id'], row: 3 },
      { code: 'REQUIRED', path: ['3', 'name'], row: 3 },
      { code: 'TOO_LONG', path: ['3', 'category'], row: 3 },
      { code: 'INVALID_TYPE', path: ['4', 'price'], row: 4 },
      { code: 'INVALID_TYPE', path: ['4', 'active'], row: 4 },
      { code: 'UNKNOWN_FIELD', path: ['4'], row: 4 },
      { code: 'REQUIRED', path: ['5', 'name'], row: 5 },
      { code: 'REQUIRED', path: ['5', 'description'], row: 5 },
      { code: 'REQUIRED', path: ['5', 'category'], row: 5 },
      { code: 'REQUIRED', path: ['5', 'price'], row: 5 },
      { code: 'REQUIRED', path: ['5', 'unit'], row: 5 },
      { code: 'REQUIRED', path: ['5', 'active'], row: 5 },
      { code: 'REQUIRED', path: ['5', 'image'], row: 5 },
    ]);
  });

  it('says which field and row in the message', () => {
    const result = parseCatalogImport([aProduct(), aProduct({ price: 3.999 })]);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues[0]?.message).toBe('[1].price must be a USD amount with at most two decimals');
  });

  it('refuses a product_id that repeats an earlier row, on the later row', () => {
    const issues = issuesOf([aProduct(), aProduct({ product_id: 'OTHER' }), aProduct(), aProduct({ price: -1 })]);
    expect(issues).toEqual([
      { code: 'DUPLICATE_ID', path: ['2', 'product_id'], row: 2 },
      { code: 'TOO_SMALL', path: ['3', 'price'], row: 3 },
      { code: 'DUPLICATE_ID', path: ['3', 'product_id'], row: 3 },
    ]);
  });

  it('accepts SKUs of letters in either case, digits, "-", "_", "." and nothing else, up to 64 characters', () => {
    expect(parseCatalogImport([aProduct({ product_id: 'ABC_1.2-3' })]).ok).toBe(true);
    const cased = parseCatalogImport([aProduct({ product_id: 'abc-1' }), aProduct({ product_id: 'ABC-1' })]);
    expect(cased.ok ? cased.products.map((product) => product.productId) : cased.issues).toEqual(['abc-1', 'ABC-1']);
    for (const bad of ['a b', 'ä-1', '..', '.', 'A/B']) {
      expect(issuesOf([aProduct({ product_id: bad })])).toEqual([
        { code: 'INVALID_FORMAT', path: ['0', 'product_id'], row: 0 },
      ]);
    }
    expect(issuesOf([aProduct({ product_id: 'A'.repeat(65) })])).toEqual([
      { code: 'TOO_LONG', path: ['0', 'product_id'], row: 0 },
    ]);
  });

  it('refuses a file that is not a non-empty array', () => {
    expect(issuesOf({ products: [] })).toEqual([{ code: 'INVALID_TYPE', path: [], row: undefined }]);
    expect(issuesOf([])).toEqual([{ code: 'TOO_FEW_ITEMS', path: [], row: undefined }]);
    expect(issuesOf([null])).toEqual([{ code: 'INVALID_TYPE', path: ['0'], row: 0 }]);
  });
});

describe('seed catalog', () => {
  it('passes the import validation', () => {
    const result = parseCatalogImport(SEED_CATALOG);
    expect(result.ok ? [] : result.issues).toEqual([]);
  });

  it('has about forty products in every category', () => {
    expect(SEED_CATALOG.length).toBeGreaterThanOrEqual(36);
    expect(categoriesOf(SEED_CATALOG)).toEqual([
      'Breakroom',
      'Cleaning & Disinfection',
      'Clinical Disposables',
      'Gloves & PPE',
      'Office Supplies',
    ]);
    for (const category of categoriesOf(SEED_CATALOG)) {
      expect(SEED_CATALOG.filter((product) => product.category === category).length).toBeGreaterThanOrEqual(5);
    }
  });

  it('prints back exactly as written', () => {
    const result = parseCatalogImport(SEED_CATALOG);
    if (!result.ok) throw new Error('seed catalog is invalid');
    expect(result.products.map(toProductRecord)).toEqual(SEED_CATALOG);
  });
});
