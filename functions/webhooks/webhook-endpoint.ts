import type { PartnerId } from '../domain/partners/partner';
import type { EndpointCircuit } from './endpoint-circuit';
import type { WebhookEventKind } from '../domain/events/order-event-kinds';

/**
 * Whether deliveries go out: `enabled` sends; `paused` (by the operator) and `disabled`
 * (by the service after a 410 Gone or sustained failure, or by the operator) record
 * deliveries but hold them until `webhook resume` / `webhook enable`.
 */
export type EndpointStatus = 'enabled' | 'paused' | 'disabled';

/** A partner's webhook endpoint, configured by the operator (contract: Events). Its secret lives in the secret store. */
export interface WebhookEndpoint {
  readonly partnerId: PartnerId;
  readonly url: string;
  /** Subscribed kinds, always stored as a list; events of other kinds are not delivered. */
  readonly events: readonly WebhookEventKind[];
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly secretRotatedAt: string;
  readonly status: EndpointStatus;
  /** Why it is in this status, in words for operators and the partner. */
  readonly statusReason?: string;
  readonly statusSince: string;
  /** The first failed attempt since the last successful one: how long every delivery has failed. */
  readonly failingSince?: string;
  /**
   * The circuit breaker's state (absent: closed, no failures). `open` since `openedAt`:
   * deliveries wait without a POST until `retryAt`, then one probe goes (`half-open`).
   */
  readonly circuit?: EndpointCircuit;
  /**
   * The operator's ceiling (`webhook set --max-rate`): attempts per second the dispatcher
   * starts to this endpoint at most, for a receiver that cannot take bursts.
   */
  readonly maxRate?: number;
  /**
   * Set while the endpoint's attempts go by the slow path (docs/webhooks.md, "Fast and slow
   * paths"): since when, and why in words for operators. Absent: the fast path.
   */
  readonly slowPathSince?: string;
  readonly slowPathReason?: string;
}

export interface EndpointStatusChange {
  readonly status: EndpointStatus;
  readonly reason?: string;
  readonly since: string;
}

export interface WebhookEndpointRepository {
  get(partnerId: PartnerId): Promise<WebhookEndpoint | undefined>;
  put(endpoint: WebhookEndpoint): Promise<void>;
  /** Deletes the endpoint; false when there was none. */
  remove(partnerId: PartnerId): Promise<boolean>;
  /** Moves the endpoint to a status if it is in one of `from`; false otherwise (someone else moved it first). */
  changeStatus(partnerId: PartnerId, change: EndpointStatusChange, from: readonly EndpointStatus[]): Promise<boolean>;
  /** Notes the start of a failing streak, unless one is already noted. */
  markFailing(partnerId: PartnerId, since: Date): Promise<void>;
  /** Ends the failing streak: a delivery succeeded. */
  markHealthy(partnerId: PartnerId): Promise<void>;
  /** Puts the endpoint on the slow path (`since` kept when it already is), with the reason; true when it was on the fast path. */
  markSlowPath(partnerId: PartnerId, since: Date, reason: string): Promise<boolean>;
  /** Back to the fast path: an attempt answered within the fast path's budget; true when it was on the slow path. */
  markFastPath(partnerId: PartnerId): Promise<boolean>;
}
