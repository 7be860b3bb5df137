import { randomUUID } from 'node:crypto';
import type { CatalogRepository } from '../catalog/catalog-repository';
import type { Clock } from '../clock';
import { type Correlation, correlateAction, currentCorrelation } from '../correlation';
import { ApprovalForbidden, ApprovalNotFound, ConcurrentModification, SelfApprovalForbidden } from '../errors';
import type { IdempotencyCompletion } from '../idempotency/idempotency-completion';
import { METRIC, type Metrics, noMetrics } from '../metrics';
import type { CartRepository } from '../orders/cart';
import { limitStanding, type LimitStanding, organizationTimeZone, spendMonthOf } from '../spending/monthly-spend';
import type { OrderId } from '../orders/order';
import { latestOrderEvent } from '../orders/order-event';
import type { OrderService } from '../orders/order-service';
import type { Organization, OrganizationId, Profile } from '../organizations/organization';
import { roleOf } from '../organizations/organization';
import type { OrganizationRepository } from '../organizations/organization-repository';
import { approvalDecidedEvent, approvalRequestedEvent } from './approval-events';
import { expireDueRequests, expireRequest } from './approval-expiry';
import { approvedOrder, placeableLocation } from './approval-order';
import {
  type ApprovalListRequest,
  type ApprovalScope,
  findRequest,
  listOrganizationRequests,
  visibleTo,
} from './approval-queries';
import type { ApprovalPage, ApprovalRepository } from './approval-repository';
import { type ApprovalRequest, type ApprovalRequestId, asOf, notPending, partyOf } from './approval-request';
import { type Resubmission, resubmitIntoCart } from './approval-resubmission';
import { type SubmitApprovalInput, submittedRequest } from './approval-submission';
import { linesToRestore, type Withdrawal } from './approval-withdrawal';
import { type ApprovalChanges, correlatedEvent, countOutcome, writtenWhileWaiting } from './approval-writes';

/**
 * The Idempotency-Key completion for a decided request (the sandbox API's 200), written in
 * the decision's own transaction, as setup writes its own (CompletionFor).
 */
export type DecisionCompletionFor = (decided: ApprovalRequest) => IdempotencyCompletion;

export interface ApprovalServiceOptions {
  readonly approvals: ApprovalRepository;
  /** Quotes the cart exactly as placing an order does. */
  readonly orders: Pick<OrderService, 'quote' | 'limitPassed' | 'quoteUsed' | 'monthSpend'>;
  /** The requester and the request's location as they are now, at approval. */
  readonly organizations: Pick<OrganizationRepository, 'getOrganization'>;
  readonly carts: Pick<CartRepository, 'get'>;
  readonly catalog: Pick<CatalogRepository, 'get'>;
  readonly clock: Clock;
  /** Request and order ids; UUIDs. */
  readonly newId?: () => string;
  readonly metrics?: Metrics;
  readonly correlation?: () => Correlation;
}

/**
 * Approval requests (docs/module.md, "Approvals"): a cart above its user's order limit is
 * submitted instead of ordered; an approver of the same organization approves it (the
 * order is placed exactly as submitted) or rejects it with a reason; its requester may
 * withdraw it while it waits; undecided after 7 days it expires. Every change writes its
 * webhook event in the same transaction, conditional on the request still waiting, so
 * of two decisions at once exactly one happens and the other is told which.
 */
export class ApprovalService {
  private readonly approvals: ApprovalRepository;
  private readonly orders: Pick<OrderService, 'quote' | 'limitPassed' | 'quoteUsed' | 'monthSpend'>;
  private readonly organizations: Pick<OrganizationRepository, 'getOrganization'>;
  private readonly carts: Pick<CartRepository, 'get'>;
  private readonly catalog: Pick<CatalogRepository, 'get'>;
  private readonly clock: Clock;
  private readonly newId: () => string;
  private readonly metrics: Metrics;
  /** What every change shares: correlated events, counted outcomes, lost races explained. */
  private readonly changes: ApprovalChanges;

  constructor(options: ApprovalServiceOptions) {
    this.approvals = options.approvals;
    this.orders = options.orders;
    this.organizations = options.organizations;
    this.carts = options.carts;
    this.catalog = options.catalog;
    this.clock = options.clock;
    this.newId = options.newId ?? randomUUID;
    this.metrics = options.metrics ?? noMetrics;
    this.changes = {
      approvals: this.approvals,
      clock: this.clock,
      metrics: this.metrics,
      correlation: options.correlation ?? currentCorrelation,
    };
  }

  /**
   * Submits the profile's cart (or the given items) for approval:
   * 1. it is quoted exactly as placing it would (owner, location, cart, products, prices);
   * 2. the request is written with its approval.requested event, and the cart lines it was
   *    priced from are removed, in one transaction (a cart changed meanwhile, or submitted
   *    by a second click, submits nothing: ConcurrentModification); given items leave the
   *    cart alone. No order exists yet.
   */
  async submit(input: SubmitApprovalInput): Promise<ApprovalRequest> {
    const { partner, profile, organization } = input;
    correlateAction('submit-for-approval', profile);
    const quote = await this.orders.quote({
      partner,
      profile,
      organization,
      ...(input.shippingLocationId === undefined ? {} : { shippingLocationId: input.shippingLocationId }),
      ...(input.items === undefined ? {} : { items: input.items }),
      ...(input.products === undefined ? {} : { products: input.products }),
    });
    const limitReason =
      input.limitReason ?? (await this.orders.limitPassed(profile, organization, quote.pricing.totalCents));
    const request = submittedRequest(input, quote, limitReason, this.newId() as ApprovalRequestId, this.clock.now());
    await this.approvals.submit(
      request,
      correlatedEvent(this.changes, request, approvalRequestedEvent(request)),
      input.items ? undefined : quote.cart,
    );
    countOutcome(this.changes, 'submitted');
    await this.orders.quoteUsed(profile, quote);
    return request;
  }

  /**
   * Approves a waiting request and places its order:
   * 1. the request must be the approver's organization's (ApprovalNotFound), the approver
   *    an approver (ApprovalForbidden) and not its requester (SelfApprovalForbidden);
   * 2. it must still be waiting (ApprovalNotPending says what became of it);
   * 3. the requester must still be able to order and the location be active
   *    (ApprovalCannotBePlaced: the request keeps waiting, to be rejected or to expire);
   * 4. the order is the submitted snapshot (items, prices, address, references), placed
   *    by the requester with `approvedBy`; the request (approved, with the order id), the
   *    order, its order.created (with `approved_by`) and approval.decided are written in
   *    one transaction, conditional on the request still waiting unchanged and on the
   *    requester and the location still being active (a deactivation committed since 3
   *    stops it: ApprovalCannotBePlaced).
   */
  async approve(input: {
    readonly requestId: string;
    readonly approver: Profile;
    /** The approver's comment for the requester: parsed at the edge (`parseApprovalComment`). */
    readonly comment?: string;
    readonly completionFor?: DecisionCompletionFor;
  }): Promise<ApprovalRequest> {
    correlateAction('approve', input.approver);
    const { approver } = input;
    const request = await this.waiting(input.requestId, approver, 'decide');
    const now = this.clock.now();
    const { location, organization } = await placeableLocation(this.organizations, request);
    const month = spendMonthOf(now, organizationTimeZone(organization));
    const { order, approved } = approvedOrder(
      request,
      { by: partyOf(approver), ...(input.comment === undefined ? {} : { comment: input.comment }) },
      this.newId() as OrderId,
      now,
      month,
    );
    const requester = organization.profiles.find((profile) => profile.id === request.profileId);
    try {
      await writtenWhileWaiting(this.changes, request.id, () =>
        this.approvals.approve({
          request: approved,
          expectedVersion: request.version,
          event: correlatedEvent(this.changes, approved, approvalDecidedEvent(approved)),
          order,
          orderEvent: correlatedEvent(this.changes, approved, latestOrderEvent(order)),
          ...(input.completionFor ? { completion: input.completionFor(approved) } : {}),
          placeable: {
            partnerId: request.partnerId,
            internalOrgId: request.internalOrgId,
            internalUserId: request.internalUserId,
            internalShippingLocationId: location.internalShippingLocationId,
          },
          // The approved order counts in its requester's month, whatever the limit: the approver allowed it.
          spend: {
            profileId: request.profileId,
            month,
            amountCents: order.totalCents,
            ...(requester?.monthlyLimitCents === undefined ? {} : { limitCents: requester.monthlyLimitCents }),
            enforced: false,
          },
        }),
      );
    } catch (error) {
      // Still waiting: the requester or the location may have been deactivated since we read them.
      if (error instanceof ConcurrentModification) await placeableLocation(this.organizations, request);
      throw error;
    }
    countOutcome(this.changes, 'approved');
    this.metrics.count(METRIC.ordersPlaced);
    return approved;
  }

  /**
   * Rejects a waiting request with the approver's reason (1-500 characters, parsed at the
   * edge by `parseRejection`), under the same rules as `approve` (1, 2); nothing is
   * ordered and the cart is not touched (the requester may order again from the request).
   */
  async reject(input: {
    readonly requestId: string;
    readonly approver: Profile;
    readonly reason: string;
    readonly completionFor?: DecisionCompletionFor;
  }): Promise<ApprovalRequest> {
    correlateAction('reject', input.approver);
    const request = await this.waiting(input.requestId, input.approver, 'decide');
    const rejected: ApprovalRequest = {
      ...request,
      status: 'rejected',
      decidedAt: this.clock.now().toISOString(),
      decidedBy: partyOf(input.approver),
      reason: input.reason,
      version: request.version + 1,
    };
    await writtenWhileWaiting(this.changes, request.id, () =>
      this.approvals.decide({
        request: rejected,
        expectedVersion: request.version,
        event: correlatedEvent(this.changes, rejected, approvalDecidedEvent(rejected)),
        ...(input.completionFor ? { completion: input.completionFor(rejected) } : {}),
      }),
    );
    countOutcome(this.changes, 'rejected');
    return rejected;
  }

  /**
   * Withdraws a waiting request, by its requester only (ApprovalForbidden), and puts its
   * items back in the requester's cart in the same transaction: added to what the cart
   * holds (at most 999 a line), products no longer sold skipped. A cart that would then
   * hold more than 50 products refuses the withdrawal (ValidationFailed, nothing changed);
   * a cart changed meanwhile is ConcurrentModification (nothing changed).
   */
  async withdraw(input: { readonly requestId: string; readonly requester: Profile }): Promise<Withdrawal> {
    correlateAction('withdraw', input.requester);
    const request = await this.waiting(input.requestId, input.requester, 'withdraw');
    const [cart, products] = await Promise.all([
      this.carts.get(request.profileId),
      this.catalog.get(request.items.map((item) => item.productId)),
    ]);
    const now = this.clock.now();
    const { lines, skipped } = linesToRestore(request, cart, products, now);
    const withdrawn: ApprovalRequest = {
      ...request,
      status: 'withdrawn',
      decidedAt: now.toISOString(),
      version: request.version + 1,
    };
    await writtenWhileWaiting(this.changes, request.id, () =>
      this.approvals.decide({
        request: withdrawn,
        expectedVersion: request.version,
        event: correlatedEvent(this.changes, withdrawn, approvalDecidedEvent(withdrawn)),
        restore: { cart, lines },
      }),
    );
    countOutcome(this.changes, 'withdrawn');
    return { request: withdrawn, restored: lines.map((line) => line.productId), skipped };
  }

  /**
   * `Edit and resubmit`, by the requester of a rejected or expired request not resubmitted
   * yet (ApprovalNotResubmittable otherwise): its lines become the cart (products no longer
   * sold skipped, each quantity as requested), marked as resubmitting it, so the next
   * `submit` of the cart links the new request to it. A cart holding lines is replaced only
   * when `replace` says the user confirmed it (else `needsConfirmation`, nothing changed).
   * A cart changed meanwhile is ConcurrentModification, unless it is already this
   * request's resubmission (a second click): then it is left as it is.
   */
  async resubmit(input: {
    readonly requestId: string;
    readonly requester: Profile;
    readonly replace: boolean;
  }): Promise<Resubmission> {
    correlateAction('resubmit', input.requester);
    const { requester } = input;
    const request = await this.get(input.requestId, {
      partnerId: requester.partnerId,
      organizationId: requester.organizationId,
      viewer: requester,
    });
    return resubmitIntoCart(
      { approvals: this.approvals, carts: this.carts, catalog: this.catalog, clock: this.clock },
      request,
      requester,
      input.replace,
    );
  }

  /**
   * Records the expiry of one request, if it is pending and past its expiry at `now`
   * (reads already show it expired): expired at its `expiresAt`, with its approval.decided.
   * Returns the request as it is afterwards (undefined when there is none); one decided
   * meanwhile is left as it is.
   */
  async expire(requestId: string, now: Date = this.clock.now()): Promise<ApprovalRequest | undefined> {
    return (await expireRequest(this.changes, requestId, now)).request;
  }

  /**
   * Records the expiry of every pending request past its expiry at `now`, any
   * organization (the scheduled sweep), at most 1000 a call. Returns the ids it expired.
   */
  async expireDue(now: Date = this.clock.now()): Promise<ApprovalRequestId[]> {
    return expireDueRequests(this.changes, now);
  }

  /** One request the scope may see, as it is now (ApprovalNotFound otherwise). */
  async get(requestId: string, scope: ApprovalScope): Promise<ApprovalRequest> {
    const request = await findRequest(this.approvals, requestId);
    if (!request || !visibleTo(request, scope)) throw new ApprovalNotFound(requestId);
    return asOf(request, this.clock.now());
  }

  /**
   * Where a waiting request stands against the limit it waits for, with its requester's
   * limits and month as they are now (the approver's request page); undefined once it is
   * decided, or when the requester is gone or no longer has that limit.
   */
  async standing(request: ApprovalRequest): Promise<LimitStanding | undefined> {
    if (request.status !== 'pending') return undefined;
    const organization = await this.organizations.getOrganization(request.partnerId, request.internalOrgId);
    const requester = organization?.profiles.find((profile) => profile.id === request.profileId);
    if (!organization || !requester) return undefined;
    // Requests made before monthly limits have no reason recorded: all waited for the order limit.
    const reason = request.limitReason ?? 'order_limit';
    const month = reason === 'monthly_limit' ? await this.orders.monthSpend(requester, organization) : undefined;
    return limitStanding(reason, requester, month, request.totalCents);
  }

  /** The organization's requests, newest first, a page at a time, each as it is now. */
  async listForOrganization(
    organization: Pick<Organization, 'id'>,
    query: ApprovalListRequest = {},
  ): Promise<ApprovalPage> {
    return listOrganizationRequests(this.approvals, this.clock.now(), organization, query);
  }

  /** How many of the organization's requests wait for a decision now (the approvers' header count). */
  async countPending(organizationId: OrganizationId): Promise<number> {
    return this.approvals.countPending(organizationId, this.clock.now());
  }

  /**
   * The request a decision (by an approver) or a withdrawal (by its requester) acts on,
   * still waiting: visible to the user (ApprovalNotFound), theirs to act on
   * (ApprovalForbidden, SelfApprovalForbidden), and pending now (ApprovalNotPending).
   */
  private async waiting(requestId: string, user: Profile, action: 'decide' | 'withdraw'): Promise<ApprovalRequest> {
    // Deciding looks in the whole organization, so a buyer (or a demoted approver) is told
    // it may not decide (403) rather than that the request is not there.
    const request = await this.get(requestId, {
      partnerId: user.partnerId,
      organizationId: user.organizationId,
      ...(action === 'withdraw' ? { viewer: user } : {}),
    });
    if (action === 'decide') {
      if (roleOf(user) !== 'approver') throw new ApprovalForbidden(request.id, 'not-approver');
      if (request.profileId === user.id) throw new SelfApprovalForbidden(request.id);
    } else if (request.profileId !== user.id) {
      throw new ApprovalForbidden(request.id, 'not-requester');
    }
    if (request.status !== 'pending') throw notPending(request);
    return request;
  }
}
