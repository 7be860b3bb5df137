import * as z from 'zod/mini';

/**
 * The catalog's fixed categories: `id` is what imports, URLs and stored products use
 * (stable), `name` is what a person reads. Adding one is a code change on purpose: the
 * module's navigation and the seed catalog are built around this list.
 */
export const CATEGORIES = [
  { id: 'gloves-ppe', name: 'Gloves & PPE' },
  { id: 'cleaning', name: 'Cleaning & Disinfection' },
  { id: 'office', name: 'Office Supplies' },
  { id: 'breakroom', name: 'Breakroom' },
  { id: 'clinical-disposables', name: 'Clinical Disposables' },
] as const;

export type CategoryId = (typeof CATEGORIES)[number]['id'];

export const CategoryId = z.enum(CATEGORIES.map((category) => category.id) as [CategoryId, ...CategoryId[]]);

const names: ReadonlyMap<string, string> = new Map(CATEGORIES.map((category) => [category.id, category.name]));

export const categoryName = (id: CategoryId): string => names.get(id) ?? id;
