/**
 * Approval requests on DynamoDB Local (docs/module.md, "Approvals"): a cart above its
 * user's order limit is submitted, an approver approves it (the order is the submitted
 * snapshot, its order.created names the approver) or rejects it, the requester withdraws
 * it, or it expires. Each request has exactly one outcome however decisions race, every
 * change writes its webhook in the same transaction (a failure at any call leaves all or
 * nothing), and the approval kinds reach only endpoints subscribed to them.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { approvalEventId } from '../../functions/domain/approvals/approval-events';
import type { ApprovalRequest } from '../../functions/domain/approvals/approval-request';
import type { Product, ProductId } from '../../functions/domain/catalog/product';
import {
  ApprovalCannotBePlaced,
  ApprovalForbidden,
  ApprovalNotFound,
  ApprovalNotPending,
  ApprovalRequired,
  ConcurrentModification,
  SelfApprovalForbidden,
} from '../../functions/domain/errors';
import type { Cents } from '../../functions/domain/money';
import { orderEventId } from '../../functions/domain/orders/order-event';
import type { OrderId } from '../../functions/domain/orders/order';
import type { Profile } from '../../functions/domain/organizations/organization';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { OUTBOX_KEY_PREFIX, tableName } from '../../functions/resources/resource-definitions';
import {
  ApprovalDecidedData,
  ApprovalRequestedData,
  DELIVERED_ORDER_EVENT_DATA,
} from '../../functions/domain/events/order-events';
import { ORDER_EVENT_KINDS, WEBHOOK_EVENT_KINDS } from '../../functions/domain/events/order-event-kinds';
import { webhookSet } from '../../lib/ops-cli/webhook-commands';
import { aProduct } from '../support/catalog-fixtures';
import { holdUntilAll } from '../support/arrival-gate';
import { describeCall, FaultPlan, injectAwsFaults, modesFor } from '../support/fault-plan';
import { deliverEverything } from '../support/order-pipeline';
import { aColleagueBody, aSetupBody, provisionProfile, type ProvisionedProfile } from '../support/provisioned-profile';
import { recordingMetrics } from '../support/recording-metrics';
import { startTestStack, type TestStack } from '../support/test-stack';
import { purgeQueues } from '../support/webhook-fixtures';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

const metrics = recordingMetrics();
let stack: TestStack;
let receiver: WebhookReceiver;

/** Two products of this file's own, so price changes here touch no other test. */
const GAUZE = aProduct('APPR-GAUZE');
const MASKS = {
  ...GAUZE,
  productId: 'APPR-MASKS' as ProductId,
  name: 'Procedure Masks',
  priceCents: 1250 as Cents,
  unit: 'box of 50',
} satisfies Product;

beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false, metrics });
  receiver = await startWebhookReceiver(() => 200);
  await stack.deps.catalog.upsertMany([GAUZE, MASKS]);
});
afterEach(() => purgeQueues(stack));
afterAll(async () => {
  await receiver.close();
  await stack.close();
});

interface Office {
  readonly partnerId: PartnerId;
  /** A buyer whose order limit is $50. */
  readonly buyer: ProvisionedProfile;
  readonly approver: ProvisionedProfile;
  readonly secondApprover: ProvisionedProfile;
}

/** A partner subscribed to `events` (every kind unless told; `default`: set without a list), and an organization with a limited buyer and two approvers. */
async function anOffice(events: string = WEBHOOK_EVENT_KINDS.join(',')): Promise<Office> {
  const { partnerId } = await stack.deps.partnerAdmin.createPartner({
    name: 'Approvals Partner',
    alertEmail: 'alerts@partner.test',
  });
  await webhookSet(stack.deps, { partner: partnerId, url: receiver.url, ...(events === 'default' ? {} : { events }) });
  const body = aSetupBody();
  const person = (id: string, first: string, extra: Record<string, unknown>) =>
    provisionProfile(stack.deps, partnerId, aColleagueBody(body, id, { firstName: first, ...extra }));
  const buyer = await person('buyer', 'Ada', { orderLimit: 50 });
  const approver = await person('approver', 'Grace', { role: 'approver' });
  const secondApprover = await person('approver2', 'Katherine', { role: 'approver', orderLimit: 10 });
  return { partnerId, buyer, approver, secondApprover };
}

const aggregateOf = async (office: Office) =>
  (await stack.deps.organizations.getOrganization(office.partnerId, office.buyer.organization.internalOrgId))!;
const cartOf = async (who: ProvisionedProfile) =>
  (await stack.deps.cartService.view(who.profile.id)).lines.map((line) => [line.product.productId, line.quantity]);
const ordersOf = async (office: Office) =>
  (await stack.deps.orders.listByOrganization(office.buyer.organization.id, { limit: 100 })).orders;

/** Fills the profile's cart: $90 of gauze, $25 of masks (over $50). */
async function fillCart(who: ProvisionedProfile): Promise<void> {
  await stack.deps.cartService.add(who.profile.id, GAUZE.productId, 3);
  await stack.deps.cartService.add(who.profile.id, MASKS.productId, 2);
}

const submit = async (
  office: Office,
  who: ProvisionedProfile = office.buyer,
  references = { poNumber: 'PO-77', notes: 'Front desk' },
) =>
  stack.deps.approvalService.submit({
    partner: { id: office.partnerId },
    profile: who.profile,
    organization: await aggregateOf(office),
    references,
  });

/** Fills the profile's cart and submits it. */
async function submitted(office: Office, who: ProvisionedProfile = office.buyer): Promise<ApprovalRequest> {
  await fillCart(who);
  return submit(office, who);
}

const approve = (requestId: string, approver: ProvisionedProfile) =>
  stack.deps.approvalService.approve({ requestId, approver: approver.profile });

/** Everything the receiver got about one approval request or its order, by kind (each delivery once). */
function webhooksAbout(ids: readonly string[]): Record<string, unknown>[] {
  const seen = new Map<string, Record<string, unknown>>();
  for (const request of receiver.requests) {
    const body = JSON.parse(request.rawBody.toString('utf8'));
    if (ids.includes(body.data?.approval_request_id) || ids.includes(body.data?.order_id))
      seen.set(String(request.headers['x-service-delivery-id']), body);
  }
  return [...seen.values()];
}
const kindsAbout = (ids: readonly string[]) =>
  webhooksAbout(ids)
    .map((body) => body.event)
    .sort();

const ordersTable = () => tableName(stack.config.RESOURCE_PREFIX, 'orders');
const outboxHas = async (eventId: string) =>
  Boolean(
    (
      await stack.deps.aws.db.send(
        new GetCommand({
          TableName: ordersTable(),
          Key: { pk: `${OUTBOX_KEY_PREFIX}${eventId}`, sk: 'OUTBOX' },
          ConsistentRead: true,
        }),
      )
    ).Item,
  );
const stored = async (id: string) =>
  (
    await stack.deps.aws.db.send(
      new GetCommand({ TableName: ordersTable(), Key: { pk: `APPROVAL#${id}`, sk: 'REQUEST' }, ConsistentRead: true }),
    )
  ).Item?.request as ApprovalRequest | undefined;

describe('submitting and approving', () => {
  it('submit takes the cart and tells the partner; approve places the submitted snapshot once, with approved_by and approval.decided', async () => {
    const office = await anOffice();
    const before = metrics.total('ApprovalRequests', { outcome: 'submitted' });
    const request = await submitted(office);

    expect(request).toMatchObject({
      status: 'pending',
      profileId: office.buyer.profile.id,
      internalUserId: office.buyer.profile.internalUserId,
      items: [
        { productId: GAUZE.productId, name: GAUZE.name, unit: GAUZE.unit, unitPriceCents: 3000, quantity: 3 },
        { productId: MASKS.productId, name: MASKS.name, unit: MASKS.unit, unitPriceCents: 1250, quantity: 2 },
      ],
      subtotalCents: 11500,
      poNumber: 'PO-77',
      notes: 'Front desk',
    });
    expect(Date.parse(request.expiresAt) - Date.parse(request.createdAt)).toBe(7 * 24 * 3600 * 1000);
    expect(request.totalCents).toBe(request.subtotalCents + request.taxCents + request.shippingCents);
    expect(await cartOf(office.buyer)).toEqual([]);
    expect(await ordersOf(office)).toEqual([]);
    expect(metrics.total('ApprovalRequests', { outcome: 'submitted' })).toBe(before + 1);
    await deliverEverything(stack);
    const [requested, ...others] = webhooksAbout([request.id]);
    expect(others).toEqual([]);
    expect(requested).toMatchObject({ event: 'approval.requested' });
    expect(ApprovalRequestedData.parse(requested!.data)).toEqual({
      approval_request_id: request.id,
      partner_org_id: office.buyer.organization.internalOrgId,
      internal_user_id: office.buyer.profile.internalUserId,
      user_email: office.buyer.profile.email,
      items: [
        { product_id: GAUZE.productId, name: GAUZE.name, quantity: 3, price: 30 },
        { product_id: MASKS.productId, name: MASKS.name, quantity: 2, price: 12.5 },
      ],
      subtotal: 115,
      tax: request.taxCents / 100,
      shipping: 9.95,
      total: request.totalCents / 100,
      po_number: 'PO-77',
      notes: 'Front desk',
      limit_reason: 'order_limit',
      resubmitted_from: null,
      created_at: request.createdAt,
      expires_at: request.expiresAt,
    });

    // The catalog moves on; the approved order is what was submitted.
    await stack.deps.catalog.upsertMany([{ ...GAUZE, priceCents: 9900 as Cents }]);
    try {
      stack.clock.advance(60_000);
      const approved = await approve(request.id, office.approver);
      expect(approved).toMatchObject({
        status: 'approved',
        decidedBy: { profileId: office.approver.profile.id, email: office.approver.profile.email },
        orderId: expect.any(String),
      });

      const [order, ...more] = await ordersOf(office);
      expect(more).toEqual([]);
      expect(order).toMatchObject({
        id: approved.orderId,
        status: 'pending',
        profileId: office.buyer.profile.id,
        userEmail: office.buyer.profile.email,
        items: request.items,
        shippingAddress: request.shippingAddress,
        subtotalCents: request.subtotalCents,
        taxCents: request.taxCents,
        shippingCents: request.shippingCents,
        totalCents: request.totalCents,
        poNumber: 'PO-77',
        notes: 'Front desk',
        approvalRequestId: request.id,
        approvedBy: {
          profileId: office.approver.profile.id,
          internalUserId: office.approver.profile.internalUserId,
          email: office.approver.profile.email,
        },
      });
      expect(await stack.deps.approvalService.get(request.id, { partnerId: office.partnerId })).toEqual(approved);

      await deliverEverything(stack);
      expect(kindsAbout([request.id, order!.id])).toEqual(['approval.decided', 'approval.requested', 'order.created']);
      const created = webhooksAbout([order!.id]).find((body) => body.event === 'order.created')!;
      expect(DELIVERED_ORDER_EVENT_DATA['order.created'].parse(created.data)).toMatchObject({
        order_id: order!.id,
        user_email: office.buyer.profile.email,
        approved_by: { internal_user_id: office.approver.profile.internalUserId, email: office.approver.profile.email },
        items: [
          { product_id: GAUZE.productId, price: 30 },
          { product_id: MASKS.productId, price: 12.5 },
        ],
        total: request.totalCents / 100,
        po_number: 'PO-77',
      });
      const decided = webhooksAbout([request.id]).find((body) => body.event === 'approval.decided')!;
      expect(ApprovalDecidedData.parse(decided.data)).toEqual({
        approval_request_id: request.id,
        partner_org_id: office.buyer.organization.internalOrgId,
        decision: 'approved',
        decided_by: { internal_user_id: office.approver.profile.internalUserId, email: office.approver.profile.email },
        order_id: order!.id,
        decided_at: approved.decidedAt,
      });
    } finally {
      await stack.deps.catalog.upsertMany([GAUZE]);
    }
  });

  it('an order of an ordinary checkout carries no approved_by, and one above the limit is refused with ApprovalRequired', async () => {
    const office = await anOffice();
    const organization = await aggregateOf(office);
    await stack.deps.cartService.add(office.buyer.profile.id, MASKS.productId, 1);
    const order = await stack.deps.orderService.placeOrder({
      partner: { id: office.partnerId },
      profile: office.buyer.profile,
      organization,
    });
    await stack.deps.cartService.add(office.buyer.profile.id, GAUZE.productId, 2);
    await expect(
      stack.deps.orderService.placeOrder({
        partner: { id: office.partnerId },
        profile: office.buyer.profile,
        organization,
      }),
    ).rejects.toBeInstanceOf(ApprovalRequired);
    expect(await cartOf(office.buyer)).toEqual([[GAUZE.productId, 2]]);
    await deliverEverything(stack);
    const created = webhooksAbout([order.id]).find((body) => body.event === 'order.created')!;
    expect(created.data).not.toHaveProperty('approved_by');
    expect(await ordersOf(office)).toHaveLength(1);
  });

  it('rejection keeps the reason and places nothing; withdrawal puts the items back in the cart', async () => {
    const office = await anOffice();
    const first = await submitted(office);
    const rejected = await stack.deps.approvalService.reject({
      requestId: first.id,
      approver: office.approver.profile,
      reason: 'Over budget this month',
    });
    expect(rejected).toMatchObject({
      status: 'rejected',
      reason: 'Over budget this month',
      decidedBy: { profileId: office.approver.profile.id },
    });
    expect(await cartOf(office.buyer)).toEqual([]);

    const second = await submitted(office);
    await stack.deps.cartService.add(office.buyer.profile.id, GAUZE.productId, 1);
    const withdrawal = await stack.deps.approvalService.withdraw({
      requestId: second.id,
      requester: office.buyer.profile,
    });
    expect(withdrawal).toMatchObject({
      request: { status: 'withdrawn' },
      restored: [GAUZE.productId, MASKS.productId],
      skipped: [],
    });
    expect(withdrawal.request.decidedBy).toBeUndefined();
    expect(await cartOf(office.buyer)).toEqual([
      [GAUZE.productId, 4],
      [MASKS.productId, 2],
    ]);
    expect(await ordersOf(office)).toEqual([]);

    await deliverEverything(stack);
    const decisions = webhooksAbout([first.id, second.id])
      .filter((body) => body.event === 'approval.decided')
      .map((body) => ApprovalDecidedData.parse(body.data));
    expect(decisions.sort((a, b) => a.decision.localeCompare(b.decision))).toEqual([
      {
        approval_request_id: first.id,
        partner_org_id: office.buyer.organization.internalOrgId,
        decision: 'rejected',
        decided_by: { internal_user_id: office.approver.profile.internalUserId, email: office.approver.profile.email },
        reason: 'Over budget this month',
        decided_at: rejected.decidedAt,
      },
      {
        approval_request_id: second.id,
        partner_org_id: office.buyer.organization.internalOrgId,
        decision: 'withdrawn',
        decided_at: withdrawal.request.decidedAt,
      },
    ]);
  });

  it('refuses self-approval, decisions by buyers, withdrawals by others, and requests of another organization', async () => {
    const office = await anOffice();
    const own = await submitted(office, office.secondApprover);
    await expect(approve(own.id, office.secondApprover)).rejects.toBeInstanceOf(SelfApprovalForbidden);
    await expect(
      stack.deps.approvalService.reject({ requestId: own.id, approver: office.secondApprover.profile, reason: 'no' }),
    ).rejects.toBeInstanceOf(SelfApprovalForbidden);
    // A buyer is told it may not decide, though the request is not its own to see.
    await expect(approve(own.id, office.buyer)).rejects.toBeInstanceOf(ApprovalForbidden);
    await expect(
      stack.deps.approvalService.withdraw({ requestId: own.id, requester: office.approver.profile }),
    ).rejects.toBeInstanceOf(ApprovalForbidden);
    const other = await anOffice();
    await expect(approve(own.id, other.approver)).rejects.toBeInstanceOf(ApprovalNotFound);
    expect((await stored(own.id))?.status).toBe('pending');

    const buyersOwn = await submitted(office);
    const buyerAsDecider: Profile = { ...office.buyer.profile };
    await expect(
      stack.deps.approvalService.approve({ requestId: buyersOwn.id, approver: buyerAsDecider }),
    ).rejects.toBeInstanceOf(ApprovalForbidden);
    expect((await approve(own.id, office.approver)).status).toBe('approved');
    expect(await ordersOf(office)).toHaveLength(1);
  });

  it('does not approve a request whose location became inactive or whose requester was deactivated; it keeps waiting', async () => {
    const office = await anOffice();
    const request = await submitted(office);
    await stack.deps.functions.setup.partnerUsers.update(
      office.partnerId,
      office.buyer.organization.internalOrgId,
      office.buyer.profile.internalUserId,
      { active: false },
    );
    await expect(approve(request.id, office.approver)).rejects.toMatchObject(
      new ApprovalCannotBePlaced(request.id, 'requester-inactive'),
    );
    await stack.deps.functions.setup.partnerUsers.update(
      office.partnerId,
      office.buyer.organization.internalOrgId,
      office.buyer.profile.internalUserId,
      { active: true },
    );

    await stack.deps.functions.setup.partnerShippingLocations.update(
      office.partnerId,
      office.buyer.organization.internalOrgId,
      'loc-main',
      { isActive: false, isDefault: false },
    );
    await expect(approve(request.id, office.approver)).rejects.toMatchObject(
      new ApprovalCannotBePlaced(request.id, 'location-unavailable'),
    );
    expect((await stored(request.id))?.status).toBe('pending');
    expect(await ordersOf(office)).toEqual([]);
    expect(
      (
        await stack.deps.approvalService.reject({
          requestId: request.id,
          approver: office.approver.profile,
          reason: 'The clinic closed',
        })
      ).status,
    ).toBe('rejected');
  });
});

describe('a deactivation committed while approving', () => {
  /** Runs `change` just before the approval's transaction reaches DynamoDB, after approve read the requester and location. */
  async function changedBeforeWrite(
    request: ApprovalRequest,
    change: () => Promise<unknown>,
    act: () => Promise<unknown>,
  ) {
    const name = `beforeApprovalWrite-${request.id}`;
    const middlewares = stack.deps.aws.db.middlewareStack as unknown as {
      add: (middleware: unknown, options: { step: string; name: string }) => void;
      remove: (name: string) => boolean;
    };
    middlewares.add(
      (next: (args: { input: unknown }) => Promise<unknown>, context: { commandName?: string }) =>
        async (args: { input: unknown }) => {
          if (
            context.commandName === 'TransactWriteItemsCommand' &&
            JSON.stringify(args.input).includes(`APPROVAL#${request.id}`)
          )
            await change();
          return next(args);
        },
      { step: 'initialize', name },
    );
    try {
      return await act();
    } finally {
      middlewares.remove(name);
    }
  }

  it.each([
    ['the location', 'location-unavailable'],
    ['the requester', 'requester-inactive'],
  ] as const)('of %s stops the order: nothing is placed and the request keeps waiting', async (what, refused) => {
    const office = await anOffice();
    const request = await submitted(office);
    const { internalOrgId } = office.buyer.organization;
    const deactivate = () =>
      what === 'the location'
        ? stack.deps.functions.setup.partnerShippingLocations.update(office.partnerId, internalOrgId, 'loc-main', {
            isActive: false,
            isDefault: false,
          })
        : stack.deps.functions.setup.partnerUsers.update(
            office.partnerId,
            internalOrgId,
            office.buyer.profile.internalUserId,
            { active: false },
          );
    await expect(
      changedBeforeWrite(request, deactivate, () => approve(request.id, office.approver)),
    ).rejects.toMatchObject(new ApprovalCannotBePlaced(request.id, refused));
    expect((await stored(request.id))?.status).toBe('pending');
    expect(await ordersOf(office)).toEqual([]);
  });
});

describe('one outcome per request', () => {
  /** Runs two decisions whose transactions reach DynamoDB together (both read the request as pending first). */
  async function race(request: ApprovalRequest, first: () => Promise<unknown>, second: () => Promise<unknown>) {
    const gate = holdUntilAll(
      stack.deps.aws.db,
      2,
      (command) =>
        command.name === 'TransactWriteCommand' && JSON.stringify(command.input).includes(`APPROVAL#${request.id}`),
    );
    try {
      return await Promise.allSettled([first(), second()]);
    } finally {
      gate.remove();
    }
  }

  it('two approvers approving at once: one order, one approval.decided, and the other is told who approved', async () => {
    const office = await anOffice();
    const request = await submitted(office);
    const outcomes = await race(
      request,
      () => approve(request.id, office.approver),
      () => approve(request.id, office.secondApprover),
    );
    const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const lost = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    const winner = (won[0] as PromiseFulfilledResult<ApprovalRequest>).value;
    expect(lost[0]).toBeInstanceOf(ApprovalNotPending);
    expect(lost[0]).toMatchObject({ status: 'approved', decidedBy: winner.decidedBy!.name });
    const orders = await ordersOf(office);
    expect(orders.map((order) => order.id)).toEqual([winner.orderId]);
    expect(await stored(request.id)).toEqual(winner);
    await deliverEverything(stack);
    expect(kindsAbout([request.id, winner.orderId!])).toEqual([
      'approval.decided',
      'approval.requested',
      'order.created',
    ]);
  });

  it.each([
    [
      'withdraw',
      (office: Office, id: string) =>
        stack.deps.approvalService.withdraw({ requestId: id, requester: office.buyer.profile }),
    ],
    [
      'reject',
      (office: Office, id: string) =>
        stack.deps.approvalService.reject({ requestId: id, approver: office.secondApprover.profile, reason: 'No' }),
    ],
  ] as const)('approve against %s at once: exactly one of them happens, with its one event', async (other, decide) => {
    const office = await anOffice();
    const request = await submitted(office);
    const outcomes = await race(
      request,
      () => approve(request.id, office.approver),
      () => decide(office, request.id),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const failure = outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult;
    expect(failure.reason).toBeInstanceOf(ApprovalNotPending);
    const final = (await stored(request.id))!;
    expect(['approved', other === 'withdraw' ? 'withdrawn' : 'rejected']).toContain(final.status);
    expect((failure.reason as ApprovalNotPending).status).toBe(final.status);
    const orders = await ordersOf(office);
    expect(orders).toHaveLength(final.status === 'approved' ? 1 : 0);
    // Withdrawn: the items went back; approved: the cart stayed as submission left it.
    expect(await cartOf(office.buyer)).toEqual(
      final.status === 'withdrawn'
        ? [
            [GAUZE.productId, 3],
            [MASKS.productId, 2],
          ]
        : [],
    );
    await deliverEverything(stack);
    expect(kindsAbout([request.id, ...orders.map((order) => order.id)])).toEqual(
      final.status === 'approved'
        ? ['approval.decided', 'approval.requested', 'order.created']
        : ['approval.decided', 'approval.requested'],
    );
  });

  it('a cart changed while submitting submits nothing and keeps the cart', async () => {
    const office = await anOffice();
    await stack.deps.cartService.add(office.buyer.profile.id, GAUZE.productId, 3);
    const organization = await aggregateOf(office);
    let changed = false;
    stack.deps.aws.db.middlewareStack.add(
      (next) => async (args) => {
        if (!changed && JSON.stringify(args.input).includes('"APPROVAL#')) {
          changed = true;
          await stack.deps.cartService.changeQuantity(office.buyer.profile.id, GAUZE.productId, 5);
        }
        return next(args);
      },
      { step: 'initialize', name: 'changeCartMeanwhile' },
    );
    try {
      await expect(
        stack.deps.approvalService.submit({
          partner: { id: office.partnerId },
          profile: office.buyer.profile,
          organization,
        }),
      ).rejects.toBeInstanceOf(ConcurrentModification);
    } finally {
      stack.deps.aws.db.middlewareStack.remove('changeCartMeanwhile');
    }
    expect(await cartOf(office.buyer)).toEqual([[GAUZE.productId, 5]]);
    expect((await stack.deps.approvalService.listForOrganization(office.buyer.organization)).requests).toEqual([]);
  });
});

describe('expiry', () => {
  it('after 7 days a request reads as expired, cannot be approved, and expireDue records it with its approval.decided', async () => {
    const office = await anOffice();
    const request = await submitted(office);
    const waiting = await submitted(office, office.secondApprover);
    expect(await stack.deps.approvalService.countPending(office.buyer.organization.id)).toBe(2);
    stack.clock.advance(7 * 24 * 3600 * 1000);

    const seen = await stack.deps.approvalService.get(request.id, { partnerId: office.partnerId });
    expect(seen).toMatchObject({ status: 'expired', decidedAt: request.expiresAt });
    expect(await stack.deps.approvalService.countPending(office.buyer.organization.id)).toBe(0);
    await expect(approve(request.id, office.approver)).rejects.toMatchObject({
      name: 'ApprovalNotPending',
      status: 'expired',
    });
    await expect(
      stack.deps.approvalService.withdraw({ requestId: request.id, requester: office.buyer.profile }),
    ).rejects.toBeInstanceOf(ApprovalNotPending);
    const expiredList = await stack.deps.approvalService.listForOrganization(office.buyer.organization, {
      status: 'expired',
    });
    expect(expiredList.requests.map((r) => r.id).sort()).toEqual([request.id, waiting.id].sort());
    expect(
      (await stack.deps.approvalService.listForOrganization(office.buyer.organization, { status: 'pending' })).requests,
    ).toEqual([]);
    expect((await stored(request.id))?.status).toBe('pending');
    expect(await ordersOf(office)).toEqual([]);

    const before = metrics.total('ApprovalRequests', { outcome: 'expired' });
    const swept = await stack.deps.approvalService.expireDue(stack.clock.now());
    expect(swept).toEqual(expect.arrayContaining([request.id, waiting.id]));
    expect(metrics.total('ApprovalRequests', { outcome: 'expired' })).toBe(before + swept.length);
    expect(await stored(request.id)).toMatchObject({ status: 'expired', decidedAt: request.expiresAt, version: 2 });
    expect(await stack.deps.approvalService.expireDue(stack.clock.now())).toEqual([]);

    await deliverEverything(stack);
    const decided = webhooksAbout([request.id]).filter((body) => body.event === 'approval.decided');
    expect(decided.map((body) => ApprovalDecidedData.parse(body.data))).toEqual([
      {
        approval_request_id: request.id,
        partner_org_id: office.buyer.organization.internalOrgId,
        decision: 'expired',
        decided_at: request.expiresAt,
      },
    ]);
  });

  it('a request not yet due is left waiting by the sweep', async () => {
    const office = await anOffice();
    const request = await submitted(office);
    stack.clock.advance(7 * 24 * 3600 * 1000 - 1);
    expect(await stack.deps.approvalService.expireDue(stack.clock.now())).not.toContain(request.id);
    expect(await stack.deps.approvalService.expire(request.id)).toMatchObject({ status: 'pending' });
    expect((await approve(request.id, office.approver)).status).toBe('approved');
  });
});

describe('the waiting list', () => {
  it("reads only the last 7 days of the organization's requests: nothing older can still wait", async () => {
    const office = await anOffice();
    for (let i = 0; i < 6; i += 1) {
      const old = await submitted(office);
      await stack.deps.approvalService.withdraw({ requestId: old.id, requester: office.buyer.profile });
      await stack.deps.cartService.clear(office.buyer.profile.id);
    }
    stack.clock.advance(8 * 24 * 3600 * 1000);
    const waiting = await submitted(office, office.secondApprover);

    let scanned = 0;
    stack.deps.aws.db.middlewareStack.add(
      (next, context) => async (args) => {
        const result = await next(args);
        if (context.commandName === 'QueryCommand')
          scanned += Number((result.output as { ScannedCount?: number }).ScannedCount ?? 0);
        return result;
      },
      { step: 'initialize', name: 'countScanned' },
    );
    try {
      const list = await stack.deps.approvalService.listForOrganization(office.buyer.organization, {
        status: 'pending',
      });
      expect(list.requests.map((r) => r.id)).toEqual([waiting.id]);
      expect(scanned).toBe(1);
    } finally {
      stack.deps.aws.db.middlewareStack.remove('countScanned');
    }
  });
});

describe('webhook subscriptions', () => {
  it('delivers the approval kinds only to endpoints that list them; an endpoint set without a list gets exactly the order kinds', async () => {
    const defaults = await anOffice('default');
    expect((await stack.deps.webhookEndpoints.get(defaults.partnerId))?.events).toEqual([...ORDER_EVENT_KINDS]);
    const approvalsOnly = await anOffice('approval.requested,approval.decided');
    const everything = await anOffice();

    const ids: Record<string, string[]> = {};
    for (const [name, office] of Object.entries({ defaults, approvalsOnly, everything })) {
      const request = await submitted(office);
      const approved = await approve(request.id, office.approver);
      ids[name] = [request.id, approved.orderId!];
    }
    await deliverEverything(stack);
    expect(kindsAbout(ids.defaults!)).toEqual(['order.created']);
    expect(kindsAbout(ids.approvalsOnly!)).toEqual(['approval.decided', 'approval.requested']);
    expect(kindsAbout(ids.everything!)).toEqual(['approval.decided', 'approval.requested', 'order.created']);
  });
});

describe('a failure at any call leaves all or nothing', () => {
  const plan = new FaultPlan((call) => call.service === 'dynamodb');
  let removeFaults: () => void = () => undefined;
  beforeAll(() => {
    removeFaults = injectAwsFaults(plan, stack.deps.aws.db, {
      service: 'dynamodb',
      prefix: stack.config.RESOURCE_PREFIX,
    });
  });
  afterAll(() => removeFaults());

  /** Runs `act` once unfaulted to learn its calls, then once per call and mode on a fresh request, checking `consistent` after each. */
  async function sweep(
    label: string,
    prepare: (office: Office) => Promise<ApprovalRequest | undefined>,
    act: (office: Office, request: ApprovalRequest | undefined) => Promise<unknown>,
    consistent: (office: Office, request: ApprovalRequest | undefined, succeeded: boolean) => Promise<void>,
  ): Promise<string[]> {
    const office = await anOffice();
    const baseline = await prepare(office);
    plan.reset();
    await act(office, baseline);
    const steps = [...plan.calls];
    plan.reset();
    expect(
      steps.some((step) => step.operation === 'TransactWriteItems'),
      label,
    ).toBe(true);
    const seen: string[] = [];
    for (const [index, step] of steps.entries()) {
      for (const mode of modesFor(step, ['fail', 'lose'])) {
        const faulted = await anOffice();
        const request = await prepare(faulted);
        plan.reset();
        plan.atStep(index, mode);
        let succeeded = true;
        try {
          await act(faulted, request);
        } catch {
          succeeded = false;
        } finally {
          plan.disarm();
        }
        const name = `${label}, step ${index} ${describeCall(step)} ${mode}`;
        expect(
          plan.injected.map((injected) => describeCall(injected.call)),
          name,
        ).toEqual([describeCall(step)]);
        await plan.outside(() => consistent(faulted, request, succeeded));
        seen.push(`${index}:${describeCall(step)}:${mode}`);
      }
    }
    return seen;
  }

  /** Request, its events and the order agree: either the whole change is stored or none of it. */
  async function decisionConsistent(
    office: Office,
    request: ApprovalRequest,
    outcome: 'approved' | 'rejected' | 'withdrawn',
    succeeded: boolean,
  ) {
    const now = (await stored(request.id))!;
    const decided = await outboxHas(approvalEventId(request.id, 'approval.decided'));
    const orders = await ordersOf(office);
    if (now.status === 'pending') {
      expect(succeeded).toBe(false);
      expect(decided).toBe(false);
      expect(orders).toEqual([]);
      expect(await cartOf(office.buyer)).toEqual([]);
      return;
    }
    expect(now.status).toBe(outcome);
    expect(decided).toBe(true);
    if (outcome === 'approved') {
      expect(orders.map((order) => order.id)).toEqual([now.orderId]);
      expect(await outboxHas(orderEventId(now.orderId as OrderId, 'order.created'))).toBe(true);
    } else {
      expect(orders).toEqual([]);
    }
    expect(await cartOf(office.buyer)).toEqual(
      outcome === 'withdrawn'
        ? [
            [GAUZE.productId, 3],
            [MASKS.productId, 2],
          ]
        : [],
    );
  }

  it('submit', async () => {
    const steps = await sweep(
      'submit',
      async (office) => {
        await fillCart(office.buyer);
        return undefined;
      },
      (office) => submit(office),
      async (office, _request, succeeded) => {
        const { requests } = await stack.deps.approvalService.listForOrganization(office.buyer.organization);
        if (requests.length === 0) {
          expect(succeeded).toBe(false);
          expect(await cartOf(office.buyer)).toEqual([
            [GAUZE.productId, 3],
            [MASKS.productId, 2],
          ]);
          return;
        }
        expect(requests).toHaveLength(1);
        expect(await outboxHas(approvalEventId(requests[0]!.id, 'approval.requested'))).toBe(true);
        expect(await cartOf(office.buyer)).toEqual([]);
      },
    );
    expect(steps.filter((step) => step.includes('TransactWriteItems'))).toHaveLength(2);
  });

  it.each(['approved', 'rejected', 'withdrawn'] as const)('%s', async (outcome) => {
    const act = (office: Office, request: ApprovalRequest | undefined) => {
      const requestId = request!.id;
      if (outcome === 'approved') return approve(requestId, office.approver);
      if (outcome === 'rejected')
        return stack.deps.approvalService.reject({ requestId, approver: office.approver.profile, reason: 'No' });
      return stack.deps.approvalService.withdraw({ requestId, requester: office.buyer.profile });
    };
    const steps = await sweep(
      outcome,
      (office) => submitted(office),
      act,
      (office, request, succeeded) => decisionConsistent(office, request!, outcome, succeeded),
    );
    expect(steps.filter((step) => step.includes('TransactWriteItems'))).toHaveLength(2);
  });
});
