/**
 * Monthly limits on DynamoDB Local (docs/module.md, "Approvals"; docs/setup.md,
 * `monthlyLimit`): an order that would take its user's placed total for the calendar
 * month (the organization's zone) above the limit goes to approval with
 * `limit_reason: monthly_limit`; parallel orders never pass the limit together; an
 * approved order counts when placed; the partner sets and removes the limit.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvalEventId } from '../../functions/domain/approvals/approval-events';
import { OrderEventMessage } from '../../functions/domain/events/order-event-message';
import { OUTBOX_KEY_PREFIX, tableName } from '../../functions/resources/resource-definitions';
import { ApprovalRequired } from '../../functions/domain/errors';
import type { SpendMonth } from '../../functions/domain/spending/monthly-spend';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { ApprovalRequestedData } from '../../functions/domain/events/order-events';
import { aProduct } from '../support/catalog-fixtures';
import { aSetupBody, provisionProfile, type ProvisionedProfile, type SetupBody } from '../support/provisioned-profile';
import { holdUntilAll } from '../support/arrival-gate';
import { signInToModule } from '../support/module-client';
import { aSetupRequest } from '../support/setup-request-builder';
import { startTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;
let partner: { partnerId: PartnerId; apiKey: string };

const SUPPLIES = aProduct('MONTH-SUPPLIES', { name: 'Exam Gloves', description: 'nitrile', unit: 'box of 100' });

beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  partner = await stack.createPartner();
  await stack.deps.catalog.upsertMany([SUPPLIES]);
});
afterAll(() => stack.close());

const ONE_BOX = [{ productId: SUPPLIES.productId, quantity: 1 }];

/** An organization in Chicago's zone with an unlimited buyer; `limited(n)` adds a buyer whose monthly limit is n order totals. */
async function anOffice() {
  const body = aSetupBody({ timeZone: 'America/Chicago' });
  const first = await provisionProfile(stack.deps, partner.partnerId, body);
  const aggregate = async () =>
    (await stack.deps.organizations.getOrganization(partner.partnerId, body.internalOrgId))!;
  const quote = await stack.deps.orderService.quote({
    partner: { id: partner.partnerId },
    profile: first.profile,
    organization: await aggregate(),
    items: ONE_BOX,
  });
  const orderTotal = quote.pricing.totalCents;
  let count = 0;
  /** Another user of the office: `user`'s fields over the first user's. */
  const colleague = async (user: Partial<SetupBody['user']>): Promise<ProvisionedProfile> => {
    count += 1;
    return provisionProfile(stack.deps, partner.partnerId, {
      ...body,
      internalUserId: `${body.internalUserId}-${count}`,
      user: { ...body.user, email: `b${count}.${body.user.email}`, ...user },
    });
  };
  const limited = (limitCents: number) => colleague({ monthlyLimit: limitCents / 100 });
  const place = async (who: ProvisionedProfile) =>
    stack.deps.orderService.placeOrder({
      partner: { id: partner.partnerId },
      profile: (await stack.deps.organizations.getProfile(who.profile.id))!,
      organization: await aggregate(),
      items: ONE_BOX,
    });
  return { orderTotal, limited, colleague, place, aggregate };
}

const reasonOf = (error: unknown) => (error instanceof ApprovalRequired ? error.reason : error);

describe('a monthly limit', () => {
  it('sends the order that would pass it to approval, saying why, and keeps the month total to the cent', async () => {
    const office = await anOffice();
    const buyer = await office.limited(office.orderTotal * 2);
    await office.place(buyer);
    await office.place(buyer);
    const third = await office.place(buyer).catch((error: unknown) => error);
    expect(third).toBeInstanceOf(ApprovalRequired);
    expect(third).toMatchObject({ reason: 'monthly_limit', spentCents: office.orderTotal * 2 });
    const month = await stack.deps.orderService.monthSpend(buyer.profile, await office.aggregate());
    expect(month).toEqual({ month: '2036-11', spentCents: office.orderTotal * 2, limitCents: office.orderTotal * 2 });
  });

  it('lets at most two of six parallel orders through when two fit, and sends the rest to approval', async () => {
    const office = await anOffice();
    // $37 orders against $100: two fit, a third does not.
    const buyer = await office.limited(Math.floor(office.orderTotal * 2.7));
    // All six transactions reach DynamoDB together, after each has read the profile and priced its order.
    const gate = holdUntilAll(
      stack.deps.aws.db,
      6,
      (command) =>
        command.name.startsWith('TransactWrite') && JSON.stringify(command.input).includes(`SPEND#${buyer.profile.id}`),
    );
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => office.place(buyer))).finally(() =>
      gate.remove(),
    );
    expect(gate.arrived()).toBe(6);
    const placed = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
    expect(placed.length).toBeLessThanOrEqual(2);
    expect(refused.map(reasonOf)).toEqual(Array.from({ length: 6 - placed.length }, () => 'monthly_limit'));
    const stored = await stack.deps.orders.listByOrganization(buyer.organization.id, { limit: 100 });
    expect(stored.orders).toHaveLength(placed.length);
    expect(await stack.deps.orders.monthSpend(buyer.profile.id, '2036-11' as SpendMonth)).toBe(
      placed.length * office.orderTotal,
    );
  });

  it('counts an order in the month of the organization’s zone, not UTC', async () => {
    const office = await anOffice();
    const buyer = await office.limited(office.orderTotal);
    const start = stack.clock.now();
    try {
      // 05:30 UTC on December 1 is still November 30 in Chicago.
      stack.clock.set(new Date('2036-12-01T05:30:00.000Z'));
      await office.place(buyer);
      expect(reasonOf(await office.place(buyer).catch((error: unknown) => error))).toBe('monthly_limit');
      // An hour later it is December there: a new month, with room again.
      stack.clock.set(new Date('2036-12-01T06:30:00.000Z'));
      await office.place(buyer);
      expect(await stack.deps.orders.monthSpend(buyer.profile.id, '2036-11' as SpendMonth)).toBe(office.orderTotal);
      expect(await stack.deps.orders.monthSpend(buyer.profile.id, '2036-12' as SpendMonth)).toBe(office.orderTotal);
    } finally {
      stack.clock.set(start);
    }
  });

  it('records the reason on the request and its approval.requested, and counts the approved order when placed', async () => {
    const office = await anOffice();
    const buyer = await office.limited(office.orderTotal);
    const approver = await provisionProfile(stack.deps, partner.partnerId, {
      ...aSetupBody(),
      internalOrgId: buyer.organization.internalOrgId,
      user: { firstName: 'Grace', lastName: 'Hopper', email: 'grace.month@acme.test', role: 'approver' },
    });
    await office.place(buyer);
    await stack.deps.cartService.add(buyer.profile.id, SUPPLIES.productId, 1);
    const request = await stack.deps.approvalService.submit({
      partner: { id: partner.partnerId },
      profile: buyer.profile,
      organization: await office.aggregate(),
    });
    expect(request.limitReason).toBe('monthly_limit');
    const res = await stack.get(`/v1/approval-requests/${request.id}`, { Authorization: `Bearer ${partner.apiKey}` });
    expect([res.status, res.body.limit_reason]).toEqual([200, 'monthly_limit']);
    const { Item } = await stack.deps.aws.db.send(
      new GetCommand({
        TableName: tableName(stack.config.RESOURCE_PREFIX, 'orders'),
        Key: { pk: `${OUTBOX_KEY_PREFIX}${approvalEventId(request.id, 'approval.requested')}`, sk: 'OUTBOX' },
        ConsistentRead: true,
      }),
    );
    const requested = OrderEventMessage.parse(JSON.parse(String(Item?.message)));
    expect(ApprovalRequestedData.parse(requested.data).limit_reason).toBe('monthly_limit');
    await stack.deps.approvalService.approve({ requestId: request.id, approver: approver.profile });
    expect(await stack.deps.orders.monthSpend(buyer.profile.id, '2036-11' as SpendMonth)).toBe(office.orderTotal * 2);
  });
});

describe('checkout with a monthly limit', () => {
  it('shows "$X of $Y spent this month", then offers Submit for approval once the cart would pass it', async () => {
    const office = await anOffice();
    const buyer = await office.limited(office.orderTotal * 2);
    const module = await signInToModule(stack, partner, buyer);
    const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;
    await stack.deps.cartService.add(buyer.profile.id, SUPPLIES.productId, 1);
    const before = await module.get(`${module.base}/checkout`);
    expect(before.text.replace(/<[^>]+>/g, '')).toContain(
      `${usd(0)} of ${usd(office.orderTotal * 2)} spent this month`,
    );
    expect(before.text).toContain('>Place order</button>');

    await office.place(buyer);
    await office.place(buyer);
    const full = await module.get(`${module.base}/checkout`);
    expect(full.text.replace(/<[^>]+>/g, '')).toContain(
      `${usd(office.orderTotal * 2)} of ${usd(office.orderTotal * 2)} spent this month`,
    );
    expect(full.text).toContain('>Submit for approval</button>');
    expect(full.text).toContain('your monthly limit');
    const refused = await module.submit(`${module.base}/orders`, { location: buyer.locations[0]!.id });
    expect([refused.status, refused.text]).toEqual([409, expect.stringContaining('above your monthly limit')]);
    const submitted = await module.submit(`${module.base}/approvals`, { location: buyer.locations[0]!.id });
    const confirmation = (await module.get(submitted.location ?? '')).text.replace(/<[^>]+>/g, '');
    expect(confirmation).toContain('It takes your orders this month above your monthly limit, so an approver');
    expect(confirmation).not.toContain('order limit');
    const list = (await module.get(`${module.base}/approvals`)).text.replace(/<[^>]+>/g, '');
    expect(list).toContain('Orders above your order limit, or taking the month above your monthly limit');
  });
});

describe('the approver’s request page', () => {
  const textOf = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
  const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;

  it('names the monthly limit with the month’s figures: placed (as Spending counts it), remaining, and with this order', async () => {
    const office = await anOffice();
    const limit = office.orderTotal * 2 + 100;
    const buyer = await office.limited(limit);
    const approver = await office.colleague({ firstName: 'Grace', email: 'grace.page@acme.test', role: 'approver' });
    await office.place(buyer);
    await office.place(buyer);
    const request = await stack.deps.approvalService.submit({
      partner: { id: partner.partnerId },
      profile: buyer.profile,
      organization: await office.aggregate(),
      items: ONE_BOX,
    });
    const module = await signInToModule(stack, partner, approver);
    const page = textOf((await module.get(`${module.base}/approvals/${request.id}`)).text);
    const report = await stack.get(`/v1/organizations/${buyer.organization.internalOrgId}/spend`, {
      Authorization: `Bearer ${partner.apiKey}`,
    });
    const users = report.body.users as { internal_user_id: string; total: number }[];
    const spent = Math.round(users.find((u) => u.internal_user_id === buyer.profile.internalUserId)!.total * 100);
    expect([report.body.month, spent]).toEqual(['2036-11', office.orderTotal * 2]);
    expect(page).toContain('Why: with it, the month’s orders would pass the monthly limit.');
    expect(page).toContain(
      `Monthly limit ${usd(limit)} Placed in November 2036 ${usd(spent)} Remaining ${usd(100)} ` +
        `With this order (${usd(office.orderTotal)}) ${usd(office.orderTotal * 3)}`,
    );
    expect(page).not.toContain('Order limit');
  });

  it('names the order limit with the order’s total', async () => {
    const office = await anOffice();
    const buyer = await office.colleague({ email: 'olivia.page@acme.test', orderLimit: 1 });
    const approver = await office.colleague({ firstName: 'Grace', email: 'grace.order@acme.test', role: 'approver' });
    const request = await stack.deps.approvalService.submit({
      partner: { id: partner.partnerId },
      profile: buyer.profile,
      organization: await office.aggregate(),
      items: ONE_BOX,
    });
    expect(request.limitReason).toBe('order_limit');
    const module = await signInToModule(stack, partner, approver);
    const page = textOf((await module.get(`${module.base}/approvals/${request.id}`)).text);
    expect(page).toContain('Why: its total is above the order limit.');
    expect(page).toContain(`Order limit ${usd(100)} This order’s total ${usd(office.orderTotal)}`);
    expect(page).not.toContain('Monthly limit');
  });
});

describe('PATCH a user’s monthlyLimit', () => {
  const bearer = (apiKey = partner.apiKey) => ({ Authorization: `Bearer ${apiKey}` });

  async function aUser(user: Record<string, unknown>) {
    const body = aSetupRequest().build() as Record<string, any>;
    body.user = { ...body.user, ...user };
    const res = await stack.post('/v1/organizations/setup', body, bearer());
    expect(res.status, res.text).toBe(200);
    return `/v1/organizations/${body.internalOrgId}/users/${body.internalUserId}`;
  }

  it('takes it at setup, changes it, removes it with null and refuses a bad one', async () => {
    const path = await aUser({ monthlyLimit: 100 });
    expect((await stack.get(path, bearer())).body.data.profile.monthlyLimit).toBe(100);
    expect((await stack.patch(path, { monthlyLimit: 250.5 }, bearer())).body.data.profile.monthlyLimit).toBe(250.5);
    const bad = await stack.patch(path, { monthlyLimit: 10.001 }, bearer());
    expect([bad.status, bad.body.details.map((d: { path: string[] }) => d.path.join('.'))]).toEqual([
      400,
      ['monthlyLimit'],
    ]);
    const removed = await stack.patch(path, { monthlyLimit: null }, bearer());
    expect(removed.body.data.profile).toMatchObject({ monthlyLimit: null, orderLimit: null });
  });

  it("answers 404 for another partner's user and changes nothing", async () => {
    const path = await aUser({ monthlyLimit: 100 });
    const other = await stack.createPartner();
    expect((await stack.patch(path, { monthlyLimit: 1 }, bearer(other.apiKey))).status).toBe(404);
    expect((await stack.get(path, bearer())).body.data.profile.monthlyLimit).toBe(100);
  });
});
