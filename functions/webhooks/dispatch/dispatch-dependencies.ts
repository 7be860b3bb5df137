import type { Clock } from '../../domain/clock';
import type { MessageQueue } from '../../domain/events/message-queue';
import type { Logger } from '../../domain/logger';
import type { Metrics } from '../../domain/metrics';
import type { PartnerRepository } from '../../domain/partners/partner-repository';
import type { AlertMailer } from '../alert-mailer';
import type { DeliveryMessage } from '../delivery';
import type { DeliveryBatchReader } from '../delivery-batch-reader';
import type { DeliveryRepository } from '../delivery-repository';
import type { EndpointGate, FairnessPolicy } from '../endpoint-circuit';
import type { RetrySchedule } from '../retry-schedule';
import type { SigningSecretStore } from '../signing-secret-store';
import type { WebhookEndpointRepository } from '../webhook-endpoint';
import type { WebhookTransport } from '../webhook-transport';
import type { SlowPathMoves } from '../slow-path-moves';
import type { DispatchPath } from './dispatch-path';
import type { EndpointVolume } from './endpoint-volume';

/** What the dispatcher and its parts are given; each part takes only the ones it uses. */
export interface WebhookDispatcherDependencies {
  readonly deliveries: DeliveryRepository;
  /** A batch's first read: its deliveries and the endpoints of the partners its messages name. */
  readonly batchReader: DeliveryBatchReader;
  readonly endpoints: WebhookEndpointRepository;
  /** Each endpoint's circuit breaker and in-flight cap (docs/webhooks.md, "Fair delivery"). */
  readonly gate: EndpointGate;
  readonly fairness: FairnessPolicy;
  /** How long an in-flight lease holds: longer than the transport's deadline, so only a crashed holder's lapses. */
  readonly attemptLeaseSeconds: number;
  /** For the failure alert's address. */
  readonly partners: Pick<PartnerRepository, 'getPartner'>;
  readonly secrets: SigningSecretStore;
  readonly transport: WebhookTransport;
  readonly mailer: AlertMailer;
  /** The deliveries queue (the fast path's): retries, hops and deferrals of either path come back through it. */
  readonly queue: MessageQueue<DeliveryMessage>;
  /** The path this dispatcher serves, and its budget. */
  readonly path: DispatchPath;
  readonly slowPathMoves: SlowPathMoves;
  readonly schedule: RetrySchedule;
  /** An endpoint whose every attempt has failed for this long is disabled (default 5 days). */
  readonly disableAfterSeconds: number;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Attempts by outcome, delivery lag, retries scheduled, alerts sent, circuit state changes. */
  readonly metrics?: Metrics;
  /** Busy endpoints get a `DeliveryLag` of their own (`partner` dimension); absent: none do. */
  readonly endpointVolume?: EndpointVolume;
}
