import type { Clock } from '../clock';
import { ConcurrentModification, NotFound, ValidationFailed } from '../errors';
import type { PartnerId } from '../partners/partner';
import type { PartnerRepository } from '../partners/partner-repository';
import type { Delivery, DeliveryAttempt, DeliveryId, DeliveryMessage, DeliveryStatus } from './delivery';
import type { DeliveryRepository } from './delivery-repository';
import type { MessageQueue } from './message-queue';
import { ORDER_EVENT_KINDS, OrderEventKind } from './order-events';
import type { SigningSecretStore } from './signing-secret-store';
import type { WebhookEndpoint, WebhookEndpointRepository } from './webhook-endpoint';
import { checkPreferredSecret, generateWebhookSecret } from './webhook-secret';
import { checkWebhookUrl } from './webhook-url';

export interface ConfiguredEndpoint {
  readonly endpoint: WebhookEndpoint;
  /** The secret, only when it was generated here: the one time anyone sees it. */
  readonly generatedSecret?: string;
}

export interface DeliveryWithAttempts extends Delivery {
  readonly attempts: readonly DeliveryAttempt[];
}

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
   * Sets the partner's URL and subscribed events (all kinds when none are given). The
   * secret: the partner's preferred one when given; otherwise the current one is kept,
   * or a new one is generated for a partner that has none.
   */
  async configureEndpoint(input: {
    partnerId: PartnerId;
    url: string;
    events?: readonly string[];
    secret?: string;
  }): Promise<ConfiguredEndpoint> {
    const issues = [];
    const url = checkWebhookUrl(input.url, this.requireHttpsPublic);
    if (!url.ok) issues.push({ code: 'INVALID_URL', message: `url ${url.reason}`, path: ['url'] });
    const unknownKinds = (input.events ?? []).filter((kind) => !OrderEventKind.safeParse(kind).success);
    if (unknownKinds.length) {
      issues.push({
        code: 'INVALID_VALUE',
        message: `events has unknown kinds: ${unknownKinds.join(', ')} (known: ${ORDER_EVENT_KINDS.join(', ')})`,
        path: ['events'],
      });
    }
    if (input.events && input.events.length === 0) issues.push({ code: 'TOO_FEW_ITEMS', message: 'events must name at least one kind', path: ['events'] });
    const secretProblem = input.secret === undefined ? undefined : checkPreferredSecret(input.secret);
    if (secretProblem) issues.push({ code: 'INVALID_SECRET', message: `secret ${secretProblem}`, path: ['secret'] });
    if (issues.length) throw new ValidationFailed(issues, issues.map((i) => i.message).join('; '));

    await this.requirePartner(input.partnerId);
    const existing = await this.endpoints.get(input.partnerId);
    const now = this.clock.now().toISOString();
    let generatedSecret: string | undefined;
    let secretRotatedAt = existing?.secretRotatedAt ?? now;
    if (input.secret !== undefined) {
      await this.secrets.put(input.partnerId, input.secret);
      secretRotatedAt = now;
    } else if (!existing || !(await this.secrets.get(input.partnerId))) {
      generatedSecret = generateWebhookSecret();
      await this.secrets.put(input.partnerId, generatedSecret);
      secretRotatedAt = now;
    }
    const events = input.events ? [...new Set(input.events)] : ORDER_EVENT_KINDS;
    const endpoint: WebhookEndpoint = {
      partnerId: input.partnerId,
      url: url.ok ? url.url.href : input.url,
      events: ORDER_EVENT_KINDS.filter((kind) => events.includes(kind)),
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
      secretRotatedAt,
    };
    await this.endpoints.put(endpoint);
    return { endpoint, ...(generatedSecret ? { generatedSecret } : {}) };
  }

  async showEndpoint(partnerId: PartnerId): Promise<WebhookEndpoint> {
    await this.requirePartner(partnerId);
    const endpoint = await this.endpoints.get(partnerId);
    if (!endpoint) throw new NotFound(`Partner ${partnerId} has no webhook endpoint`);
    return endpoint;
  }

  /**
   * A new generated secret replaces the stored one now; dispatchers sign with it once
   * their cached copy of the old one expires (the signing-secret store's cache).
   */
  async rotateSecret(partnerId: PartnerId): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    const endpoint = await this.showEndpoint(partnerId);
    const secret = generateWebhookSecret();
    await this.secrets.put(partnerId, secret);
    const now = this.clock.now().toISOString();
    const rotated = { ...endpoint, secretRotatedAt: now, updatedAt: now };
    await this.endpoints.put(rotated);
    return { endpoint: rotated, secret };
  }

  async listDeliveries(
    partnerId: PartnerId,
    options: { status?: DeliveryStatus; limit?: number } = {},
  ): Promise<DeliveryWithAttempts[]> {
    await this.requirePartner(partnerId);
    const deliveries = await this.deliveries.listByPartner(partnerId, { status: options.status, limit: options.limit ?? 50 });
    return Promise.all(
      deliveries.map(async (delivery) => ({ ...delivery, attempts: await this.deliveries.listAttempts(delivery.deliveryId) })),
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
    const now = this.clock.now();
    if (!(await this.deliveries.startNewChain(deliveryId, delivery.chain, now, now))) {
      throw new ConcurrentModification(`Delivery ${deliveryId} changed while replaying it; try again`);
    }
    const chain = delivery.chain + 1;
    await this.queue.send({ deliveryId, chain, attempt: 1, dueAt: now.toISOString() }, 0);
    return (await this.deliveries.get(deliveryId)) as Delivery;
  }

  /**
   * Queues the next attempt of every pending delivery of the partner again, for when the
   * queue itself lost its messages (the local SQS stand-in keeps them in memory only).
   * A duplicate of a message still queued is harmless: attempts are recorded by
   * conditional writes on (chain, attempt), so only one of the two takes effect.
   */
  async resumePending(partnerId: PartnerId): Promise<number> {
    await this.requirePartner(partnerId);
    const pending = await this.deliveries.listByPartner(partnerId, { status: 'pending', limit: 1000 });
    const now = this.clock.now();
    for (const delivery of pending) {
      const dueAt = delivery.nextAttemptAt ?? now.toISOString();
      await this.queue.send({ deliveryId: delivery.deliveryId, chain: delivery.chain, attempt: delivery.attemptCount + 1, dueAt }, 0);
    }
    return pending.length;
  }

  private async requirePartner(partnerId: PartnerId): Promise<void> {
    if (!(await this.partners.getPartner(partnerId))) throw new NotFound(`No partner ${partnerId}`);
  }
}
