import type { Product, ProductId } from './product';

export interface CatalogFilter {
  /** A category name, matched exactly. */
  readonly category?: string;
  /** Free text; see `matchesCatalogSearch` for what matches. */
  readonly search?: string;
}

/** Storage port for the catalog (one per environment). */
export interface CatalogRepository {
  /** Writes the products, replacing any with the same product_id; an import applies all of them or fails. */
  upsertMany(products: readonly Product[]): Promise<void>;
  /** Every product, inactive ones too, in `inCatalogOrder` (what operators list). */
  listAll(): Promise<Product[]>;
  /** Active products, filtered, in `inCatalogOrder`. */
  listActive(filter?: CatalogFilter): Promise<Product[]>;
  /** The products with these ids that exist, active or not (orders and carts name inactive ones too). */
  get(productIds: readonly ProductId[]): Promise<Map<ProductId, Product>>;
}
