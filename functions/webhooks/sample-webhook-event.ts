import { randomUUID } from 'node:crypto';
import type { WebhookEventKind } from '../domain/events/order-event-kinds';
import type { OrderEventMessage } from '../domain/events/order-event-message';
import type { SampleEventInput } from './sample-cart';
import { sampleApprovalEvent } from './sample-approval-event';
import { sampleInvoiceEvent } from './sample-invoice-event';
import { sampleOrderEvent } from './sample-order-event';

/** Used when the partner has no organization yet: test events need no real one. */
export const PLACEHOLDER_INTERNAL_ORG_ID = 'test-org';

/** Each kind's sample: a kind added to the subscribable ones does not compile until it has one. */
const SAMPLES: { readonly [K in WebhookEventKind]: (input: SampleEventInput<K>) => OrderEventMessage } = {
  'order.created': sampleOrderEvent,
  'order.confirmed': sampleOrderEvent,
  'order.shipped': sampleOrderEvent,
  'order.delivered': sampleOrderEvent,
  'order.cancelled': sampleOrderEvent,
  'order.refunded': sampleOrderEvent,
  'approval.requested': sampleApprovalEvent,
  'approval.decided': sampleApprovalEvent,
  'invoice.issued': sampleInvoiceEvent,
  'invoice.paid': sampleInvoiceEvent,
  'invoice.overdue': sampleInvoiceEvent,
  'invoice.credited': sampleInvoiceEvent,
};

/**
 * A realistic event of any kind an endpoint can subscribe to, for `POST /v1/webhooks/test`:
 * the order, approval or invoice sample of that kind (each valid against its kind's
 * schema, built by the same builders as real events), given an id of its own (`test_…`),
 * stamped now, and marked `"test": true`, which real events never carry.
 */
export function sampleWebhookEvent(input: SampleEventInput<WebhookEventKind>): OrderEventMessage {
  const sample = SAMPLES[input.kind] as (input: SampleEventInput<WebhookEventKind>) => OrderEventMessage;
  const event = sample(input);
  return {
    ...event,
    eventId: `test_${randomUUID()}`,
    timestamp: input.now.toISOString(),
    data: { ...event.data, test: true },
  };
}
