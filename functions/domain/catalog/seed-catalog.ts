import type { ProductRecordInput } from './product';
import products from './seed-catalog.json';

/**
 * The catalog a new environment starts with (`npm start`, a fresh sandbox): supplies a
 * dental or medical office reorders, eight per category. seed-catalog.json is written in
 * the import file's form (snake_case, dollar prices), so it goes through the same
 * validation as any operator's import; prices are plausible list prices, not quotes. Each
 * `image` is a path relative to lib/local-runtime/ (the pictures drawn for this project,
 * seed-images/).
 */
export const SEED_CATALOG: readonly ProductRecordInput[] = products;
