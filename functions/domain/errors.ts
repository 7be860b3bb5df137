/**
 * The failures the domain can report. They say what went wrong, never which HTTP
 * status it becomes: `functions/http/error-responses.ts` maps them to the contract's
 * bodies per endpoint, in one place.
 */
import type { ValidationIssue } from './validation';

export abstract class DomainError extends Error {
  abstract readonly kind: string;
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** The request body (or a header the domain reads) breaks the contract's rules. */
export class ValidationFailed extends DomainError {
  readonly kind = 'validation-failed';
  constructor(readonly issues: readonly ValidationIssue[], message = 'The request is invalid') {
    super(message);
  }
}

/** No usable credential: missing, unknown, revoked, wrong environment or wrong header. */
export class Unauthorized extends DomainError {
  readonly kind = 'unauthorized';
}

/** A valid credential that may not do this: missing scope or another partner's resource. */
export class Forbidden extends DomainError {
  readonly kind = 'forbidden';
}

export class RateLimited extends DomainError {
  readonly kind = 'rate-limited';
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

export class ProfileNotFound extends DomainError {
  readonly kind = 'profile-not-found';
}

/** The profile has no (or a disabled) identity-provider user. */
export class ProfileNotLinked extends DomainError {
  readonly kind = 'profile-not-linked';
}

export class UserAlreadyExists extends DomainError {
  readonly kind = 'user-already-exists';
  constructor(readonly profileId: string, readonly email: string) {
    super('A profile with this internalUserId already exists in the organization');
  }
}

/** An Idempotency-Key was reused with a different request body. */
export class IdempotencyKeyReused extends DomainError {
  readonly kind = 'idempotency-key-reused';
}

/** A request with the same Idempotency-Key is still being processed. */
export class IdempotencyKeyInFlight extends DomainError {
  readonly kind = 'idempotency-key-in-flight';
}

/** A resource the operator CLI was pointed at does not exist. */
export class NotFound extends DomainError {
  readonly kind = 'not-found';
}

/**
 * The embed host refuses the browser: a handshake link that is used, expired, unknown or
 * for another partner (`link`), a missing, ended, expired or other partner's session
 * cookie (`session`), or a state-changing request from another site (`foreign-origin`).
 * The browser is never told which.
 */
export class EmbedAccessDenied extends DomainError {
  readonly kind = 'embed-access-denied';
  constructor(
    readonly refused: 'link' | 'session' | 'foreign-origin',
    reason: string,
  ) {
    super(reason);
  }
}

/** An order event names an organization (partner_org_id) the partner does not have. */
export class OrganizationNotFound extends DomainError {
  readonly kind = 'organization-not-found';
  constructor(readonly partnerId: string, readonly internalOrgId: string) {
    super(`Partner ${partnerId} has no organization with internalOrgId "${internalOrgId}"`);
  }
}

/** The record changed between our read and our conditional write; the caller may try again. */
export class ConcurrentUpdate extends DomainError {
  readonly kind = 'concurrent-update';
}

/**
 * The order's status does not allow the change asked for (DESIGN "Order lifecycle"),
 * e.g. shipping a pending order or cancelling a shipped one. Mapped to 409
 * `INVALID_ORDER_TRANSITION`.
 */
export class InvalidOrderTransition extends DomainError {
  readonly kind = 'invalid-order-transition';
  constructor(
    readonly orderId: string,
    /** The order's status when the change was refused. */
    readonly from: string,
    /** The status the change would have led to. */
    readonly to: string,
  ) {
    super(`Order ${orderId} is ${from}; it cannot become ${to}`);
  }
}

/** No order with this id, or one outside the caller's organization (which it is not told about). */
export class OrderNotFound extends DomainError {
  readonly kind = 'order-not-found';
  constructor(readonly orderId: string) {
    super(`No order ${orderId}`);
  }
}

/** An order was placed from a cart with nothing in it. */
export class EmptyCart extends DomainError {
  readonly kind = 'empty-cart';
  constructor() {
    super('The cart is empty');
  }
}

/** Products that are unknown or inactive were added to a cart, or are still in one at checkout. */
export class ProductUnavailable extends DomainError {
  readonly kind = 'product-unavailable';
  constructor(readonly productIds: readonly string[]) {
    super(`Not available: ${productIds.join(', ')}`);
  }
}

/**
 * The shipping location asked for is not an active location of the organization, or none
 * was asked for and the organization has no active default location.
 */
export class ShippingLocationUnavailable extends DomainError {
  readonly kind = 'shipping-location-unavailable';
  constructor(readonly shippingLocationId: string | undefined) {
    super(
      shippingLocationId === undefined
        ? 'The organization has no active default shipping location; choose one'
        : `Shipping location ${shippingLocationId} is not an active location of the organization`,
    );
  }
}
