/**
 * The failures the service reports: one family, whether a use case or a repository
 * raised it. They say what went wrong, never which HTTP status it becomes:
 * `functions/error-outcomes.ts` says, in one table, what each becomes on the API and in the
 * embedded module.
 *
 * Each class sets `name` as a string literal (as stripe-node's errors do): bundles are
 * minified, so a name taken from the constructor would become `w` in the logs. A failure
 * caught on the way (an AWS error, say) travels on as `cause`.
 */
import type { Profile } from './organizations/organization';
import type { ValidationIssue } from './validation';
import type { LimitReason } from './orders/monthly-spend';

export abstract class DomainError extends Error {
  abstract override readonly name: string;
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

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

export class ProfileNotFound extends DomainError {
  override readonly name = 'ProfileNotFound';
}

/** The profile has no (or a disabled) identity-provider user. */
export class ProfileNotLinked extends DomainError {
  override readonly name = 'ProfileNotLinked';
}

export class UserAlreadyExists extends DomainError {
  override readonly name = 'UserAlreadyExists';
  constructor(
    readonly profileId: string,
    readonly email: string,
    options?: ErrorOptions,
  ) {
    super('A profile with this internalUserId already exists in the organization', options);
  }
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
 * The embed host refuses the browser: a handshake link that is used, expired, unknown or
 * for another partner (`link`), a missing, ended, expired or other partner's session
 * cookie (`session`), or a state-changing request from another site (`foreign-origin`).
 * The browser is never told which.
 */
export class EmbedAccessDenied extends DomainError {
  override readonly name = 'EmbedAccessDenied';
  constructor(
    readonly refused: 'link' | 'session' | 'foreign-origin',
    reason: string,
  ) {
    super(reason);
  }
}

/**
 * A state-changing request of the embedded module that may not come from the module's
 * own pages: from another site (`foreign-origin`), or without the session's form token
 * (`missing-token`) or with another one (`wrong-token`). Nothing is changed.
 */
export class RequestForgeryRefused extends DomainError {
  override readonly name = 'RequestForgeryRefused';
  constructor(readonly refused: 'foreign-origin' | 'missing-token' | 'wrong-token') {
    super(`form post refused: ${refused}`);
  }
}

/**
 * A form post of the embedded module larger than any of its forms: more than `maxBytes`
 * bytes of body or `maxFields` fields. Refused before it is parsed further; nothing is changed.
 */
export class FormTooLarge extends DomainError {
  override readonly name = 'FormTooLarge';
  constructor(
    readonly exceeded: 'bytes' | 'fields',
    readonly limit: number,
  ) {
    super(`form post refused: more than ${limit} ${exceeded}`);
  }
}

/** An order event names an organization (partner_org_id) the partner does not have. */
export class OrganizationNotFound extends DomainError {
  override readonly name = 'OrganizationNotFound';
  constructor(
    readonly partnerId: string,
    readonly internalOrgId: string,
  ) {
    super(`Partner ${partnerId} has no organization with internalOrgId "${internalOrgId}"`);
  }
}

/**
 * Another writer changed the record between our read and our conditional write (e.g.
 * added the same shipping location, or is queueing the same delivery); re-read and try
 * again.
 */
export class ConcurrentModification extends DomainError {
  override readonly name = 'ConcurrentModification';
}

/** The organization already existed when we tried to create it (a concurrent or earlier setup). */
export class OrganizationAlreadyExists extends DomainError {
  override readonly name = 'OrganizationAlreadyExists';
}

/** The profile's internalUserId is taken in the organization; `existing` is the one that holds it. */
export class ProfileAlreadyExists extends DomainError {
  override readonly name = 'ProfileAlreadyExists';
  constructor(
    readonly existing: Profile,
    options?: ErrorOptions,
  ) {
    super('Profile already exists', options);
  }
}

/** Setup lost this many races in a row for one organization: something is wrong, so it answers 500. */
export class SetupContention extends DomainError {
  override readonly name = 'SetupContention';
}

/**
 * The order's status does not allow the change asked for (DESIGN "Order lifecycle"),
 * e.g. shipping a pending order or cancelling a shipped one. Mapped to 409
 * `INVALID_ORDER_TRANSITION`.
 */
export class InvalidOrderTransition extends DomainError {
  override readonly name = 'InvalidOrderTransition';
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
  override readonly name = 'OrderNotFound';
  constructor(readonly orderId: string) {
    super(`No order ${orderId}`);
  }
}

/** An order was placed from a cart with nothing in it. */
export class EmptyCart extends DomainError {
  override readonly name = 'EmptyCart';
  constructor() {
    super('The cart is empty');
  }
}

/** Products that are unknown or inactive were added to a cart, or are still in one at checkout. */
export class ProductUnavailable extends DomainError {
  override readonly name = 'ProductUnavailable';
  constructor(readonly productIds: readonly string[]) {
    super(`Not available: ${productIds.join(', ')}`);
  }
}

/** No product with this id on sale: unknown, or inactive (a product page is only for what can be bought). */
export class ProductNotFound extends DomainError {
  override readonly name = 'ProductNotFound';
  constructor(readonly productId: string) {
    super('No such product on sale');
  }
}

/**
 * The shipping location asked for is not an active location of the organization, or none
 * was asked for and the organization has no active default location.
 */
export class ShippingLocationUnavailable extends DomainError {
  override readonly name = 'ShippingLocationUnavailable';
  constructor(readonly shippingLocationId: string | undefined) {
    super(
      shippingLocationId === undefined
        ? 'The organization has no active default shipping location; choose one'
        : `Shipping location ${shippingLocationId} is not an active location of the organization`,
    );
  }
}

/** An operator command that needs the webhook endpoint in another status (resume of a disabled endpoint, ...). */
export class WebhookEndpointStatusConflict extends DomainError {
  override readonly name = 'WebhookEndpointStatusConflict';
}

/** A webhook test event was asked for, but the partner has no webhook endpoint to send it to. */
export class WebhookEndpointNotConfigured extends DomainError {
  override readonly name = 'WebhookEndpointNotConfigured';
}

/** A webhook test event of a kind the partner's endpoint is not subscribed to: the fan-out would drop it. */
export class WebhookEventNotSubscribed extends DomainError {
  override readonly name = 'WebhookEventNotSubscribed';
  constructor(
    readonly event: string,
    readonly subscribed: readonly string[],
  ) {
    super(`Your webhook endpoint is not subscribed to ${event}; it receives ${subscribed.join(', ')}`);
  }
}

/** No shipping location with this internalShippingLocationId in the partner's organization. */
export class ShippingLocationNotFound extends DomainError {
  override readonly name = 'ShippingLocationNotFound';
  constructor(readonly internalShippingLocationId: string) {
    super(`No shipping location with internalShippingLocationId "${internalShippingLocationId}" in the organization`);
  }
}

/** A location added with an internalShippingLocationId the organization already has. */
export class ShippingLocationAlreadyExists extends DomainError {
  override readonly name = 'ShippingLocationAlreadyExists';
  constructor(
    readonly internalShippingLocationId: string,
    options?: ErrorOptions,
  ) {
    super(
      `The organization already has a shipping location with internalShippingLocationId "${internalShippingLocationId}"`,
      options,
    );
  }
}

/** No delivery with this id among the partner's own (another partner's is not told apart from none). */
export class DeliveryNotFound extends DomainError {
  override readonly name = 'DeliveryNotFound';
  constructor(readonly deliveryId: string) {
    super(`No delivery ${deliveryId}`);
  }
}

/** A retry of a delivery that is still pending: an attempt is queued, waiting for its time, or held. */
export class DeliveryInFlight extends DomainError {
  override readonly name = 'DeliveryInFlight';
  constructor(readonly deliveryId: string) {
    super(
      `Delivery ${deliveryId} is still pending (an attempt is queued or held); retry it once it is delivered or failed`,
    );
  }
}

/** A partner read its webhook endpoint, and has none. */
export class WebhookEndpointNotFound extends DomainError {
  override readonly name = 'WebhookEndpointNotFound';
  constructor() {
    super('You have no webhook endpoint; ask the operator to set one up');
  }
}

/**
 * An order-guide line changed (or was removed) by someone else after the page that
 * asked for this change was shown: nothing was changed, so no one's edit is lost.
 */
export class OrderGuideChanged extends DomainError {
  override readonly name = 'OrderGuideChanged';
  constructor(
    readonly productId: string,
    options?: ErrorOptions,
  ) {
    super(`The order guide line of ${productId} changed meanwhile`, options);
  }
}

/**
 * An order above the user's order limit, or one that would take the user's placed total
 * for the month above their monthly limit, was to be placed: it needs an approver's
 * decision (the module offers "Submit for approval" instead). Nothing was ordered.
 */
export class ApprovalRequired extends DomainError {
  override readonly name = 'ApprovalRequired';
  constructor(
    readonly totalCents: number,
    readonly limitCents: number,
    readonly reason: LimitReason = 'order_limit',
    /** What the user's orders already total this month, for `monthly_limit`. */
    readonly spentCents?: number,
  ) {
    super(
      reason === 'order_limit'
        ? `The order's total (${totalCents} cents) is above the user's order limit (${limitCents} cents)`
        : `The order's total (${totalCents} cents) would take the month's orders above the user's monthly limit (${limitCents} cents)`,
    );
  }
}

/**
 * The month's total of a user's orders would pass their monthly limit (a parallel order
 * took the room first): the order's transaction wrote nothing.
 */
export class MonthlyLimitReached extends DomainError {
  override readonly name = 'MonthlyLimitReached';
}

/** No approval request with this id that the user may see (another organization's, or another requester's for a buyer). */
export class ApprovalNotFound extends DomainError {
  override readonly name = 'ApprovalNotFound';
  constructor(readonly requestId: string) {
    super(`No approval request ${requestId}`);
  }
}

/**
 * A decision or withdrawal of a request that is no longer waiting: someone decided it
 * first (another approver, the requester withdrawing), or it expired. Says what became of
 * it; nothing was changed.
 */
export class ApprovalNotPending extends DomainError {
  override readonly name = 'ApprovalNotPending';
  constructor(
    readonly requestId: string,
    readonly status: 'approved' | 'rejected' | 'expired' | 'withdrawn',
    /** Who decided it, when an approver did. */
    readonly decidedBy?: string,
  ) {
    super(`Approval request ${requestId} is ${status}${decidedBy ? ` (by ${decidedBy})` : ''}`);
  }
}

/** An approver tried to approve or reject their own request: another approver must decide it. */
export class SelfApprovalForbidden extends DomainError {
  override readonly name = 'SelfApprovalForbidden';
  constructor(readonly requestId: string) {
    super(`Approval request ${requestId} is the approver's own`);
  }
}

/** A user who is not an approver tried to decide a request, or someone other than its requester to withdraw it. */
export class ApprovalForbidden extends DomainError {
  override readonly name = 'ApprovalForbidden';
  constructor(
    readonly requestId: string,
    readonly refused: 'not-approver' | 'not-requester',
  ) {
    super(
      refused === 'not-approver'
        ? `Only approvers decide approval requests (${requestId})`
        : `Only its requester withdraws approval request ${requestId}`,
    );
  }
}

/**
 * An approval that would place an order the requester could not place now: the request's
 * shipping location is no longer active, or the requester was deactivated or removed.
 * Nothing was ordered; the request still waits (reject it, or let it expire).
 */
export class ApprovalCannotBePlaced extends DomainError {
  override readonly name = 'ApprovalCannotBePlaced';
  constructor(
    readonly requestId: string,
    readonly refused: 'location-unavailable' | 'requester-inactive',
  ) {
    super(
      refused === 'location-unavailable'
        ? `Approval request ${requestId} ships to a location that is no longer active`
        : `The requester of approval request ${requestId} can no longer order`,
    );
  }
}
