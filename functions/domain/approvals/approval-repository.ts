import type { IdempotencyCompletion } from '../idempotency/idempotency-completion';
import type { Cart, CartLine } from '../orders/cart';
import type { MonthSpendCharge } from '../spending/monthly-spend';
import type { Order } from '../orders/order';
import type { OrganizationId, ProfileId } from '../organizations/organization';
import type { OrderEventMessage } from '../events/order-event-message';
import type { ApprovalRequest, ApprovalRequestId, ApprovalStatus } from './approval-request';

export const DEFAULT_APPROVAL_PAGE_SIZE = 20;
export const MAX_APPROVAL_PAGE_SIZE = 100;

export interface ApprovalListQuery {
  readonly limit: number;
  /** `nextCursor` of the previous page, as given; a malformed one or another organization's throws ValidationFailed on `cursor`. */
  readonly cursor?: string;
  /** Only requests in this status as of `now` (a pending one past its expiry is expired). */
  readonly status?: ApprovalStatus;
  /** Only this requester's. */
  readonly profileId?: ProfileId;
  /** Only requests made at or after this ISO 8601 time. */
  readonly since?: string;
  /** The page starts after this request, which must be of the same organization (else ValidationFailed on `starting_after`). */
  readonly startingAfter?: string;
  readonly now: Date;
}

export interface ApprovalPage {
  /** Newest first, as stored (the service applies `asOf`). */
  readonly requests: ApprovalRequest[];
  /** Present when more follow: pass it as the next request's `cursor`. Opaque. */
  readonly nextCursor?: string;
}

/** A state change of a pending request, written only if the stored request is still pending at `expectedVersion`. */
/** Who places an approved order and where it ships, by the keys the organization stores them under. */
export interface PlaceableCondition {
  readonly partnerId: string;
  readonly internalOrgId: string;
  readonly internalUserId: string;
  readonly internalShippingLocationId: string;
}

export interface ApprovalChange {
  readonly request: ApprovalRequest;
  readonly expectedVersion: number;
  /** Its approval.decided event, written in the same transaction. */
  readonly event: OrderEventMessage;
  /**
   * A sandbox decision's Idempotency-Key completion, written in the same transaction, so a
   * decision that committed is never retried into 409 APPROVAL_NOT_PENDING. A claim that
   * lapsed meanwhile (another request holds the key) writes nothing: IdempotencyKeyInFlight.
   */
  readonly completion?: IdempotencyCompletion;
}

/**
 * Storage port for approval requests. Every write is one transaction with the change's
 * webhook event(s) in the outbox and, where the change touches them, the cart lines or
 * the order, so no request exists without its event, no order without its request
 * approved, and no cart line is consumed or returned without the request's change. A
 * change of a request that is no longer pending at the expected version (someone decided
 * it first) writes nothing and throws ConcurrentModification.
 */
export interface ApprovalRepository {
  /**
   * Writes a new request with its approval.requested event and removes exactly the cart
   * lines it was priced from (each only if its quantity is still the one priced); a
   * request of given items (no `consumedCart`) touches no cart. A request with
   * `resubmittedFrom` also marks that request `resubmittedBy` it, only if no other request
   * did first (else ConcurrentModification, nothing written).
   */
  submit(request: ApprovalRequest, event: OrderEventMessage, consumedCart?: Cart): Promise<void>;
  /**
   * The request becomes approved and the order (with its order.created event) is placed
   * and added to its requester's month total (`spend`, never refused), in one transaction.
   */
  approve(
    change: ApprovalChange & {
      readonly order: Order;
      readonly orderEvent: OrderEventMessage;
      /** Conditions of the same transaction: the requester can still sign in and the location is still active. */
      readonly placeable: PlaceableCondition;
      /** Added to the requester's month total, never refused: the approver allowed it. */
      readonly spend: MonthSpendCharge;
    },
  ): Promise<void>;
  /**
   * The request becomes rejected, withdrawn or expired. `restore` puts `lines` in the
   * requester's cart at these quantities, each only if the line is still as `cart` (read
   * before) has it, so a cart changed meanwhile restores nothing and changes nothing.
   */
  decide(
    change: ApprovalChange & { readonly restore?: { readonly cart: Cart; readonly lines: readonly CartLine[] } },
  ): Promise<void>;
  /**
   * `Edit and resubmit`: the requester's cart becomes exactly `lines`, marked as resubmitting
   * `requestId`, in one transaction conditional on the cart (lines and marker) being still
   * as `cart` (read before) has it; a cart changed meanwhile changes nothing
   * (ConcurrentModification).
   */
  resubmitIntoCart(cart: Cart, lines: readonly CartLine[], requestId: ApprovalRequestId): Promise<void>;
  get(id: ApprovalRequestId): Promise<ApprovalRequest | undefined>;
  listByOrganization(organizationId: OrganizationId, query: ApprovalListQuery): Promise<ApprovalPage>;
  /** The organization's requests still waiting at `now` (made within the last 7 days, so one bounded read). */
  countPending(organizationId: OrganizationId, now: Date): Promise<number>;
  /**
   * Ids of pending requests whose expiry is at or before `now`, soonest first, any
   * organization, a page at a time (`cursor`: the previous page's `nextCursor`).
   */
  listDue(
    now: Date,
    limit: number,
    cursor?: string,
  ): Promise<{ readonly ids: ApprovalRequestId[]; readonly nextCursor?: string }>;
}
