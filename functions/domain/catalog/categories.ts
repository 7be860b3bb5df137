import { requiredText } from '../validation';

/**
 * A product's category is data, not code: any name of 1-64 characters the catalog import
 * gives (e.g. "Gloves & PPE"). It is what people read and what the module's category
 * links filter on, matched exactly; the links are the categories that have active products.
 */
const MAX_CATEGORY_LENGTH = 64;

export const CategoryName = requiredText(MAX_CATEGORY_LENGTH);

/** Categories in the order people see them: by name, as a dictionary orders them. */
export const compareCategories = (a: string, b: string): number =>
  a.localeCompare(b, 'en') || (a < b ? -1 : a > b ? 1 : 0);

/** The categories of these products, once each, in `compareCategories` order. */
export const categoriesOf = (products: readonly { readonly category: string }[]): string[] =>
  [...new Set(products.map((product) => product.category))].sort(compareCategories);
