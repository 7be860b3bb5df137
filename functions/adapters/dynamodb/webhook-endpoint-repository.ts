import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { PartnerId } from '../../domain/partners/partner';
import type {
  Admission,
  AdmissionTicket,
  CircuitState,
  CircuitTransition,
  EndpointCircuit,
  EndpointGate,
  FairnessPolicy,
} from '../../webhooks/endpoint-circuit';
import type {
  EndpointStatus,
  EndpointStatusChange,
  WebhookEndpoint,
  WebhookEndpointRepository,
} from '../../webhooks/webhook-endpoint';
import { partnerKeys } from './dynamodb-partner-repository';

/**
 * The circuit and the in-flight leases are top-level attributes of the endpoint's item, so
 * each claim and count is one conditional UpdateItem: `circuitState`, `circuitFailures`,
 * `circuitOpenedAt`, `circuitRetryAt`, `circuitOpens`, `circuitProbe` (the probe's lease)
 * and `inFlight0`, `inFlight1`, … (one lease per slot). A lease is `<expiry ISO>|<token>`:
 * it compares with an ISO time as its expiry does, and names its holder.
 */
const CIRCUIT_ATTRIBUTES = [
  'circuitState',
  'circuitFailures',
  'circuitOpenedAt',
  'circuitRetryAt',
  'circuitOpens',
  'circuitProbe',
] as const;
const IN_FLIGHT_PREFIX = 'inFlight';
const slotAttribute = (slot: number) => `${IN_FLIGHT_PREFIX}${slot}`;
const leaseOf = (until: Date, token: string) => `${until.toISOString()}|${token}`;
const leaseExpiry = (lease: unknown) => (typeof lease === 'string' ? lease.split('|')[0] : undefined);

function circuitFromItem(item: Record<string, unknown>): EndpointCircuit | undefined {
  if (item.circuitState === undefined && item.circuitFailures === undefined) return undefined;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const probeUntil = leaseExpiry(item.circuitProbe);
  return {
    state: (text(item.circuitState) as CircuitState | undefined) ?? 'closed',
    consecutiveFailures: Number(item.circuitFailures ?? 0),
    ...(text(item.circuitOpenedAt) ? { openedAt: text(item.circuitOpenedAt) } : {}),
    ...(text(item.circuitRetryAt) ? { retryAt: text(item.circuitRetryAt) } : {}),
    ...(probeUntil ? { probeUntil } : {}),
    ...(item.circuitOpens !== undefined ? { opens: Number(item.circuitOpens) } : {}),
  };
}

export const endpointFromItem = (item: Record<string, unknown>): WebhookEndpoint => {
  const endpoint = Object.fromEntries(
    Object.entries(item).filter(
      ([name]) =>
        name !== 'pk' &&
        name !== 'sk' &&
        !name.startsWith(IN_FLIGHT_PREFIX) &&
        !(CIRCUIT_ATTRIBUTES as readonly string[]).includes(name),
    ),
  );
  const circuit = circuitFromItem(item);
  // Endpoints stored before endpoint health had no status: they were sending.
  return {
    status: 'enabled',
    statusSince: endpoint.createdAt,
    ...endpoint,
    ...(circuit ? { circuit } : {}),
  } as WebhookEndpoint;
};

/** The circuit's attributes for a whole-item put (leases are not kept: their holders' releases then change nothing). */
function circuitItem(circuit: EndpointCircuit | undefined): Record<string, unknown> {
  if (!circuit) return {};
  return {
    circuitState: circuit.state,
    circuitFailures: circuit.consecutiveFailures,
    ...(circuit.openedAt ? { circuitOpenedAt: circuit.openedAt } : {}),
    ...(circuit.retryAt ? { circuitRetryAt: circuit.retryAt } : {}),
    ...(circuit.opens !== undefined ? { circuitOpens: circuit.opens } : {}),
  };
}

const isConditionFailure = (error: unknown) => (error as Error).name === 'ConditionalCheckFailedException';

/** The partner's webhook endpoint, one item next to the partner in the partners table, with its circuit and in-flight leases. */
export class DynamoWebhookEndpointRepository implements WebhookEndpointRepository, EndpointGate {
  /** Slots this process holds, per endpoint: its first, unread claim tries one it does not hold itself. */
  private readonly heldHere = new Map<string, Set<number>>();

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(partnerId: PartnerId): Promise<WebhookEndpoint | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.table, Key: partnerKeys.webhookEndpoint(partnerId), ConsistentRead: true }),
    );
    return Item ? endpointFromItem(Item) : undefined;
  }

  async put(endpoint: WebhookEndpoint): Promise<void> {
    const { circuit, ...stored } = endpoint;
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: { ...partnerKeys.webhookEndpoint(endpoint.partnerId), ...stored, ...circuitItem(circuit) },
      }),
    );
  }

  async remove(partnerId: PartnerId): Promise<boolean> {
    const { Attributes } = await this.db.send(
      new DeleteCommand({
        TableName: this.table,
        Key: partnerKeys.webhookEndpoint(partnerId),
        ReturnValues: 'ALL_OLD',
      }),
    );
    return Attributes !== undefined;
  }

  async changeStatus(
    partnerId: PartnerId,
    change: EndpointStatusChange,
    from: readonly EndpointStatus[],
  ): Promise<boolean> {
    const allowed = from.map((_, index) => `:from${index}`);
    const values: Record<string, unknown> = Object.fromEntries(from.map((status, index) => [`:from${index}`, status]));
    const unset = from.includes('enabled') ? ' OR attribute_not_exists(#status)' : '';
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: partnerKeys.webhookEndpoint(partnerId),
          UpdateExpression: `SET #status = :status, statusSince = :since, updatedAt = :since${change.reason ? ', statusReason = :reason' : ''} REMOVE failingSince${change.reason ? '' : ', statusReason'}`,
          ConditionExpression: `attribute_exists(pk) AND (#status IN (${allowed.join(', ')})${unset})`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ...values,
            ':status': change.status,
            ':since': change.since,
            ...(change.reason ? { ':reason': change.reason } : {}),
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async markFailing(partnerId: PartnerId, since: Date): Promise<void> {
    await this.conditionally(
      new UpdateCommand({
        TableName: this.table,
        Key: partnerKeys.webhookEndpoint(partnerId),
        UpdateExpression: 'SET failingSince = :since',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(failingSince)',
        ExpressionAttributeValues: { ':since': since.toISOString() },
      }),
    );
  }

  async markHealthy(partnerId: PartnerId): Promise<void> {
    await this.conditionally(
      new UpdateCommand({
        TableName: this.table,
        Key: partnerKeys.webhookEndpoint(partnerId),
        UpdateExpression: 'REMOVE failingSince',
        ConditionExpression: 'attribute_exists(failingSince)',
      }),
    );
  }

  /**
   * 1. Plans from what is known (nothing at first: an optimistic claim of a random slot).
   * 2. Open circuit before `retryAt`, or a probe out: deferred, no write. Open past
   *    `retryAt`, or a lapsed probe: claims the probe (half-open) conditionally.
   * 3. Closed: claims a free or lapsed slot under the cap (one slot while failing),
   *    conditionally on the circuit still being closed.
   * 4. A claim that loses a race reads the item again and plans again (a few times at most).
   */
  async admit(
    partnerId: PartnerId,
    { now, leaseUntil, token, policy }: { now: Date; leaseUntil: Date; token: string; policy: FairnessPolicy },
  ): Promise<Admission> {
    const lease = leaseOf(leaseUntil, token);
    const nowIso = now.toISOString();
    let item: Record<string, unknown> | undefined;
    for (let round = 0; round < 2 * policy.maxInFlight + 3; round += 1) {
      if (round > 0) {
        const { Item } = await this.db.send(
          new GetCommand({ TableName: this.table, Key: partnerKeys.webhookEndpoint(partnerId), ConsistentRead: true }),
        );
        if (!Item) return { kind: 'no-endpoint' };
        item = Item;
      }
      const circuit = item
        ? (circuitFromItem(item) ?? { state: 'closed' as const, consecutiveFailures: 0 })
        : undefined;
      if (circuit && circuit.state !== 'closed') {
        const until = circuit.state === 'open' ? circuit.retryAt : circuit.probeUntil;
        if (until && until > nowIso)
          return {
            kind: 'circuit-open',
            until: new Date(until),
            ...(circuit.openedAt ? { openedAt: circuit.openedAt } : {}),
          };
        const claimed = await this.tryUpdate(
          {
            UpdateExpression: 'SET circuitState = :halfOpen, circuitProbe = :lease',
            ConditionExpression:
              circuit.state === 'open'
                ? 'circuitState = :open AND circuitRetryAt <= :now'
                : 'circuitState = :halfOpen AND circuitProbe < :now',
            ExpressionAttributeValues: {
              ':halfOpen': 'half-open',
              ':lease': lease,
              ':now': nowIso,
              ...(circuit.state === 'open' ? { ':open': 'open' } : {}),
            },
          },
          partnerId,
        );
        if (claimed)
          return {
            kind: 'admitted',
            ticket: { kind: 'probe', slot: -1, lease, opens: circuit.opens ?? 1, halfOpened: circuit.state === 'open' },
          };
        continue;
      }
      const failing = (circuit?.consecutiveFailures ?? 0) > 0;
      const cap = failing ? policy.maxInFlightWhileFailing : policy.maxInFlight;
      const free = (slot: number) => {
        const expiry = leaseExpiry(item?.[slotAttribute(slot)]);
        return expiry === undefined || expiry < nowIso;
      };
      const candidates = Array.from({ length: cap }, (_, slot) => slot).filter(free);
      if (candidates.length === 0) return { kind: 'busy', failing };
      const mine = this.heldHere.get(partnerId) ?? new Set<number>();
      const slot = item
        ? (candidates[0] as number)
        : (candidates.find((c) => !mine.has(c)) ?? (candidates[0] as number));
      // Reserved here before the write, so a concurrent claim of this process tries another slot.
      const reserved = !mine.has(slot);
      this.heldHere.set(partnerId, mine.add(slot));
      const claimed = await this.tryUpdate(
        {
          UpdateExpression: 'SET #slot = :lease',
          ConditionExpression:
            'attribute_exists(pk) AND (attribute_not_exists(circuitState) OR circuitState = :closed) AND (attribute_not_exists(#slot) OR #slot < :now)' +
            // Slots past the failing cap only while the streak is clean.
            (slot >= policy.maxInFlightWhileFailing
              ? ' AND (attribute_not_exists(circuitFailures) OR circuitFailures = :zero)'
              : ''),
          ExpressionAttributeNames: { '#slot': slotAttribute(slot) },
          ExpressionAttributeValues: {
            ':lease': lease,
            ':closed': 'closed',
            ':now': nowIso,
            ...(slot >= policy.maxInFlightWhileFailing ? { ':zero': 0 } : {}),
          },
        },
        partnerId,
      );
      if (claimed) return { kind: 'admitted', ticket: { kind: 'slot', slot, lease, opens: 0, halfOpened: false } };
      if (reserved) mine.delete(slot);
    }
    // Lost every race: as good as busy.
    return { kind: 'busy', failing: false };
  }

  /**
   * A success closes the circuit (whatever state it was in: the endpoint answers) and
   * ends the failure count; a failure counts one more, opens a closed circuit at the
   * threshold, and opens a half-open one again (its probe failed) for longer. The ticket's
   * lease is removed in the same write when its holder still holds it.
   */
  async settle(
    partnerId: PartnerId,
    ticket: AdmissionTicket,
    { succeeded, at, policy }: { succeeded: boolean; at: Date; policy: FairnessPolicy },
  ): Promise<CircuitTransition | undefined> {
    const atIso = at.toISOString();
    if (ticket.kind === 'slot') this.heldHere.get(partnerId)?.delete(ticket.slot);
    if (succeeded) {
      const old = await this.releaseAnd(
        partnerId,
        ticket,
        {
          set: 'circuitState = :closed, circuitFailures = :zero',
          remove: [
            'circuitOpenedAt',
            'circuitRetryAt',
            'circuitOpens',
            ...(ticket.kind === 'probe' ? ['circuitProbe'] : []),
          ],
          values: { ':closed': 'closed', ':zero': 0 },
        },
        'ALL_OLD',
      );
      const wasOpen = old?.circuitState === 'open' || old?.circuitState === 'half-open';
      return wasOpen
        ? { to: 'closed', ...(typeof old?.circuitOpenedAt === 'string' ? { openedAt: old.circuitOpenedAt } : {}) }
        : undefined;
    }
    if (ticket.kind === 'probe') {
      const opens = ticket.opens + 1;
      const retryAt = new Date(at.getTime() + policy.openSeconds(opens) * 1000).toISOString();
      const reopened = await this.tryUpdate(
        {
          UpdateExpression:
            'SET circuitState = :open, circuitRetryAt = :retryAt, circuitOpens = :opens, circuitFailures = if_not_exists(circuitFailures, :zero) + :one REMOVE circuitProbe',
          ConditionExpression: 'circuitState = :halfOpen AND circuitProbe = :lease',
          ExpressionAttributeValues: {
            ':open': 'open',
            ':retryAt': retryAt,
            ':opens': opens,
            ':zero': 0,
            ':one': 1,
            ':halfOpen': 'half-open',
            ':lease': ticket.lease,
          },
        },
        partnerId,
      );
      return reopened ? { to: 'open', retryAt, probe: true } : undefined;
    }
    const updated = await this.releaseAnd(
      partnerId,
      ticket,
      {
        set: 'circuitFailures = if_not_exists(circuitFailures, :zero) + :one',
        remove: [],
        values: { ':zero': 0, ':one': 1 },
      },
      'ALL_NEW',
    );
    const failures = Number(updated?.circuitFailures ?? 0);
    if (failures < policy.failureThreshold) return undefined;
    const retryAt = new Date(at.getTime() + policy.openSeconds(1) * 1000).toISOString();
    const opened = await this.tryUpdate(
      {
        UpdateExpression:
          'SET circuitState = :open, circuitOpenedAt = :at, circuitRetryAt = :retryAt, circuitOpens = :one',
        ConditionExpression:
          'attribute_exists(pk) AND (attribute_not_exists(circuitState) OR circuitState = :closed) AND circuitFailures >= :threshold',
        ExpressionAttributeValues: {
          ':open': 'open',
          ':at': atIso,
          ':retryAt': retryAt,
          ':one': 1,
          ':closed': 'closed',
          ':threshold': policy.failureThreshold,
        },
      },
      partnerId,
    );
    return opened ? { to: 'open', retryAt, consecutiveFailures: failures, probe: false } : undefined;
  }

  /** One write of the circuit's change, removing the ticket's slot lease if its holder still holds it (otherwise the change alone). */
  private async releaseAnd(
    partnerId: PartnerId,
    ticket: AdmissionTicket,
    change: { set: string; remove: string[]; values: Record<string, unknown> },
    returnValues: 'ALL_OLD' | 'ALL_NEW',
  ): Promise<Record<string, unknown> | undefined> {
    const attempt = async (withSlot: boolean) => {
      const remove = [...change.remove, ...(withSlot ? ['#slot'] : [])];
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: partnerKeys.webhookEndpoint(partnerId),
          UpdateExpression: `SET ${change.set}${remove.length ? ` REMOVE ${remove.join(', ')}` : ''}`,
          ConditionExpression: `attribute_exists(pk)${withSlot ? ' AND #slot = :lease' : ''}`,
          ...(withSlot ? { ExpressionAttributeNames: { '#slot': slotAttribute(ticket.slot) } } : {}),
          ExpressionAttributeValues: { ...change.values, ...(withSlot ? { ':lease': ticket.lease } : {}) },
          ReturnValues: returnValues,
        }),
      );
      return Attributes;
    };
    try {
      return await attempt(ticket.kind === 'slot');
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    if (ticket.kind !== 'slot') return undefined;
    try {
      // The lease lapsed and was taken, or a `webhook set` rewrote the item: count the outcome anyway.
      return await attempt(false);
    } catch (error) {
      if (isConditionFailure(error)) return undefined; // the endpoint was removed
      throw error;
    }
  }

  private async tryUpdate(
    update: {
      UpdateExpression: string;
      ConditionExpression: string;
      ExpressionAttributeNames?: Record<string, string>;
      ExpressionAttributeValues: Record<string, unknown>;
    },
    partnerId: PartnerId,
  ): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({ TableName: this.table, Key: partnerKeys.webhookEndpoint(partnerId), ...update }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** A streak another handler already noted (or ended) is the same outcome. */
  private async conditionally(command: UpdateCommand): Promise<void> {
    try {
      await this.db.send(command);
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
}
