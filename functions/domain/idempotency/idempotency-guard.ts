import { createHash, randomUUID } from 'node:crypto';
import { canonicalJson } from '../canonical-json';
import type { Clock } from '../clock';
import { IdempotencyKeyInFlight, IdempotencyKeyReused } from '../errors';
import type { IdempotencyCompletion } from './idempotency-completion';
import { sameOutcome, type StoredOutcome } from './stored-outcome';

export interface IdempotencyRecord {
  /** Whose key it is (partner and endpoint): two partners' identical keys never meet. */
  readonly scope: string;
  readonly key: string;
  /** SHA-256 of the canonical request body: the same key with another body is refused. */
  readonly fingerprint: string;
  /** The request currently (or last) holding the key; only it may complete or release it. */
  readonly owner: string;
  readonly state: 'in-flight' | 'completed';
  readonly outcome?: StoredOutcome;
  /** 24 hours after first use; afterwards the key is free again. */
  readonly expiresAt: Date;
  /** While in flight: when a crashed holder's claim lapses, so the key is not stuck for a day. */
  readonly lockedUntil: Date;
}

/** Storage port for Idempotency-Key records. */
export interface IdempotencyStore {
  /**
   * Writes `record` unless a live record holds its key (not expired, and completed or
   * still locked at `now`). Returns undefined when written, else the live record (or
   * undefined in `holder` when it vanished between the two steps).
   */
  claim(
    record: IdempotencyRecord,
    now: Date,
  ): Promise<{ claimed: true } | { claimed: false; holder?: IdempotencyRecord }>;
  /** Stores the outcome if `owner` still holds the key; false when it no longer does. */
  complete(scope: string, key: string, owner: string, outcome: StoredOutcome): Promise<boolean>;
  /**
   * Frees the key if `owner` still holds it in flight; a key its owner completed (in the
   * guarded work's own transaction, which may have committed although its caller saw an
   * error) is never freed.
   */
  release(scope: string, key: string, owner: string): Promise<void>;
}

export type IdempotentAttempt =
  | { readonly kind: 'replay'; readonly outcome: StoredOutcome }
  | {
      readonly kind: 'first';
      /**
       * The completion with `outcome`, for the guarded work to write in its own
       * transaction. Once that transaction committed, `complete` with the same outcome has
       * nothing left to write.
       */
      completionWith(outcome: StoredOutcome): IdempotencyCompletion;
      /** Keeps the outcome for replays; false when the claim had lapsed and another request took over. */
      complete(outcome: StoredOutcome): Promise<boolean>;
      release(): Promise<void>;
    };

export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
/** Longer than the setup Lambda may run (20 s), so a live request never loses its claim. */
export const IDEMPOTENCY_LOCK_MS = 60 * 1000;
const CLAIM_ATTEMPTS = 3;

/**
 * Idempotency-Key semantics as Stripe has them: the first request with a key runs, later
 * ones with the same key and body replay its outcome for 24 hours, the same key with
 * another body is refused, and a key whose first request is still running answers
 * "in flight". Expiry is checked here, not left to the store's TTL (which DynamoDB
 * applies lazily, and DynamoDB Local not at all).
 */
export class IdempotencyGuard {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly clock: Clock,
    private readonly newOwner: () => string = randomUUID,
  ) {}

  async begin(scope: string, key: string, requestBody: unknown): Promise<IdempotentAttempt> {
    const fingerprint = createHash('sha256').update(canonicalJson(requestBody)).digest('hex');
    for (let attempt = 1; attempt <= CLAIM_ATTEMPTS; attempt += 1) {
      const now = this.clock.now();
      const owner = this.newOwner();
      const result = await this.store.claim(
        {
          scope,
          key,
          fingerprint,
          owner,
          state: 'in-flight',
          expiresAt: new Date(now.getTime() + IDEMPOTENCY_RETENTION_MS),
          lockedUntil: new Date(now.getTime() + IDEMPOTENCY_LOCK_MS),
        },
        now,
      );
      if (result.claimed) {
        let handedOut: StoredOutcome | undefined;
        return {
          kind: 'first',
          completionWith: (outcome) => {
            handedOut = outcome;
            return { scope, key, owner, outcome };
          },
          // The work answers the outcome it handed out only once its transaction (with the
          // completion) committed. Were that ever not so, the claim would lapse after
          // IDEMPOTENCY_LOCK_MS and a retry run again: the same as a crash, never a wrong replay.
          complete: async (outcome) =>
            handedOut !== undefined && sameOutcome(handedOut, outcome)
              ? true
              : this.store.complete(scope, key, owner, outcome),
          release: () => this.store.release(scope, key, owner),
        };
      }
      const { holder } = result;
      if (!holder) continue; // released between our write and our read: claim again
      if (holder.fingerprint !== fingerprint) {
        throw new IdempotencyKeyReused(
          'This Idempotency-Key was already used with a different request (another body, resource or action)',
        );
      }
      if (holder.state === 'completed' && holder.outcome) return { kind: 'replay', outcome: holder.outcome };
      throw new IdempotencyKeyInFlight('A request with this Idempotency-Key is still being processed; retry later');
    }
    throw new IdempotencyKeyInFlight('A request with this Idempotency-Key is still being processed; retry later');
  }
}
