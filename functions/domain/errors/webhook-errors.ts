/** The partner's webhook endpoint, its deliveries and test events. */
import { DomainError } from './domain-error';

/** An operator command that needs the webhook endpoint in another status (resume of a disabled endpoint, ...). */
export class WebhookEndpointStatusConflict extends DomainError {
  override readonly name = 'WebhookEndpointStatusConflict';
}

/** A webhook test event was asked for, but the partner has no webhook endpoint to send it to. */
export class WebhookEndpointNotConfigured extends DomainError {
  override readonly name = 'WebhookEndpointNotConfigured';
}

/** A webhook test event of a kind the partner's endpoint is not subscribed to: the fan-out would drop it. */
export class WebhookEventNotSubscribed extends DomainError {
  override readonly name = 'WebhookEventNotSubscribed';
  constructor(
    readonly event: string,
    readonly subscribed: readonly string[],
  ) {
    super(`Your webhook endpoint is not subscribed to ${event}; it receives ${subscribed.join(', ')}`);
  }
}

/** No delivery with this id among the partner's own (another partner's is not told apart from none). */
export class DeliveryNotFound extends DomainError {
  override readonly name = 'DeliveryNotFound';
  constructor(readonly deliveryId: string) {
    super(`No delivery ${deliveryId}`);
  }
}

/** A retry of a delivery that is still pending: an attempt is queued, waiting for its time, or held. */
export class DeliveryInFlight extends DomainError {
  override readonly name = 'DeliveryInFlight';
  constructor(readonly deliveryId: string) {
    super(
      `Delivery ${deliveryId} is still pending (an attempt is queued or held); retry it once it is delivered or failed`,
    );
  }
}

/** A partner read its webhook endpoint, and has none. */
export class WebhookEndpointNotFound extends DomainError {
  override readonly name = 'WebhookEndpointNotFound';
  constructor() {
    super('You have no webhook endpoint; ask the operator to set one up');
  }
}
