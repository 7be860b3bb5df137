import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { CARRIED_MESSAGE_LIMIT_BYTES, DeliveryMessage, firstAttemptMessage } from '../../functions/webhooks/delivery';
import { aQueuedDelivery } from '../support/webhook-fixtures';

const at = '2036-11-22T12:00:00.000Z';
const aDelivery = (body: string) => aQueuedDelivery(randomUUID() as PartnerId, at, { event: 'order.shipped', body });
/** A body that makes the first attempt's message exactly `bytes` long. */
const bodyForMessageOf = (bytes: number) => {
  const empty = Buffer.byteLength(JSON.stringify(firstAttemptMessage(aDelivery(''), at)));
  return 'é'.repeat(Math.floor((bytes - empty) / 2)) + 'x'.repeat((bytes - empty) % 2);
};

describe('the message of a first attempt', () => {
  it('carries the event and the exact body, and is a valid delivery message', () => {
    const delivery = aDelivery('{"event":"order.shipped","data":{"note":"\\"quoted\\" ✓"}}');
    const message = firstAttemptMessage(delivery, at);
    expect(message).toEqual({
      deliveryId: delivery.deliveryId,
      partnerId: delivery.partnerId,
      chain: 1,
      attempt: 1,
      dueAt: at,
      event: 'order.shipped',
      body: delivery.body,
      // Correlation (docs/operations.md): the event's id travels with the attempt.
      eventId: delivery.eventId,
    });
    expect(DeliveryMessage.parse(JSON.parse(JSON.stringify(message)))).toEqual(message);
  });

  it(`carries a body while the message, as sent, is at most ${CARRIED_MESSAGE_LIMIT_BYTES} bytes (UTF-8), and names the delivery alone beyond`, () => {
    const fits = aDelivery(bodyForMessageOf(CARRIED_MESSAGE_LIMIT_BYTES));
    expect(Buffer.byteLength(JSON.stringify(firstAttemptMessage(fits, at)))).toBe(CARRIED_MESSAGE_LIMIT_BYTES);
    expect(firstAttemptMessage(fits, at).body).toBe(fits.body);

    const tooLarge = aDelivery(bodyForMessageOf(CARRIED_MESSAGE_LIMIT_BYTES + 1));
    expect(firstAttemptMessage(tooLarge, at)).toEqual({ deliveryId: tooLarge.deliveryId, partnerId: tooLarge.partnerId, chain: 1, attempt: 1, dueAt: at });
  });
});
