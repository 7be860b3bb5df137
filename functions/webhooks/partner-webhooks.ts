import {
  DeliveryInFlight,
  DeliveryNotFound,
  ValidationFailed,
  WebhookEndpointNotConfigured,
  WebhookEndpointNotFound,
} from '../domain/errors';
import type { PartnerId } from '../domain/partners/partner';
import type { Delivery, DeliveryId, DeliveryWithAttempts } from './delivery';
import type { DeliveryReplay } from './delivery-replay';
import type { DeliveryFilter, DeliveryPage, DeliveryRepository } from './delivery-repository';
import type { WebhookEndpoint, WebhookEndpointRepository } from './webhook-endpoint';

export const DEFAULT_DELIVERY_PAGE_SIZE = 20;
export const MAX_DELIVERY_PAGE_SIZE = 100;

/** Delivery ids are UUIDs, stored in lower case; anything else names no delivery. */
const DELIVERY_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The endpoint's circuit breaker as a partner reads it: its state and since when it has been open. */
export interface EndpointCircuitView {
  readonly state: 'open' | 'half_open' | 'closed';
  readonly since?: string;
}

export function circuitOf(endpoint: WebhookEndpoint): EndpointCircuitView | undefined {
  const circuit = endpoint.circuit;
  if (!circuit) return undefined;
  const state = circuit.state === 'half-open' ? 'half_open' : circuit.state;
  return { state, ...(state !== 'closed' && circuit.openedAt ? { since: circuit.openedAt } : {}) };
}

/**
 * What a partner may see and do with its own webhooks through the API (docs/webhooks.md,
 * "Inspecting and retrying deliveries"): its deliveries with their attempts and bodies,
 * a retry of one, and its endpoint without the secret. Another partner's delivery is one
 * the caller has not got (404), never a 403: its existence is not told.
 */
export class PartnerWebhooks {
  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly endpoints: Pick<WebhookEndpointRepository, 'get'>,
    private readonly replay: DeliveryReplay,
  ) {}

  async listDeliveries(
    partnerId: PartnerId,
    filter: DeliveryFilter,
    page: { limit?: number; startingAfter?: string } = {},
  ): Promise<DeliveryPage> {
    const limit = page.limit ?? DEFAULT_DELIVERY_PAGE_SIZE;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_DELIVERY_PAGE_SIZE) {
      throw new ValidationFailed([
        {
          code: limit < 1 ? 'TOO_SMALL' : 'TOO_BIG',
          message: `limit must be an integer from 1 to ${MAX_DELIVERY_PAGE_SIZE}`,
          path: ['limit'],
        },
      ]);
    }
    let startingAfter: Delivery | undefined;
    if (page.startingAfter !== undefined) {
      const cursor = await this.own(partnerId, page.startingAfter);
      // gsi2 pages one order's deliveries: a cursor of another order is no position in that list.
      if (!cursor || (filter.orderId !== undefined && cursor.orderId !== filter.orderId)) {
        throw new ValidationFailed([
          {
            code: 'INVALID_CURSOR',
            message: 'starting_after must be the id of one of your deliveries in this list',
            path: ['starting_after'],
          },
        ]);
      }
      startingAfter = cursor;
    }
    return this.deliveries.pageByPartner(partnerId, filter, { limit, ...(startingAfter ? { startingAfter } : {}) });
  }

  async getDelivery(partnerId: PartnerId, deliveryId: string): Promise<DeliveryWithAttempts> {
    const delivery = await this.own(partnerId, deliveryId);
    if (!delivery) throw new DeliveryNotFound(deliveryId);
    return { ...delivery, attempts: await this.deliveries.listAttempts(delivery.deliveryId) };
  }

  /**
   * An attempt now, with the same delivery id and body. A delivery waiting for its next
   * attempt gets that attempt now, its ladder unchanged; a delivered, failed or cancelled
   * one a new chain (the operator's replay). Refused while an attempt is in flight (queued,
   * due or held): a second would only race it; except when a retry stopped before queueing
   * its attempt, which this one queues. A retry with no endpoint would go nowhere.
   */
  async retry(partnerId: PartnerId, deliveryId: string): Promise<DeliveryWithAttempts> {
    const delivery = await this.own(partnerId, deliveryId);
    if (!delivery) throw new DeliveryNotFound(deliveryId);
    const unqueued = this.replay.isUnqueued(delivery);
    const waiting = this.replay.isWaiting(delivery);
    if (delivery.status === 'pending' && !unqueued && !waiting) throw new DeliveryInFlight(deliveryId);
    if (!(await this.endpoints.get(partnerId)))
      throw new WebhookEndpointNotConfigured('You have no webhook endpoint; ask the operator to set one up');
    // Only a replay changes a delivery that is not pending, and it moves the chain on: losing the race means one is in flight.
    const replayed = unqueued
      ? await this.replay.requeue(delivery)
      : waiting
        ? await this.replay.sendNow(delivery)
        : await this.replay.start(delivery);
    if (!replayed) throw new DeliveryInFlight(deliveryId);
    return { ...replayed, attempts: await this.deliveries.listAttempts(delivery.deliveryId) };
  }

  async endpoint(partnerId: PartnerId): Promise<WebhookEndpoint> {
    const endpoint = await this.endpoints.get(partnerId);
    if (!endpoint) throw new WebhookEndpointNotFound();
    return endpoint;
  }

  private async own(partnerId: PartnerId, deliveryId: string): Promise<Delivery | undefined> {
    const id = deliveryId.toLowerCase();
    if (!DELIVERY_ID.test(id)) return undefined;
    const delivery = await this.deliveries.get(id as DeliveryId);
    return delivery?.partnerId === partnerId ? delivery : undefined;
  }
}
