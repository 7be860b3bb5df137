import type { Delivery, DeliveryAttempt, DeliveryWithAttempts } from '../../webhooks/delivery';

/** Key shapes of the webhooks table, written once. */
export const webhookKeys = {
  delivery: (deliveryId: string) => ({ pk: `DELIVERY#${deliveryId}`, sk: 'DELIVERY' }),
  /** One per (partner, event id): the conditional write that makes an event deliver once. */
  event: (partnerId: string, eventId: string) => ({ pk: `EVENT#${partnerId}#${eventId}`, sk: 'EVENT' }),
  deliveriesOfPartner: (partnerId: string) => `PARTNER#${partnerId}#DELIVERIES`,
  /** gsi2, written only for deliveries that name an order. */
  deliveriesOfOrder: (partnerId: string, orderId: string) => `PARTNER#${partnerId}#ORDER#${orderId}#DELIVERIES`,
  /** Both indexes sort by `<createdAt>#<deliveryId>`: newest first is a backward query, "since" a key condition. */
  byCreation: (delivery: Pick<Delivery, 'createdAt' | 'deliveryId'>) => `${delivery.createdAt}#${delivery.deliveryId}`,
};

/** The index keys of a delivery item: every delivery is on gsi1, one that names an order on gsi2 too. */
export const indexKeys = (delivery: Pick<Delivery, 'partnerId' | 'orderId' | 'createdAt' | 'deliveryId'>) => ({
  gsi1pk: webhookKeys.deliveriesOfPartner(delivery.partnerId),
  gsi1sk: webhookKeys.byCreation(delivery),
  ...(delivery.orderId === undefined
    ? {}
    : {
        gsi2pk: webhookKeys.deliveriesOfOrder(delivery.partnerId, delivery.orderId),
        gsi2sk: webhookKeys.byCreation(delivery),
      }),
});

/**
 * What a delivery item holds besides the delivery's fields: keys, TTL and the attempt log.
 * The log lives in the item so that recording an attempt is one conditional write.
 */
const NOT_DELIVERY_FIELDS = new Set(['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'ttl', 'attempts']);
export const deliveryFromItem = (item: Record<string, unknown>): Delivery =>
  Object.fromEntries(Object.entries(item).filter(([k]) => !NOT_DELIVERY_FIELDS.has(k))) as unknown as Delivery;
/** The delivery and the attempt log its item holds: a page of them costs no read beyond the query. */
export const deliveryWithAttemptsFromItem = (item: Record<string, unknown>): DeliveryWithAttempts => ({
  ...deliveryFromItem(item),
  attempts: (item.attempts as DeliveryAttempt[] | undefined) ?? [],
});
