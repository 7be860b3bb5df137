import type { PartnerId } from '../partners/partner';
import type { OrderEventKind } from './order-events';

/** A partner's webhook endpoint, configured by the operator (contract: Events). Its secret lives in the secret store. */
export interface WebhookEndpoint {
  readonly partnerId: PartnerId;
  readonly url: string;
  /** Subscribed kinds; events of other kinds are not delivered. */
  readonly events: readonly OrderEventKind[];
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly secretRotatedAt: string;
}

export interface WebhookEndpointRepository {
  get(partnerId: PartnerId): Promise<WebhookEndpoint | undefined>;
  put(endpoint: WebhookEndpoint): Promise<void>;
}
