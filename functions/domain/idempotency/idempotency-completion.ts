import type { StoredOutcome } from './stored-outcome';

/**
 * An Idempotency-Key's completion as a value: the outcome to keep for `owner`'s claim of
 * `key`. A repository writes it in the same transaction as the work the key guards
 * (conditional on `owner` still holding the claim in flight), so the work and the
 * outcome a retry replays commit together or not at all: a crash between them is
 * impossible rather than recovered from.
 */
export interface IdempotencyCompletion {
  readonly scope: string;
  readonly key: string;
  readonly owner: string;
  readonly outcome: StoredOutcome;
}
