import { createHash } from 'node:crypto';
import type { PartnerId } from '../domain/partners/partner';
import type { DeliveryId } from './delivery';

/**
 * The id of the delivery of one event to one partner: a name-based UUID (RFC 9562
 * version 8) from SHA-256(`<partnerId>:<eventId>`). Events are de-duplicated per partner
 * and event id, so this is the one delivery that pair can ever have, and whoever
 * publishes an event knows its delivery id before the fan-out has run: that is how
 * `POST /v1/webhooks/test` answers 202 with the `webhook-id` the partner will receive.
 * Version 8 never equals a random (version 4) id given to deliveries created before.
 */
export function deliveryIdFor(partnerId: PartnerId, eventId: string): DeliveryId {
  const bytes = createHash('sha256').update(`${partnerId}:${eventId}`).digest().subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x80;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}` as DeliveryId;
}
