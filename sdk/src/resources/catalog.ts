import type { HttpTransport } from '../http-transport.js';
import type { ListPage, Product } from '../order-types.js';

/** `GET /v1/catalog/products`. */
export class Catalog {
  constructor(private readonly transport: HttpTransport) {}

  /** The active products of the environment's catalog. */
  list(): Promise<ListPage<Product>> {
    return this.transport.request({ method: 'GET', path: '/v1/catalog/products', credential: 'bearer', retryable: 'on-failure' });
  }
}
