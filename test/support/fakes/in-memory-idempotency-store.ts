import type { IdempotencyCompletion } from '../../../functions/domain/idempotency/idempotency-completion';
import type { IdempotencyRecord, IdempotencyStore } from '../../../functions/domain/idempotency/idempotency-guard';
import type { StoredOutcome } from '../../../functions/domain/idempotency/stored-outcome';

/** IdempotencyStore in a Map, with the DynamoDB adapter's claim condition (not expired, and completed or still locked). */
export class InMemoryIdempotencyStore implements IdempotencyStore {
  readonly records = new Map<string, IdempotencyRecord>();
  /** How many of the next refused claims find the holder gone: it released the key between our write and our read. */
  vanishingHolders = 0;

  async claim(record: IdempotencyRecord, now: Date) {
    const id = `${record.scope}#${record.key}`;
    const holder = this.records.get(id);
    const live = holder && holder.expiresAt > now && (holder.state === 'completed' || holder.lockedUntil > now);
    if (!live) {
      this.records.set(id, record);
      return { claimed: true as const };
    }
    if (this.vanishingHolders > 0) {
      this.vanishingHolders -= 1;
      this.records.delete(id);
      return { claimed: false as const };
    }
    return { claimed: false as const, holder };
  }

  async complete(scope: string, key: string, owner: string, outcome: StoredOutcome) {
    return this.completeNow({ scope, key, owner, outcome });
  }

  /** The completion condition (owner holds it in flight), for a fake repository's transaction too. */
  completeNow(completion: IdempotencyCompletion): boolean {
    const id = `${completion.scope}#${completion.key}`;
    const holder = this.records.get(id);
    if (holder?.owner !== completion.owner || holder.state !== 'in-flight') return false;
    this.records.set(id, { ...holder, state: 'completed', outcome: completion.outcome });
    return true;
  }

  async release(scope: string, key: string, owner: string) {
    const holder = this.records.get(`${scope}#${key}`);
    if (holder?.owner === owner && holder.state === 'in-flight') this.records.delete(`${scope}#${key}`);
  }
}
