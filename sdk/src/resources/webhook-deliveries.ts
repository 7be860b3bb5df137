import type { HttpTransport } from '../http-transport.js';
import type { WebhookDelivery, WebhookDeliveryList, WebhookEndpoint } from '../api-types.js';

type DeliverySummary = WebhookDeliveryList['data'][number];

export interface WebhookDeliveryListParams {
  /** Only deliveries in this state. */
  readonly status?: WebhookDelivery['status'];
  /** Only deliveries of this event kind. */
  readonly event?: WebhookDelivery['event'];
  /** Only deliveries of events about this order. */
  readonly orderId?: string;
  /** Only deliveries created at or after this time (a `Date`, or ISO 8601 text with an offset). */
  readonly since?: Date | string;
  /** Deliveries per page (the API's `limit`); the iteration fetches every page either way. */
  readonly pageSize?: number;
}

/**
 * `GET /v1/webhooks/deliveries[/{delivery_id}]` and `POST /v1/webhooks/deliveries/{delivery_id}/retry`:
 * your deliveries with their attempts and bodies, and a retry of one (scopes `webhooks:read`, `webhooks:write`).
 */
export class WebhookDeliveries {
  constructor(private readonly transport: HttpTransport) {}

  /** Every matching delivery, newest first, fetching page after page (`starting_after`) as you iterate. */
  async *list(params: WebhookDeliveryListParams = {}): AsyncGenerator<DeliverySummary, void, undefined> {
    const since = params.since instanceof Date ? params.since.toISOString() : params.since;
    let startingAfter: string | undefined;
    for (;;) {
      const page = await this.transport.request<WebhookDeliveryList>({
        method: 'GET',
        path: '/v1/webhooks/deliveries',
        query: {
          status: params.status,
          event: params.event,
          order_id: params.orderId,
          since,
          limit: params.pageSize,
          starting_after: startingAfter,
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

  /** One delivery with every attempt and the exact body sent. */
  retrieve(deliveryId: string): Promise<WebhookDelivery> {
    return this.transport.request<WebhookDelivery>({
      method: 'GET',
      path: `/v1/webhooks/deliveries/${encodeURIComponent(deliveryId)}`,
      credential: 'bearer',
      retryable: 'on-failure',
    });
  }

  /**
   * Sends the delivery again now (same id and body, a new round). Only a 429, answered
   * before anything happens, is retried: after any other failure, `retrieve` tells whether
   * the retry was queued. A pending delivery rejects with a ConflictError (`DELIVERY_IN_FLIGHT`).
   */
  retry(deliveryId: string): Promise<WebhookDelivery> {
    return this.transport.request<WebhookDelivery>({
      method: 'POST',
      path: `/v1/webhooks/deliveries/${encodeURIComponent(deliveryId)}/retry`,
      credential: 'bearer',
      retryable: 'on-rate-limit',
    });
  }
}

/** `GET /v1/webhooks/endpoint`: where your webhooks go and whether they are going (never the secret). */
export class WebhookEndpoints {
  constructor(private readonly transport: HttpTransport) {}

  retrieve(): Promise<WebhookEndpoint> {
    return this.transport.request<WebhookEndpoint>({
      method: 'GET',
      path: '/v1/webhooks/endpoint',
      credential: 'bearer',
      retryable: 'on-failure',
    });
  }
}
