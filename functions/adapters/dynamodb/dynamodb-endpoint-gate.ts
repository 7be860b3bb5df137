import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { PartnerId } from '../../domain/partners/partner';
import type {
  Admission,
  AdmissionTicket,
  CircuitTransition,
  EndpointGate,
  FairnessPolicy,
  SettledAttempt,
} from '../../webhooks/endpoint-circuit';
import {
  capWhileSlow,
  inFlightCap,
  nextConcurrency,
  nextLatencyBaseline,
  slowAttemptMark,
} from '../../webhooks/endpoint-circuit';
import { partnerKeys } from './dynamodb-partner-repository';
import { epochSecond, ratePlan, slotClaim } from './dynamodb-endpoint-claims';
import {
  circuitFromItem,
  IN_FLIGHT_PREFIX,
  isConditionFailure,
  leaseExpiry,
  leaseOf,
  slotAttribute,
} from './dynamodb-webhook-endpoint-items';

/** Claims that lose a race read the item again and try again this many times at most, then count as busy. */
const CLAIM_ROUNDS = 8;

/**
 * Admission to a partner's endpoint (fair delivery): the circuit and one lease per
 * in-flight slot are attributes of the endpoint's item, so each claim and each settle is
 * one conditional UpdateItem.
 */
export class DynamoEndpointGate implements EndpointGate {
  /**
   * Slots this process holds or is claiming, per endpoint, with their lease's expiry: a claim
   * never tries one of these while its lease holds.
   */
  private readonly heldHere = new Map<string, Map<number, string>>();
  /** Each endpoint's concurrency as this process last saw it: the first, unread claim picks a slot under it. */
  private readonly knownConcurrency = new Map<string, number>();
  /** Each endpoint's latency baseline as this process last saw it: the first, unread claim judges slow attempts in flight by it. */
  private readonly knownBaseline = new Map<string, number>();

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}
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
    for (let round = 0; round < CLAIM_ROUNDS; round += 1) {
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
            ReturnValues: 'ALL_NEW',
          },
          partnerId,
        );
        if (claimed)
          return {
            kind: 'admitted',
            ticket: {
              kind: 'probe',
              slot: -1,
              lease,
              opens: circuit.opens ?? 1,
              halfOpened: circuit.state === 'open',
              ...baselineOf(claimed),
            },
          };
        continue;
      }
      const failing = (circuit?.consecutiveFailures ?? 0) > 0;
      const throttledUntil = circuit?.throttledUntil;
      if (throttledUntil && throttledUntil > nowIso) return { kind: 'busy', failing, until: new Date(throttledUntil) };
      const rate = ratePlan(item, now);
      if (rate === 'spent') return { kind: 'busy', failing, until: new Date((epochSecond(now) + 1) * 1000) };
      if (item) this.remember(partnerId, item, policy);
      const slowMark = slowAttemptMark(leaseUntil, policy, this.knownBaseline.get(partnerId));
      const slowing =
        item !== undefined &&
        Object.entries(item).some(
          ([name, value]) =>
            name.startsWith(IN_FLIGHT_PREFIX) && typeof value === 'string' && value > nowIso && value < slowMark,
        );
      const fullCap = item
        ? inFlightCap(circuit, policy)
        : (this.knownConcurrency.get(partnerId) ?? policy.initialInFlight);
      const cap = slowing ? capWhileSlow(fullCap, policy) : fullCap;
      const mine = this.heldHere.get(partnerId) ?? new Map<number, string>();
      this.heldHere.set(partnerId, mine);
      // Free as last read, and not one this process holds or is claiming: a slot another claim of
      // this process is taking is not free, and trying it anyway only loses the race and reads again.
      const free = (slot: number) => {
        const expiry = leaseExpiry(item?.[slotAttribute(slot)]);
        const ours = mine.get(slot);
        return (expiry === undefined || expiry < nowIso) && (ours === undefined || ours < nowIso);
      };
      const slot = Array.from({ length: cap }, (_, index) => index).find(free);
      if (slot === undefined) {
        // Unread, the guess may be stale (the concurrency may have risen since): read before answering busy.
        if (!item) continue;
        return { kind: 'busy', failing };
      }
      // Reserved here before the write, so a concurrent claim of this process tries another slot.
      mine.set(slot, leaseUntil.toISOString());
      const claimed = await this.tryUpdate(
        slotClaim({ slot, fullCap, policy, lease, now: nowIso, slowMark, rate }),
        partnerId,
      );
      if (claimed) {
        // The claim's own write returns the concurrency it was made under: a settle at the ceiling then tries no raise.
        const concurrency = Number(claimed.concurrencyLimit ?? policy.initialInFlight);
        this.remember(partnerId, claimed, policy);
        return {
          kind: 'admitted',
          ticket: { kind: 'slot', slot, lease, opens: 0, halfOpened: false, concurrency, ...baselineOf(claimed) },
        };
      }
      mine.delete(slot);
    }
    // Lost every race: as good as busy.
    return { kind: 'busy', failing: false };
  }

  /** What a read or a claim's write said of the endpoint's concurrency and latency baseline. */
  private remember(partnerId: PartnerId, item: Record<string, unknown>, policy: FairnessPolicy): void {
    this.knownConcurrency.set(partnerId, inFlightCap(circuitFromItem(item), policy));
    const { latencyBaselineMs } = baselineOf(item);
    if (latencyBaselineMs === undefined) this.knownBaseline.delete(partnerId);
    else this.knownBaseline.set(partnerId, latencyBaselineMs);
  }

  /**
   * A success closes the circuit (whatever state it was in: the endpoint answers) and
   * ends the failure count, and its duration moves the latency baseline; a failure counts one more, opens a closed circuit at the
   * threshold, and opens a half-open one again (its probe failed) for longer. The ticket's
   * lease is removed in the same write when its holder still holds it.
   */
  async settle(
    partnerId: PartnerId,
    ticket: AdmissionTicket,
    { verdict, at, policy, throttledUntil, latencyMs }: SettledAttempt,
  ): Promise<CircuitTransition | undefined> {
    const atIso = at.toISOString();
    if (ticket.kind === 'slot') this.heldHere.get(partnerId)?.delete(ticket.slot);
    if (verdict !== 'failed') {
      // A fast answer raises the limit atomically (concurrent raises all count), up to the ceiling;
      // a slow one sets half the limit its claim saw; a probe's success restarts from one.
      const raise = ticket.kind === 'slot' && verdict === 'fast' && (ticket.concurrency ?? 0) < policy.maxInFlight;
      const limit =
        ticket.kind === 'probe'
          ? 1
          : verdict === 'slow'
            ? nextConcurrency(ticket.concurrency, 'slow', policy)
            : undefined;
      // From the baseline the claim read: concurrent settles each move it from there, the last write
      // standing. An average of answers loses a sample that way, never its footing; no condition to retry on.
      const baseline =
        latencyMs === undefined ? undefined : nextLatencyBaseline(ticket.latencyBaselineMs, latencyMs, policy);
      const old = await this.releaseAnd(
        partnerId,
        ticket,
        {
          set:
            'circuitState = :closed, circuitFailures = :zero' +
            (limit !== undefined ? ', concurrencyLimit = :limit' : '') +
            (baseline !== undefined ? ', latencyBaselineMs = :baseline' : ''),
          remove: [
            'circuitOpenedAt',
            'circuitRetryAt',
            'circuitOpens',
            ...(ticket.kind === 'probe' ? ['circuitProbe'] : []),
          ],
          values: {
            ':closed': 'closed',
            ':zero': 0,
            ...(limit !== undefined ? { ':limit': limit } : {}),
            ...(baseline !== undefined ? { ':baseline': baseline } : {}),
          },
          ...(raise
            ? {
                conditional: {
                  set: ', concurrencyLimit = if_not_exists(concurrencyLimit, :initial) + :one',
                  condition: '(attribute_not_exists(concurrencyLimit) OR concurrencyLimit < :max)',
                  values: { ':initial': policy.initialInFlight, ':one': 1, ':max': policy.maxInFlight },
                },
              }
            : {}),
        },
        'ALL_OLD',
      );
      const wasOpen = old?.circuitState === 'open' || old?.circuitState === 'half-open';
      return wasOpen
        ? { to: 'closed', ...(typeof old?.circuitOpenedAt === 'string' ? { openedAt: old.circuitOpenedAt } : {}) }
        : undefined;
    }
    // Any failure: back to one attempt at a time; a 429 or 503 with Retry-After also holds the endpoint back.
    const failedChange = {
      set: ', concurrencyLimit = :one' + (throttledUntil ? ', throttledUntil = :throttledUntil' : ''),
      values: throttledUntil ? { ':throttledUntil': throttledUntil.toISOString() } : {},
    };
    if (ticket.kind === 'probe') {
      const opens = ticket.opens + 1;
      const retryAt = new Date(at.getTime() + policy.openSeconds(opens) * 1000).toISOString();
      const reopened = await this.tryUpdate(
        {
          UpdateExpression: `SET circuitState = :open, circuitRetryAt = :retryAt, circuitOpens = :opens, circuitFailures = if_not_exists(circuitFailures, :zero) + :one${failedChange.set} REMOVE circuitProbe`,
          ConditionExpression: 'circuitState = :halfOpen AND circuitProbe = :lease',
          ExpressionAttributeValues: {
            ':open': 'open',
            ':retryAt': retryAt,
            ':opens': opens,
            ':zero': 0,
            ':one': 1,
            ':halfOpen': 'half-open',
            ':lease': ticket.lease,
            ...failedChange.values,
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
        set: `circuitFailures = if_not_exists(circuitFailures, :zero) + :one${failedChange.set}`,
        remove: [],
        values: { ':zero': 0, ':one': 1, ...failedChange.values },
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

  /** Removes the ticket's lease (the slot's, or the probe's) if its holder still holds it; nothing counted. */
  async release(partnerId: PartnerId, ticket: AdmissionTicket): Promise<void> {
    if (ticket.kind === 'slot') this.heldHere.get(partnerId)?.delete(ticket.slot);
    const leaseName = ticket.kind === 'slot' ? slotAttribute(ticket.slot) : 'circuitProbe';
    await this.tryUpdate(
      {
        UpdateExpression: 'REMOVE #lease',
        ConditionExpression: '#lease = :lease',
        ExpressionAttributeNames: { '#lease': leaseName },
        ExpressionAttributeValues: { ':lease': ticket.lease },
      },
      partnerId,
    );
  }

  /** One write of the circuit's change, removing the ticket's slot lease if its holder still holds it (otherwise the change alone). */
  private async releaseAnd(
    partnerId: PartnerId,
    ticket: AdmissionTicket,
    change: {
      set: string;
      remove: string[];
      values: Record<string, unknown>;
      /** A part of the change with a condition of its own (a raise below the ceiling): when that fails, the rest is written alone. */
      conditional?: { set: string; condition: string; values: Record<string, unknown> };
    },
    returnValues: 'ALL_OLD' | 'ALL_NEW',
  ): Promise<Record<string, unknown> | undefined> {
    const attempt = async (withSlot: boolean, whole: boolean) => {
      const remove = [...change.remove, ...(withSlot ? ['#slot'] : [])];
      const part = whole ? change.conditional : undefined;
      const set = `${change.set}${part?.set ?? ''}`;
      const values = { ...change.values, ...part?.values };
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: partnerKeys.webhookEndpoint(partnerId),
          UpdateExpression: `SET ${set}${remove.length ? ` REMOVE ${remove.join(', ')}` : ''}`,
          ConditionExpression: `attribute_exists(pk)${withSlot ? ' AND #slot = :lease' : ''}${part ? ` AND ${part.condition}` : ''}`,
          ...(withSlot ? { ExpressionAttributeNames: { '#slot': slotAttribute(ticket.slot) } } : {}),
          ExpressionAttributeValues: { ...values, ...(withSlot ? { ':lease': ticket.lease } : {}) },
          ReturnValues: returnValues,
        }),
      );
      return Attributes;
    };
    // The whole change with the slot's release; then without the conditional part (at the ceiling);
    // then without the release (the lease lapsed and was taken, or a `webhook set` rewrote the item).
    const tries: [boolean, boolean][] = [[ticket.kind === 'slot', true]];
    if (change.conditional) tries.push([ticket.kind === 'slot', false]);
    if (ticket.kind === 'slot') tries.push([false, false]);
    for (const [withSlot, whole] of tries) {
      try {
        return await attempt(withSlot, whole);
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    }
    return undefined; // the endpoint was removed
  }

  /** The item after the write (its attributes when `ReturnValues` asks for them), or undefined when the condition failed. */
  private async tryUpdate(
    update: {
      UpdateExpression: string;
      ConditionExpression: string;
      ExpressionAttributeNames?: Record<string, string>;
      ExpressionAttributeValues: Record<string, unknown>;
      ReturnValues?: 'ALL_NEW';
    },
    partnerId: PartnerId,
  ): Promise<Record<string, unknown> | undefined> {
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({ TableName: this.table, Key: partnerKeys.webhookEndpoint(partnerId), ...update }),
      );
      return Attributes ?? {};
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }
}

const baselineOf = (item: Record<string, unknown>): { latencyBaselineMs?: number } =>
  item.latencyBaselineMs === undefined ? {} : { latencyBaselineMs: Number(item.latencyBaselineMs) };
