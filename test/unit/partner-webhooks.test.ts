/**
 * What a partner may do with its own deliveries and endpoint (PartnerWebhooks), on
 * in-memory ports: the retry's refusals and what it queues, another partner's delivery,
 * cursors, and how the endpoint's status reads a circuit breaker state when the record has one.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { toWebhookEndpointResponse } from '../../functions/api/webhook-deliveries/response';
import {
  DeliveryInFlight,
  DeliveryNotFound,
  ValidationFailed,
  WebhookEndpointNotConfigured,
  WebhookEndpointNotFound,
} from '../../functions/domain/errors';
import type { PartnerId } from '../../functions/domain/partners/partner';
import type { DeliveryMessage } from '../../functions/webhooks/delivery';
import { DeliveryReplay } from '../../functions/webhooks/delivery-replay';
import { circuitOf, PartnerWebhooks } from '../../functions/webhooks/partner-webhooks';
import { ORDER_EVENT_KINDS } from '../../functions/domain/events/order-event-kinds';
import type { WebhookEndpoint } from '../../functions/webhooks/webhook-endpoint';
import { InMemoryDeliveryRepository } from '../support/fakes/in-memory-delivery-repository';
import { InMemoryWebhookEndpoints } from '../support/fakes/in-memory-webhook-endpoints';
import { RecordingQueue } from '../support/fakes/recording-ports';
import { ManualClock } from '../support/manual-clock';
import { aQueuedDelivery } from '../support/webhook-fixtures';

const PARTNER = randomUUID() as PartnerId;
const OTHER = randomUUID() as PartnerId;

const anEndpoint = (state: Partial<WebhookEndpoint> & Record<string, unknown> = {}): WebhookEndpoint =>
  ({
    partnerId: PARTNER,
    url: 'https://hooks.partner.example/orders',
    events: [...ORDER_EVENT_KINDS],
    createdAt: '2036-01-01T00:00:00.000Z',
    updatedAt: '2036-01-01T00:00:00.000Z',
    secretRotatedAt: '2036-01-01T00:00:00.000Z',
    status: 'enabled',
    statusSince: '2036-01-01T00:00:00.000Z',
    ...state,
  }) as WebhookEndpoint;

function aService() {
  const clock = new ManualClock();
  const deliveries = new InMemoryDeliveryRepository();
  const endpoints = new InMemoryWebhookEndpoints();
  const queue = new RecordingQueue<DeliveryMessage>();
  const service = new PartnerWebhooks(deliveries, endpoints, new DeliveryReplay(deliveries, queue, clock));
  return { clock, deliveries, endpoints, queue, service };
}

describe('PartnerWebhooks.retry', () => {
  it('starts round 2 of a delivered delivery and queues its first attempt for now', async () => {
    const { clock, deliveries, endpoints, queue, service } = aService();
    await endpoints.put(anEndpoint());
    const delivery = deliveries.seed(
      aQueuedDelivery(PARTNER, clock.now().toISOString(), { status: 'delivered', attemptCount: 1 }),
    );
    const retried = await service.retry(PARTNER, delivery.deliveryId.toUpperCase());
    expect(retried).toMatchObject({ deliveryId: delivery.deliveryId, status: 'pending', chain: 2 });
    expect(queue.sent).toEqual([
      {
        message: {
          deliveryId: delivery.deliveryId,
          partnerId: PARTNER,
          chain: 2,
          attempt: 1,
          dueAt: clock.now().toISOString(),
        },
        delaySeconds: 0,
      },
    ]);
  });

  it('refuses a pending delivery (DeliveryInFlight) and queues nothing', async () => {
    const { clock, deliveries, endpoints, queue, service } = aService();
    await endpoints.put(anEndpoint());
    const delivery = deliveries.seed(aQueuedDelivery(PARTNER, clock.now().toISOString()));
    await expect(service.retry(PARTNER, delivery.deliveryId)).rejects.toBeInstanceOf(DeliveryInFlight);
    expect(queue.sent).toEqual([]);
  });

  it('answers DeliveryInFlight when another retry moved the chain on first', async () => {
    const { clock, deliveries, endpoints, queue } = aService();
    await endpoints.put(anEndpoint());
    const delivery = deliveries.seed(aQueuedDelivery(PARTNER, clock.now().toISOString(), { status: 'failed' }));
    // Read as failed on chain 1, but by the time the retry writes, another retry has started chain 2.
    const racing = new PartnerWebhooks(
      deliveries,
      endpoints,
      new DeliveryReplay(
        {
          get: async () => delivery,
          startNewChain: async () => false,
          markQueued: async () => undefined,
          bringForward: async () => false,
        },
        queue,
        clock,
      ),
    );
    await expect(racing.retry(PARTNER, delivery.deliveryId)).rejects.toBeInstanceOf(DeliveryInFlight);
    expect(queue.sent).toEqual([]);
  });

  it("treats another partner's delivery and a non-UUID as none; without an endpoint there is nothing to send to", async () => {
    const { clock, deliveries, service } = aService();
    const delivery = deliveries.seed(aQueuedDelivery(OTHER, clock.now().toISOString(), { status: 'delivered' }));
    await expect(service.retry(PARTNER, delivery.deliveryId)).rejects.toBeInstanceOf(DeliveryNotFound);
    await expect(service.getDelivery(PARTNER, delivery.deliveryId)).rejects.toBeInstanceOf(DeliveryNotFound);
    await expect(service.getDelivery(PARTNER, 'DELIVERY#x')).rejects.toBeInstanceOf(DeliveryNotFound);
    await expect(service.retry(OTHER, delivery.deliveryId)).rejects.toBeInstanceOf(WebhookEndpointNotConfigured);
  });
});

describe('PartnerWebhooks.listDeliveries', () => {
  it('refuses a cursor of another partner or, with order_id, of another order (INVALID_CURSOR), and a limit out of range', async () => {
    const { clock, deliveries, service } = aService();
    const mine = deliveries.seed(aQueuedDelivery(PARTNER, clock.now().toISOString(), { orderId: 'order-a' }));
    const theirs = deliveries.seed(aQueuedDelivery(OTHER, clock.now().toISOString()));
    const codeOf = (promise: Promise<unknown>) =>
      promise.then(
        () => 'resolved',
        (error: ValidationFailed) => error.issues.map((i) => `${i.path.join('.')}:${i.code}`),
      );
    expect(await codeOf(service.listDeliveries(PARTNER, {}, { startingAfter: theirs.deliveryId }))).toEqual([
      'starting_after:INVALID_CURSOR',
    ]);
    expect(
      await codeOf(service.listDeliveries(PARTNER, { orderId: 'order-b' }, { startingAfter: mine.deliveryId })),
    ).toEqual(['starting_after:INVALID_CURSOR']);
    expect(
      await codeOf(service.listDeliveries(PARTNER, { orderId: 'order-a' }, { startingAfter: mine.deliveryId })),
    ).toBe('resolved');
    expect(await codeOf(service.listDeliveries(PARTNER, {}, { limit: 101 }))).toEqual(['limit:TOO_BIG']);
  });
});

describe('the endpoint as the partner reads it', () => {
  it('404s without one', async () => {
    await expect(aService().service.endpoint(PARTNER)).rejects.toBeInstanceOf(WebhookEndpointNotFound);
  });

  it("reads the dispatcher's circuit: open or half_open since it opened, closed, none without one", () => {
    expect(circuitOf(anEndpoint())).toBeUndefined();
    expect(circuitOf(anEndpoint({ circuit: { state: 'open', consecutiveFailures: 5, openedAt: 't1' } }))).toEqual({
      state: 'open',
      since: 't1',
    });
    expect(circuitOf(anEndpoint({ circuit: { state: 'half-open', consecutiveFailures: 5, openedAt: 't2' } }))).toEqual({
      state: 'half_open',
      since: 't2',
    });
    expect(circuitOf(anEndpoint({ circuit: { state: 'closed', consecutiveFailures: 0 } }))).toEqual({
      state: 'closed',
    });
  });

  it('is circuit_open (since the circuit opened) only while active with an open circuit; a pause or disable says so first', () => {
    const since = '2036-02-02T02:02:02.000Z';
    expect(toWebhookEndpointResponse(anEndpoint())).toMatchObject({
      status: 'active',
      status_since: '2036-01-01T00:00:00.000Z',
    });
    expect(
      toWebhookEndpointResponse(anEndpoint({ circuit: { state: 'open', consecutiveFailures: 5, openedAt: since } })),
    ).toMatchObject({ status: 'circuit_open', status_since: since, circuit: { state: 'open', since } });
    expect(
      toWebhookEndpointResponse(
        anEndpoint({ circuit: { state: 'half-open', consecutiveFailures: 5, openedAt: since } }),
      ),
    ).toMatchObject({ status: 'active', circuit: { state: 'half_open', since } });
    expect(
      toWebhookEndpointResponse(
        anEndpoint({
          status: 'paused',
          statusReason: 'maintenance',
          statusSince: since,
          circuit: { state: 'open', consecutiveFailures: 5, openedAt: '2036-01-05T00:00:00.000Z' },
        }),
      ),
    ).toMatchObject({ status: 'paused', status_reason: 'maintenance', status_since: since });
    expect(JSON.stringify(toWebhookEndpointResponse(anEndpoint({ secret: 'whsec_x' } as never)))).not.toContain(
      'whsec_',
    );
  });
});
