/** The webhooks API's examples in the partner API document: one delivery's story, and an endpoint. */
import type { DeliveryBody, DeliverySummaryBody, WebhookEndpointBody } from './response';

export const EXAMPLE_DELIVERY_ID = '3c8f0b7e-5d2a-8e41-a9c3-6b1f2e7d4a90';
const EXAMPLE_DELIVERY_ORDER_ID = '9b2f6c1e-4d7a-4f0b-8e3c-2a5d7f9e1b04';

const SHIPPED_BODY = JSON.stringify({
  event: 'order.shipped',
  timestamp: '2030-03-14T16:05:00.000Z',
  data: {
    order_id: EXAMPLE_DELIVERY_ORDER_ID,
    partner_org_id: 'acme-1',
    status: 'shipped',
    sequence: 3,
    previous_status: 'confirmed',
    tracking_number: '1Z999AA10123456784',
    carrier: 'UPS',
    tracking_url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
    estimated_delivery: '2030-03-17T23:59:59.000Z',
    shipped_at: '2030-03-14T16:05:00.000Z',
  },
});

/** Failed at once (a 503), then delivered on the first retry of the schedule. */
export const DELIVERED_DELIVERY: DeliveryBody = {
  id: EXAMPLE_DELIVERY_ID,
  event: 'order.shipped',
  order_id: EXAMPLE_DELIVERY_ORDER_ID,
  status: 'delivered',
  round: 1,
  created_at: '2030-03-14T16:05:00.120Z',
  updated_at: '2030-03-14T16:06:02.410Z',
  last_attempt: {
    attempted_at: '2030-03-14T16:06:02.180Z',
    round: 1,
    attempt: 2,
    succeeded: true,
    status_code: 200,
    latency_ms: 231,
  },
  attempts: [
    {
      attempted_at: '2030-03-14T16:05:00.300Z',
      round: 1,
      attempt: 1,
      succeeded: false,
      status_code: 503,
      latency_ms: 118,
    },
    {
      attempted_at: '2030-03-14T16:06:02.180Z',
      round: 1,
      attempt: 2,
      succeeded: true,
      status_code: 200,
      latency_ms: 231,
    },
  ],
  body: SHIPPED_BODY,
};

/** Waiting for its third attempt: no answer within 10 s, then a refused connection. */
export const PENDING_DELIVERY: DeliverySummaryBody = {
  id: '5a1d9e4c-2b7f-4c3a-9d8e-0f6b1a2c3d4e',
  event: 'order.created',
  order_id: 'c1e5b7a9-3f2d-4e8b-a6c4-7d9f0e1b2a35',
  status: 'pending',
  round: 1,
  created_at: '2030-03-14T17:00:00.050Z',
  updated_at: '2030-03-14T17:01:10.900Z',
  next_attempt_at: '2030-03-14T17:06:10.900Z',
  last_attempt: {
    attempted_at: '2030-03-14T17:01:00.700Z',
    round: 1,
    attempt: 2,
    succeeded: false,
    error: 'connection refused',
    latency_ms: 4,
  },
};

const { attempts: _attempts, body: _body, ...deliveredSummary } = DELIVERED_DELIVERY;
export const DELIVERED_SUMMARY: DeliverySummaryBody = deliveredSummary;

/** Just retried: round 2 is queued for now; round 1's attempts stay in the log. */
export const RETRIED_DELIVERY: DeliveryBody = {
  ...DELIVERED_DELIVERY,
  status: 'pending',
  round: 2,
  updated_at: '2030-03-15T09:30:00.000Z',
  next_attempt_at: '2030-03-15T09:30:00.000Z',
};

export const ACTIVE_ENDPOINT: WebhookEndpointBody = {
  url: 'https://hooks.partner.example/embed-orders',
  events: ['order.created', 'order.confirmed', 'order.shipped', 'order.delivered', 'order.cancelled', 'order.refunded'],
  status: 'active',
  status_since: '2030-01-02T10:00:00.000Z',
  throughput: { concurrency: 12, max_concurrency: 32, latency_baseline_ms: 140, slow_after_ms: 280 },
  secret_rotated_at: '2030-02-01T08:30:00.000Z',
  created_at: '2030-01-02T10:00:00.000Z',
  updated_at: '2030-02-01T08:30:00.000Z',
};

export const DISABLED_ENDPOINT: WebhookEndpointBody = {
  ...ACTIVE_ENDPOINT,
  status: 'disabled',
  status_reason: 'the endpoint answered 410 Gone',
  status_since: '2030-03-10T12:00:00.000Z',
  updated_at: '2030-03-10T12:00:00.000Z',
};

export const CIRCUIT_OPEN_ENDPOINT: WebhookEndpointBody = {
  ...ACTIVE_ENDPOINT,
  status: 'circuit_open',
  status_since: '2030-03-14T17:02:00.000Z',
  circuit: { state: 'open', since: '2030-03-14T17:02:00.000Z' },
  failing_since: '2030-03-14T16:58:00.000Z',
  throughput: { concurrency: 1, max_concurrency: 32, latency_baseline_ms: 150, slow_after_ms: 300 },
};
