/** The request's own failures: its shape, its credential, its limit, its Idempotency-Key, a race it lost. */
import { DomainError } from './domain-error';
import type { ValidationIssue } from '../validation';

/** The request body (or a header the domain reads) breaks the contract's rules. */
export class ValidationFailed extends DomainError {
  override readonly name = 'ValidationFailed';
  constructor(
    readonly issues: readonly ValidationIssue[],
    message = 'The request is invalid',
  ) {
    super(message);
  }
}

/**
 * No usable credential: missing, unknown, revoked, wrong environment or wrong header.
 * `message` is what the caller reads; `reason` is what the request log records. A
 * problem with the header's shape (wrong header, both, one twice) is told, since it
 * reveals nothing about keys; every problem with the key itself shares
 * {@link INVALID_API_KEY_MESSAGE}, so the answer cannot be used to tell a revoked or
 * other-environment key from one that never existed.
 */
export class Unauthorized extends DomainError {
  override readonly name = 'Unauthorized';
  constructor(
    message: string,
    readonly reason: string = message,
  ) {
    super(message);
  }
}

/** The one message of every 401 about the key itself (missing, malformed, unknown, revoked, other environment). */
export const INVALID_API_KEY_MESSAGE = 'Invalid or missing API key';

/** A valid credential that may not do this: missing scope or another partner's resource. */
export class Forbidden extends DomainError {
  override readonly name = 'Forbidden';
}

export class RateLimited extends DomainError {
  override readonly name = 'RateLimited';
  constructor(readonly limit: RateLimitState) {
    super('Rate limit exceeded');
  }
}

export interface RateLimitState {
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the current window ends. */
  readonly resetSeconds: number;
}

/** An Idempotency-Key was reused with a different request body. */
export class IdempotencyKeyReused extends DomainError {
  override readonly name = 'IdempotencyKeyReused';
}

/** A request with the same Idempotency-Key is still being processed. */
export class IdempotencyKeyInFlight extends DomainError {
  override readonly name = 'IdempotencyKeyInFlight';
}

/** A resource the operator CLI was pointed at does not exist. */
export class NotFound extends DomainError {
  override readonly name = 'NotFound';
}

/**
 * Another writer changed the record between our read and our conditional write (e.g.
 * added the same shipping location, or is queueing the same delivery); re-read and try
 * again.
 */
export class ConcurrentModification extends DomainError {
  override readonly name = 'ConcurrentModification';
}
