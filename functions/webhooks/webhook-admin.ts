import type { Clock } from '../domain/clock';
import { ConcurrentModification, NotFound, ValidationFailed, WebhookEndpointStatusConflict } from '../domain/errors';
import type { PartnerId } from '../domain/partners/partner';
import type { PartnerRepository } from '../domain/partners/partner-repository';
import type { Delivery, DeliveryId, DeliveryMessage, DeliveryStatus, DeliveryWithAttempts } from './delivery';
import type { DeliveryRepository } from './delivery-repository';
import { DeliveryReplay } from './delivery-replay';
import type { MessageQueue } from '../domain/events/message-queue';
import { ORDER_EVENT_KINDS, WEBHOOK_EVENT_KINDS, WebhookEventKind } from '../domain/events/order-event-kinds';
import { type SigningSecrets, type SigningSecretStore, withoutExpiredSecrets } from './signing-secret-store';
import type { EndpointStatus, WebhookEndpoint, WebhookEndpointRepository } from './webhook-endpoint';
import { checkPreferredSecret, generateWebhookSecret } from './webhook-secret';
import { checkWebhookUrl } from './webhook-url';

/** The most deliveries one resume, enable, remove or bulk replay touches; run it again for more. */
const MAX_REQUEUE = 1000;

const STATUS_HINT: Readonly<Record<EndpointStatus, string>> = {
  enabled: 'it is already sending',
  paused: 'use webhook resume',
  disabled: 'use webhook enable (resume only ends a pause)',
};

export interface ConfiguredEndpoint {
  readonly endpoint: WebhookEndpoint;
  /** The secret, only when it was generated here: the one time anyone sees it. */
  readonly generatedSecret?: string;
}

/** The endpoint as operators see it: never a secret, but when a rotation's overlap ends. */
export interface EndpointView extends WebhookEndpoint {
  /** When the last secret still signing beside the current one stops; absent outside an overlap. */
  readonly secretOverlapEndsAt?: string;
}

/** What resume, enable and bulk replay put back on the queue. */
export interface RequeuedDeliveries {
  readonly endpoint?: EndpointView;
  /** Oldest first, the order they were queued in. */
  readonly deliveryIds: readonly DeliveryId[];
}

export type { DeliveryWithAttempts } from './delivery';

export interface WebhookAdminOptions {
  readonly partners: Pick<PartnerRepository, 'getPartner'>;
  readonly endpoints: WebhookEndpointRepository;
  /** The dispatcher's own store where both run in one process, so a rotated secret is not served from its cache. */
  readonly secrets: SigningSecretStore;
  readonly deliveries: DeliveryRepository;
  readonly queue: MessageQueue<DeliveryMessage>;
  /** Production: endpoints must be https and resolve to public addresses. */
  readonly requireHttpsPublic: boolean;
  readonly clock: Clock;
}

/**
 * Operator use cases for webhooks (the contract: partners give URL, events and secret out
 * of band; no API configures webhooks).
 */
export class WebhookAdmin {
  private readonly partners: Pick<PartnerRepository, 'getPartner'>;
  private readonly endpoints: WebhookEndpointRepository;
  private readonly secrets: SigningSecretStore;
  private readonly deliveries: DeliveryRepository;
  private readonly queue: MessageQueue<DeliveryMessage>;
  private readonly requireHttpsPublic: boolean;
  private readonly clock: Clock;

  constructor(options: WebhookAdminOptions) {
    ({
      partners: this.partners,
      endpoints: this.endpoints,
      secrets: this.secrets,
      deliveries: this.deliveries,
      queue: this.queue,
      requireHttpsPublic: this.requireHttpsPublic,
      clock: this.clock,
    } = options);
  }

  /**
   * Sets the partner's URL and subscribed events (the order kinds when none are given). The
   * secret: the partner's preferred one when given; otherwise the current one is kept,
   * or a new one is generated for a partner that has none.
   */
  async configureEndpoint(input: {
    partnerId: PartnerId;
    url: string;
    events?: readonly string[];
    secret?: string;
    /** Deliveries per second at most; null removes the ceiling; kept when absent. */
    maxRate?: number | null;
  }): Promise<ConfiguredEndpoint> {
    const issues = [];
    const url = checkWebhookUrl(input.url, this.requireHttpsPublic);
    if (!url.ok) issues.push({ code: 'INVALID_URL', message: `url ${url.reason}`, path: ['url'] });
    const unknownKinds = (input.events ?? []).filter((kind) => !WebhookEventKind.safeParse(kind).success);
    if (unknownKinds.length) {
      issues.push({
        code: 'INVALID_VALUE',
        message: `events has unknown kinds: ${unknownKinds.join(', ')} (known: ${WEBHOOK_EVENT_KINDS.join(', ')})`,
        path: ['events'],
      });
    }
    if (input.events && input.events.length === 0)
      issues.push({ code: 'TOO_FEW_ITEMS', message: 'events must name at least one kind', path: ['events'] });
    const secretProblem = input.secret === undefined ? undefined : checkPreferredSecret(input.secret);
    if (secretProblem) issues.push({ code: 'INVALID_SECRET', message: `secret ${secretProblem}`, path: ['secret'] });
    if (input.maxRate != null && !(Number.isInteger(input.maxRate) && input.maxRate >= 1 && input.maxRate <= 1000))
      issues.push({
        code: 'INVALID_VALUE',
        message: 'maxRate must be a whole number of deliveries per second from 1 to 1000',
        path: ['maxRate'],
      });
    if (issues.length) throw new ValidationFailed(issues, issues.map((i) => i.message).join('; '));

    await this.requirePartner(input.partnerId);
    const existing = await this.endpoints.get(input.partnerId);
    const now = this.clock.now().toISOString();
    let generatedSecret: string | undefined;
    let secretRotatedAt = existing?.secretRotatedAt ?? now;
    if (input.secret !== undefined) {
      // The partner chose it and has it: it replaces every secret at once, no overlap.
      await this.secrets.put(input.partnerId, { current: input.secret, retiring: [] });
      secretRotatedAt = now;
    } else if (!existing || !(await this.secrets.get(input.partnerId))) {
      generatedSecret = generateWebhookSecret();
      await this.secrets.put(input.partnerId, { current: generatedSecret, retiring: [] });
      secretRotatedAt = now;
    }
    // Without a list, the order kinds only: approval kinds reach an endpoint that names them, never one set up before them.
    // An endpoint configured without a list of kinds receives the order kinds, as before approvals existed.
    const events: readonly string[] = input.events ? [...new Set(input.events)] : ORDER_EVENT_KINDS;
    const endpoint: WebhookEndpoint = {
      partnerId: input.partnerId,
      url: url.ok ? url.url.href : input.url,
      events: WEBHOOK_EVENT_KINDS.filter((kind) => events.includes(kind)),
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
      secretRotatedAt,
      // A new URL does not re-enable a paused or disabled endpoint: that is `resume` / `enable`, which also send what was held.
      status: existing?.status ?? 'enabled',
      ...(existing?.statusReason ? { statusReason: existing.statusReason } : {}),
      statusSince: existing?.statusSince ?? now,
      ...(existing?.failingSince ? { failingSince: existing.failingSince } : {}),
      // Subscribing to more kinds does not mend a dead receiver: its circuit stays as the dispatcher left it. A new URL starts closed.
      ...(existing?.circuit && existing.url === (url.ok ? url.url.href : input.url)
        ? { circuit: existing.circuit }
        : {}),
      ...(input.maxRate === undefined
        ? existing?.maxRate !== undefined
          ? { maxRate: existing.maxRate }
          : {}
        : input.maxRate === null
          ? {}
          : { maxRate: input.maxRate }),
    };
    await this.endpoints.put(endpoint);
    return { endpoint, ...(generatedSecret ? { generatedSecret } : {}) };
  }

  async showEndpoint(partnerId: PartnerId): Promise<EndpointView> {
    const endpoint = await this.requireEndpoint(partnerId);
    return this.view(endpoint, await this.secrets.get(partnerId));
  }

  /**
   * A new generated secret becomes the current one. With an overlap, the old secrets keep
   * signing beside it until `now + overlapSeconds` (0: they stop at once, for a leaked
   * secret); secrets whose overlap already ended are deleted now.
   */
  async rotateSecret(
    partnerId: PartnerId,
    overlapSeconds: number,
  ): Promise<{ endpoint: EndpointView; secret: string }> {
    const endpoint = await this.requireEndpoint(partnerId);
    const now = this.clock.now();
    const previous = await this.secrets.get(partnerId);
    const secret = generateWebhookSecret();
    const expiresAt = new Date(now.getTime() + overlapSeconds * 1000).toISOString();
    const kept = previous ? withoutExpiredSecrets(previous, now) : undefined;
    const secrets: SigningSecrets = {
      current: secret,
      retiring:
        kept && overlapSeconds > 0
          ? [
              ...kept.retiring.map((r) => ({ ...r, expiresAt: r.expiresAt < expiresAt ? r.expiresAt : expiresAt })),
              { secret: kept.current, expiresAt },
            ]
          : [],
    };
    await this.secrets.put(partnerId, secrets);
    const rotated = { ...endpoint, secretRotatedAt: now.toISOString(), updatedAt: now.toISOString() };
    await this.endpoints.put(rotated);
    return { endpoint: this.view(rotated, secrets), secret };
  }

  /** Stops sending: deliveries are recorded and held until `resume`. */
  async pause(partnerId: PartnerId, reason?: string): Promise<EndpointView> {
    return this.moveTo(partnerId, { status: 'paused', reason: reason ?? 'paused by the operator' }, ['enabled']);
  }

  /** Sends again after a pause, and queues what was held, oldest first. */
  async resume(partnerId: PartnerId): Promise<RequeuedDeliveries> {
    const endpoint = await this.moveTo(partnerId, { status: 'enabled' }, ['paused']);
    return { endpoint, deliveryIds: await this.releaseHeld(partnerId) };
  }

  /** Sends again after a disable (by the service or the operator), and queues what was held, oldest first. */
  async enable(partnerId: PartnerId): Promise<RequeuedDeliveries> {
    const endpoint = await this.moveTo(partnerId, { status: 'enabled' }, ['disabled', 'paused']);
    return { endpoint, deliveryIds: await this.releaseHeld(partnerId) };
  }

  /**
   * Removes the endpoint and deletes its signing secrets for good. Pending deliveries
   * (held or waiting for a retry) are cancelled: no further attempt, no alert; they stay
   * in the log (30 days) and can be replayed to an endpoint set later.
   */
  async remove(partnerId: PartnerId): Promise<{ cancelled: readonly DeliveryId[] }> {
    await this.requireEndpoint(partnerId);
    await this.endpoints.remove(partnerId);
    await this.secrets.remove(partnerId);
    const now = this.clock.now();
    const pending = await this.deliveries.listByPartner(partnerId, { status: 'pending', limit: MAX_REQUEUE });
    const cancelled: DeliveryId[] = [];
    for (const delivery of pending)
      if (await this.deliveries.cancel(delivery.deliveryId, now)) cancelled.push(delivery.deliveryId);
    return { cancelled };
  }

  /** Replays every delivery created at or after `since` (only those in `status` when given), oldest first. */
  async replaySince(partnerId: PartnerId, since: Date, status?: DeliveryStatus): Promise<RequeuedDeliveries> {
    await this.requirePartner(partnerId);
    const found = await this.deliveries.listByPartner(partnerId, {
      status,
      since: since.toISOString(),
      limit: MAX_REQUEUE,
    });
    const replayed: DeliveryId[] = [];
    for (const delivery of found.reverse()) replayed.push((await this.replay(delivery.deliveryId)).deliveryId);
    return { deliveryIds: replayed };
  }

  async listDeliveries(
    partnerId: PartnerId,
    options: { status?: DeliveryStatus; limit?: number } = {},
  ): Promise<DeliveryWithAttempts[]> {
    await this.requirePartner(partnerId);
    const deliveries = await this.deliveries.listByPartner(partnerId, {
      status: options.status,
      limit: options.limit ?? 50,
    });
    return Promise.all(
      deliveries.map(async (delivery) => ({
        ...delivery,
        attempts: await this.deliveries.listAttempts(delivery.deliveryId),
      })),
    );
  }

  async getDelivery(deliveryId: DeliveryId): Promise<DeliveryWithAttempts> {
    const delivery = await this.deliveries.get(deliveryId);
    if (!delivery) throw new NotFound(`No delivery ${deliveryId}`);
    return { ...delivery, attempts: await this.deliveries.listAttempts(deliveryId) };
  }

  /**
   * The delivery an event id already produced: publishing that id again delivers nothing
   * new (the fan-out de-duplicates per partner and event id). Undefined when the event was
   * never fanned out to an endpoint, so publishing it now may deliver.
   */
  async deliveryOfEvent(partnerId: PartnerId, eventId: string): Promise<Delivery | undefined> {
    return this.deliveries.getByEvent(partnerId, eventId);
  }

  /**
   * Sends a delivery again from its first attempt, with the same id and body: a new chain
   * of attempts on the same retry ladder. Messages of the previous chain are ignored from now on.
   */
  async replay(deliveryId: DeliveryId): Promise<Delivery> {
    const delivery = await this.deliveries.get(deliveryId);
    if (!delivery) throw new NotFound(`No delivery ${deliveryId}`);
    const replayed = await new DeliveryReplay(this.deliveries, this.queue, this.clock).start(delivery);
    if (!replayed) throw new ConcurrentModification(`Delivery ${deliveryId} changed while replaying it; try again`);
    return replayed;
  }

  /**
   * Queues the next attempt of every pending delivery of the partner again, for when the
   * queue itself lost its messages (the local SQS stand-in keeps them in memory only).
   * A duplicate of a message still queued is harmless: attempts are recorded by
   * conditional writes on (chain, attempt), so only one of the two takes effect.
   */
  async resumePending(partnerId: PartnerId): Promise<number> {
    await this.requirePartner(partnerId);
    const pending = await this.deliveries.listByPartner(partnerId, { status: 'pending', limit: MAX_REQUEUE });
    const now = this.clock.now();
    // Held deliveries have no message to lose: they wait for resume or enable.
    for (const delivery of pending.filter((d) => !d.heldAt)) {
      const dueAt = delivery.nextAttemptAt ?? now.toISOString();
      await this.queue.send(
        {
          deliveryId: delivery.deliveryId,
          partnerId,
          chain: delivery.chain,
          attempt: delivery.attemptCount + 1,
          dueAt,
        },
        0,
      );
    }
    return pending.length;
  }

  /** Queues every held delivery of the partner again, oldest first (by creation). */
  private async releaseHeld(partnerId: PartnerId): Promise<DeliveryId[]> {
    const pending = await this.deliveries.listByPartner(partnerId, { status: 'pending', limit: MAX_REQUEUE });
    const held = pending.filter((delivery) => delivery.heldAt).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    const now = this.clock.now();
    const released: DeliveryId[] = [];
    for (const delivery of held) {
      if (!(await this.deliveries.release(delivery.deliveryId, delivery.chain, now, now))) continue;
      await this.queue.send(
        {
          deliveryId: delivery.deliveryId,
          partnerId,
          chain: delivery.chain,
          attempt: delivery.attemptCount + 1,
          dueAt: now.toISOString(),
        },
        0,
      );
      released.push(delivery.deliveryId);
    }
    return released;
  }

  private async moveTo(
    partnerId: PartnerId,
    change: { status: EndpointStatus; reason?: string },
    from: readonly EndpointStatus[],
  ): Promise<EndpointView> {
    const endpoint = await this.requireEndpoint(partnerId);
    if (endpoint.status === change.status) return this.view(endpoint, await this.secrets.get(partnerId));
    if (!(await this.endpoints.changeStatus(partnerId, { ...change, since: this.clock.now().toISOString() }, from))) {
      const current = (await this.endpoints.get(partnerId)) ?? endpoint;
      throw new WebhookEndpointStatusConflict(
        `The webhook endpoint of partner ${partnerId} is ${current.status}${current.statusReason ? ` (${current.statusReason})` : ''}: ${STATUS_HINT[current.status]}`,
      );
    }
    return this.showEndpoint(partnerId);
  }

  private view(endpoint: WebhookEndpoint, secrets: SigningSecrets | undefined): EndpointView {
    const now = this.clock.now();
    const live = secrets ? withoutExpiredSecrets(secrets, now).retiring : [];
    const overlapEndsAt = live
      .map((r) => r.expiresAt)
      .sort()
      .at(-1);
    return { ...endpoint, ...(overlapEndsAt ? { secretOverlapEndsAt: overlapEndsAt } : {}) };
  }

  private async requireEndpoint(partnerId: PartnerId): Promise<WebhookEndpoint> {
    await this.requirePartner(partnerId);
    const endpoint = await this.endpoints.get(partnerId);
    if (!endpoint) throw new NotFound(`Partner ${partnerId} has no webhook endpoint`);
    return endpoint;
  }

  private async requirePartner(partnerId: PartnerId): Promise<void> {
    if (!(await this.partners.getPartner(partnerId))) throw new NotFound(`No partner ${partnerId}`);
  }
}
