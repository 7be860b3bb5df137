/**
 * What a failed call rejects with, modelled on stripe-node's error classes: one base
 * class with a stable shape, one subclass per kind of failure, and names given as
 * literals so they survive a minifier.
 */

/** One problem of an invalid request: a stable `code`, a sentence, and the field's `path`. */
export interface ErrorDetail {
  readonly code: string;
  readonly message: string;
  readonly path: readonly string[];
}

export interface PartnerErrorFields {
  readonly message: string;
  /** HTTP status; absent when no response arrived. */
  readonly status?: number;
  /** The API's machine code (`VALIDATION_ERROR`, `USER_ALREADY_EXISTS`, …) where the body has one. */
  readonly code?: string;
  /** The `Request-Id` header: quote it when asking about a request. */
  readonly requestId?: string;
  /** The problems listed in the body's `details`, when it lists any. */
  readonly details?: readonly ErrorDetail[];
  /** The parsed response body, as the API sent it. */
  readonly body?: unknown;
  readonly headers?: Headers;
  readonly cause?: unknown;
}

export class PartnerError extends Error {
  override readonly name: string = 'PartnerError';
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly requestId: string | undefined;
  readonly details: readonly ErrorDetail[];
  readonly body: unknown;
  readonly headers: Headers | undefined;

  constructor(fields: PartnerErrorFields) {
    super(fields.message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.status = fields.status;
    this.code = fields.code;
    this.requestId = fields.requestId;
    this.details = fields.details ?? [];
    this.body = fields.body;
    this.headers = fields.headers;
  }
}

/** 400: the request is invalid; `details` lists every problem. */
export class PartnerInvalidRequestError extends PartnerError {
  override readonly name = 'PartnerInvalidRequestError';
}

/** 401: no usable API key (missing, unknown, revoked, other environment, wrong header). */
export class PartnerAuthenticationError extends PartnerError {
  override readonly name = 'PartnerAuthenticationError';
}

/** 403: the key lacks the route's scope, or the resource is another partner's. */
export class PartnerPermissionError extends PartnerError {
  override readonly name = 'PartnerPermissionError';
}

/** 404: no such resource of yours. */
export class PartnerNotFoundError extends PartnerError {
  override readonly name = 'PartnerNotFoundError';
}

/** 409: conflicts with the current state (`USER_ALREADY_EXISTS`, `IDEMPOTENCY_KEY_IN_USE`, `INVALID_ORDER_TRANSITION`, `APPROVAL_NOT_PENDING`: `body.data` says what became of the request). */
export class PartnerConflictError extends PartnerError {
  override readonly name = 'PartnerConflictError';
}

/** 429 after the retries ran out; `retryAfterSeconds` is the API's `retry_after`. */
export class PartnerRateLimitError extends PartnerError {
  override readonly name = 'PartnerRateLimitError';
  readonly retryAfterSeconds: number | undefined;

  constructor(fields: PartnerErrorFields & { readonly retryAfterSeconds?: number }) {
    super(fields);
    this.retryAfterSeconds = fields.retryAfterSeconds;
  }
}

/** 5xx (or any other unexpected status) after the retries ran out. */
export class PartnerApiError extends PartnerError {
  override readonly name = 'PartnerApiError';
}

/** No response: the connection failed. */
export class PartnerConnectionError extends PartnerError {
  override readonly name: string = 'PartnerConnectionError';
}

/** No response within `timeoutMs`. */
export class PartnerTimeoutError extends PartnerConnectionError {
  override readonly name = 'PartnerTimeoutError';
}

/** A webhook whose signature does not verify (or whose body is not an order event). */
export class PartnerSignatureVerificationError extends PartnerError {
  override readonly name = 'PartnerSignatureVerificationError';
}
