/**
 * The conditional writes by which a delivery claims a slot of a partner's endpoint (fair
 * delivery, docs/webhooks.md): each condition is a rule of admission that must still hold
 * when the write lands, not only when the claim read the item.
 */
import type { FairnessPolicy } from '../../webhooks/endpoint-circuit';
import { slotAttribute } from './dynamodb-webhook-endpoint-items';

export const epochSecond = (at: Date) => Math.floor(at.getTime() / 1000);

/** What a slot claim adds for the operator's `maxRate`: the second's count, or `spent` when it is used up. */
export type RatePlan =
  { readonly conditions: string[]; readonly set: string; readonly values: Record<string, unknown> } | 'spent';

export function ratePlan(item: Record<string, unknown> | undefined, now: Date): RatePlan {
  // Unread, or no ceiling: the claim holds only while there is none (set since, it reads again).
  if (item?.maxRate === undefined) return { conditions: ['attribute_not_exists(maxRate)'], set: '', values: {} };
  const second = epochSecond(now);
  if (Number(item.rateSecond) === second) {
    if (Number(item.rateCount ?? 0) >= Number(item.maxRate)) return 'spent';
    return {
      conditions: ['rateSecond = :rateSecond', 'rateCount < maxRate'],
      set: ', rateCount = rateCount + :rateOne',
      values: { ':rateSecond': second, ':rateOne': 1 },
    };
  }
  return {
    conditions: ['maxRate > :rateZero', '(attribute_not_exists(rateSecond) OR rateSecond < :rateSecond)'],
    set: ', rateSecond = :rateSecond, rateCount = :rateOne',
    values: { ':rateSecond': second, ':rateOne': 1, ':rateZero': 0 },
  };
}

/** The UpdateItem (without table and key) that claims `slot` under a cap of `fullCap`. */
export function slotClaim(claim: {
  readonly slot: number;
  readonly fullCap: number;
  readonly policy: FairnessPolicy;
  readonly lease: string;
  readonly now: string;
  /** A lease expiring before this one began long enough ago to count as slow (slowAttemptMark). */
  readonly slowMark: string;
  readonly rate: Exclude<RatePlan, 'spent'>;
}) {
  const { slot, fullCap, policy, lease, now, slowMark, rate } = claim;
  const others =
    slot >= policy.initialInFlight
      ? Array.from({ length: fullCap }, (_, other) => other).filter((other) => other !== slot)
      : [];
  const conditions = [
    'attribute_exists(pk)',
    '(attribute_not_exists(circuitState) OR circuitState = :closed)',
    '(attribute_not_exists(#slot) OR #slot < :now)',
    '(attribute_not_exists(throttledUntil) OR throttledUntil <= :now)',
    // Under the endpoint's concurrency as stored now, not as this claim last read it.
    slot < policy.initialInFlight
      ? '(attribute_not_exists(concurrencyLimit) OR concurrencyLimit > :slotIndex)'
      : 'concurrencyLimit > :slotIndex',
    // Slots past the failing cap only while the streak is clean.
    ...(slot >= policy.maxInFlightWhileFailing
      ? ['(attribute_not_exists(circuitFailures) OR circuitFailures = :zero)']
      : []),
    // Slots past the first two only while no attempt is in flight past the endpoint's slowAfterMs.
    ...others.map((other) => `(attribute_not_exists(#s${other}) OR #s${other} < :now OR #s${other} > :slowMark)`),
    ...rate.conditions,
  ];
  return {
    ReturnValues: 'ALL_NEW' as const,
    UpdateExpression: `SET #slot = :lease${rate.set}`,
    ConditionExpression: conditions.join(' AND '),
    ExpressionAttributeNames: {
      '#slot': slotAttribute(slot),
      ...Object.fromEntries(others.map((other) => [`#s${other}`, slotAttribute(other)])),
    },
    ExpressionAttributeValues: {
      ':lease': lease,
      ':closed': 'closed',
      ':now': now,
      ':slotIndex': slot,
      ...(others.length ? { ':slowMark': slowMark } : {}),
      ...(slot >= policy.maxInFlightWhileFailing ? { ':zero': 0 } : {}),
      ...rate.values,
    },
  };
}
