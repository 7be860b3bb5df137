import type { HttpTransport } from '../http-transport.js';
import type { Order, OrderList } from '../api-types.js';

export interface OrderListParams {
  /** Your `internalOrgId`. */
  readonly internalOrgId: string;
  /** Orders per page (the API's `limit`); the iteration fetches every page either way. */
  readonly pageSize?: number;
  /** Only orders with exactly this PO number. */
  readonly poNumber?: string;
  /** Only orders of this user: your `internalUserId`. */
  readonly internalUserId?: string;
  /** Only orders created at or after this instant (a Date, or an ISO 8601 date-time with an offset). */
  readonly createdGte?: Date | string;
  /** Only orders created before this instant. */
  readonly createdLt?: Date | string;
}

const instant = (value: Date | string | undefined): string | undefined =>
  value instanceof Date ? value.toISOString() : value;

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
   * Every order of the organization (narrowed by the filters given), newest first, fetching
   * page after page (`starting_after`) as you iterate. A listed order has no `invoice`:
   * `retrieve` it, or list `invoices`.
   */
  async *list(params: OrderListParams): AsyncGenerator<OrderList['data'][number], void, undefined> {
    let startingAfter: string | undefined;
    for (;;) {
      const page = await this.transport.request<OrderList>({
        method: 'GET',
        path: '/v1/orders',
        query: {
          internal_org_id: params.internalOrgId,
          limit: params.pageSize,
          starting_after: startingAfter,
          po_number: params.poNumber,
          internal_user_id: params.internalUserId,
          created_gte: instant(params.createdGte),
          created_lt: instant(params.createdLt),
        },
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
