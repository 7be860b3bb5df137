import { CATEGORIES } from './categories';
import type { CatalogFilter } from './catalog-repository';
import type { Product } from './product';

/**
 * How a search matches, in one place so every adapter filters alike: every word of the
 * search appears (case-insensitively) in the product's id, name, description or unit.
 * A blank search matches everything.
 */
export function matchesCatalogSearch(product: Product, search: string | undefined): boolean {
  const words = (search ?? '').toLowerCase().split(/\s+/).filter((word) => word !== '');
  if (words.length === 0) return true;
  const text = [product.productId, product.name, product.description, product.unit].join(' ').toLowerCase();
  return words.every((word) => text.includes(word));
}

export const matchesCatalogFilter = (product: Product, filter: CatalogFilter = {}): boolean =>
  (filter.category === undefined || product.category === filter.category) && matchesCatalogSearch(product, filter.search);

const categoryRank: ReadonlyMap<string, number> = new Map(CATEGORIES.map((category, index) => [category.id, index]));

/** Listing order: categories in their documented order, then name, then product id. */
export function inCatalogOrder(products: readonly Product[]): Product[] {
  return [...products].sort(
    (a, b) =>
      (categoryRank.get(a.category) ?? 0) - (categoryRank.get(b.category) ?? 0) ||
      a.name.localeCompare(b.name, 'en') ||
      (a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : 0),
  );
}
