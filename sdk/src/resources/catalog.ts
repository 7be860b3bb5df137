import type { CatalogProductList } from '../api-types.js';
import type { HttpTransport } from '../http-transport.js';

/** `GET /v1/catalog/products`. */
export class Catalog {
  constructor(private readonly transport: HttpTransport) {}

  /** The active products of the environment's catalog, on one page. */
  list(): Promise<CatalogProductList> {
    return this.transport.request<CatalogProductList>({
      method: 'GET',
      path: '/v1/catalog/products',
      credential: 'bearer',
      retryable: 'on-failure',
    });
  }
}
