/** The test event and the partner's deliveries and endpoint (docs/webhooks.md). */
import {
  DeliveryInFlight,
  DeliveryNotFound,
  WebhookEndpointNotConfigured,
  WebhookEndpointNotFound,
  WebhookEventNotSubscribed,
} from '../domain/errors';
import { type Entry, entry, general } from './outcome-kit';

export const WEBHOOK_OUTCOMES: readonly Entry[] = [
  // POST /v1/webhooks/test (docs/webhooks.md, "Test events").
  entry(WebhookEndpointNotConfigured, {
    api: { general: general(409, 'WEBHOOK_ENDPOINT_NOT_CONFIGURED') },
  }),
  entry(WebhookEventNotSubscribed, {
    api: {
      general: general(409, 'WEBHOOK_EVENT_NOT_SUBSCRIBED', (error) => ({
        details: [{ code: 'WEBHOOK_EVENT_NOT_SUBSCRIBED', message: error.message, path: ['event'] }],
      })),
    },
  }),
  // The partner's deliveries and endpoint (docs/webhooks.md, "Inspecting and retrying deliveries").
  entry(DeliveryNotFound, { api: { general: general(404, 'DELIVERY_NOT_FOUND') } }),
  entry(DeliveryInFlight, { api: { general: general(409, 'DELIVERY_IN_FLIGHT') } }),
  entry(WebhookEndpointNotFound, { api: { general: general(404, 'WEBHOOK_ENDPOINT_NOT_CONFIGURED') } }),
];
