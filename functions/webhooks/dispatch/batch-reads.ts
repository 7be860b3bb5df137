import type { PartnerId } from '../../domain/partners/partner';
import type { Delivery, DeliveryId, DeliveryMessage } from '../delivery';
import type { DeliveryBatchReader } from '../delivery-batch-reader';
import type { WebhookEndpoint, WebhookEndpointRepository } from '../webhook-endpoint';

/** The reads a batch of messages shares: its deliveries and named endpoints in one request, any other endpoint once. */
export interface BatchReads {
  delivery(deliveryId: DeliveryId): Promise<Delivery | undefined>;
  endpoint(partnerId: PartnerId): Promise<WebhookEndpoint | undefined>;
  /** The endpoint changed (this handler held a delivery for it or changed it): read it again when next asked. */
  forget(partnerId: PartnerId): void;
}

/**
 * Starts a queue batch's reads: one consistent read of all its deliveries and of the
 * endpoint of each partner its messages name begins now (each message's first use waits
 * for it). A partner's endpoint is read once per batch; one no message names (messages
 * queued before they named their partner) is read when its first delivery needs it.
 */
export function readBatch(
  messages: readonly DeliveryMessage[],
  { batchReader, endpoints: repository }: { batchReader: DeliveryBatchReader; endpoints: WebhookEndpointRepository },
): BatchReads {
  const named = new Set(messages.flatMap((m) => (m.partnerId ? [m.partnerId as PartnerId] : [])));
  const snapshot = batchReader.read([...new Set(messages.map((m) => m.deliveryId as DeliveryId))], [...named]);
  // Each dispatch awaits what it needs and fails with it; these only keep a failed read
  // that no dispatch came to await from counting as an unhandled rejection.
  const withoutUnhandledRejection = <T>(read: Promise<T>) => (read.catch(() => undefined), read);
  withoutUnhandledRejection(snapshot);
  const endpoints = new Map<PartnerId, Promise<WebhookEndpoint | undefined>>(
    [...named].map((partnerId) => [
      partnerId,
      withoutUnhandledRejection(snapshot.then((read) => read.endpoints.get(partnerId))),
    ]),
  );
  return {
    delivery: async (deliveryId) => (await snapshot).deliveries.get(deliveryId),
    endpoint: (partnerId) => {
      let endpoint = endpoints.get(partnerId);
      if (!endpoint) endpoints.set(partnerId, (endpoint = repository.get(partnerId)));
      return endpoint;
    },
    forget: (partnerId) => endpoints.delete(partnerId),
  };
}
