import type { HttpTransport } from '../http-transport.js';
import type { Order, OrderList } from '../api-types.js';

export interface OrderListParams {
  /** Your `internalOrgId`. */
  readonly internalOrgId: string;
  /** Orders per page (the API's `limit`); the iteration fetches every page either way. */
  readonly pageSize?: number;
}

/** `GET /v1/orders/{order_id}` and `GET /v1/orders`. */
export class Orders {
  constructor(private readonly transport: HttpTransport) {}

  retrieve(orderId: string): Promise<Order> {
    return this.transport.request<Order>({
      method: 'GET',
      path: `/v1/orders/${encodeURIComponent(orderId)}`,
      credential: 'bearer',
      retryable: 'on-failure',
    });
  }

  /**
   * Every order of the organization, newest first, fetching page after page (`starting_after`)
   * as you iterate. A listed order has no `invoice`: `retrieve` it, or list `invoices`.
   */
  async *list(params: OrderListParams): AsyncGenerator<OrderList['data'][number], void, undefined> {
    let startingAfter: string | undefined;
    for (;;) {
      const page = await this.transport.request<OrderList>({
        method: 'GET',
        path: '/v1/orders',
        query: { internal_org_id: params.internalOrgId, limit: params.pageSize, starting_after: startingAfter },
        credential: 'bearer',
        retryable: 'on-failure',
      });
      yield* page.data;
      const last = page.data.at(-1);
      if (!page.has_more || !last) return;
      startingAfter = last.id;
    }
  }
}
