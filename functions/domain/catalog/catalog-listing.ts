import { compareCategories } from './categories';
import type { CatalogFilter } from './catalog-repository';
import type { Product } from './product';

/**
 * How a search matches, in one place so every adapter filters alike: every word of the
 * search appears (case-insensitively) in the product's id, name, description or unit.
 * A blank search matches everything.
 */
function matchesCatalogSearch(product: Product, search: string | undefined): boolean {
  const words = (search ?? '')
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== '');
  if (words.length === 0) return true;
  const text = [product.productId, product.name, product.description, product.unit].join(' ').toLowerCase();
  return words.every((word) => text.includes(word));
}

export const matchesCatalogFilter = (product: Product, filter: CatalogFilter = {}): boolean =>
  (filter.category === undefined || product.category === filter.category) &&
  matchesCatalogSearch(product, filter.search);

/** Product ids are case-sensitive, so they compare by code unit, not as a dictionary would. */
const compareIds = (a: Product, b: Product): number =>
  a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : 0;
const compareNames = (a: Product, b: Product): number => a.name.localeCompare(b.name, 'en') || compareIds(a, b);

/** Listing order (operators, partners): categories by name, then name, then product id. */
export function inCatalogOrder(products: readonly Product[]): Product[] {
  return [...products].sort((a, b) => compareCategories(a.category, b.category) || compareNames(a, b));
}

/** How the module's catalog may be sorted: the `sort` query parameter and what the `Sort` control says. */
export const CATALOG_SORTS = [
  { id: 'name', label: 'Name (A to Z)' },
  { id: 'price', label: 'Price (low to high)' },
  { id: 'price-desc', label: 'Price (high to low)' },
] as const;

export type CatalogSort = (typeof CATALOG_SORTS)[number]['id'];

export const isCatalogSort = (value: string | undefined): value is CatalogSort =>
  CATALOG_SORTS.some((sort) => sort.id === value);

const SORTS: Readonly<Record<CatalogSort, (a: Product, b: Product) => number>> = {
  name: compareNames,
  price: (a, b) => a.priceCents - b.priceCents || compareNames(a, b),
  'price-desc': (a, b) => b.priceCents - a.priceCents || compareNames(a, b),
};

export const sortCatalog = (products: readonly Product[], sort: CatalogSort): Product[] =>
  [...products].sort(SORTS[sort]);

/** Products on one page of the module's catalog. */
const CATALOG_PAGE_SIZE = 24;

export interface CatalogPage {
  readonly products: readonly Product[];
  /** 1-based; a page past the last is the last. */
  readonly page: number;
  readonly pageCount: number;
  readonly total: number;
}

export function pageOfCatalog(products: readonly Product[], page: number): CatalogPage {
  const pageCount = Math.max(1, Math.ceil(products.length / CATALOG_PAGE_SIZE));
  const current = Math.min(Math.max(1, Math.floor(page)), pageCount);
  const start = (current - 1) * CATALOG_PAGE_SIZE;
  return {
    products: products.slice(start, start + CATALOG_PAGE_SIZE),
    page: current,
    pageCount,
    total: products.length,
  };
}
