import type { IdempotencyRecord, IdempotencyStore, StoredOutcome } from '../../../functions/domain/idempotency/idempotency-guard';

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
    const holder = this.records.get(`${scope}#${key}`);
    if (holder?.owner !== owner) return false;
    this.records.set(`${scope}#${key}`, { ...holder, state: 'completed', outcome });
    return true;
  }

  async release(scope: string, key: string, owner: string) {
    if (this.records.get(`${scope}#${key}`)?.owner === owner) this.records.delete(`${scope}#${key}`);
  }
}
