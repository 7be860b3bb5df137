/**
 * Budgets give back (docs/module.md, "Spending"; docs/decisions.md): a cancellation returns
 * the order's total and a refund its amount to the month the order counted in, in the
 * change's own transaction; the counter, the spend route and the checkout's month line agree
 * with the month's live orders for any sequence of orders, approvals, rejections,
 * cancellations and refunds, run concurrently (a property test on DynamoDB Local); a past
 * month shows the limit that applied then.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../functions/domain/orders/order';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { countedCentsOf, type SpendMonth } from '../../functions/domain/spending/monthly-spend';
import { formatUsd } from '../../functions/domain/money';
import { tableName } from '../../functions/resources/resource-definitions';
import { aProduct } from '../support/catalog-fixtures';
import { signInToModule } from '../support/module-client';
import { aSetupBody, provisionProfile, type ProvisionedProfile } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;
let partner: { partnerId: PartnerId; apiKey: string };

const SUPPLIES = aProduct('BUDGET-SUPPLIES', { name: 'Cotton Rolls', description: 'size 2', unit: 'bag of 2000' });
const NOVEMBER = '2036-11' as SpendMonth;
const SHIPMENT = {
  tracking_number: '1Z999AA10123456784',
  carrier: 'UPS',
  tracking_url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
  estimated_delivery: '2036-12-05T17:00:00.000Z',
};

beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  partner = await stack.createPartner();
  await stack.deps.catalog.upsertMany([SUPPLIES]);
});
afterAll(() => stack.close());

const bearer = () => ({ Authorization: `Bearer ${partner.apiKey}` });
const dollars = (cents: number) => cents / 100;

/** An organization in Chicago's zone with an approver; `buyer(limit)` adds a buyer with that monthly limit (cents). */
async function anOffice() {
  const body = aSetupBody({ timeZone: 'America/Chicago' });
  const approver = await provisionProfile(stack.deps, partner.partnerId, {
    ...body,
    user: { ...body.user, role: 'approver' },
  });
  const aggregate = async () =>
    (await stack.deps.organizations.getOrganization(partner.partnerId, body.internalOrgId))!;
  let count = 0;
  const buyer = async (limitCents: number): Promise<ProvisionedProfile> => {
    count += 1;
    return provisionProfile(stack.deps, partner.partnerId, {
      ...body,
      internalUserId: `${body.internalUserId}-${count}`,
      user: { ...body.user, email: `b${count}.${body.user.email}`, monthlyLimit: limitCents / 100 },
    });
  };
  const profileOf = async (who: ProvisionedProfile) => (await stack.deps.organizations.getProfile(who.profile.id))!;
  const place = async (who: ProvisionedProfile, quantity = 1) =>
    stack.deps.orderService.placeOrder({
      partner: { id: partner.partnerId },
      profile: await profileOf(who),
      organization: await aggregate(),
      items: [{ productId: SUPPLIES.productId, quantity }],
    });
  const scope = { partnerId: partner.partnerId };
  const move = (order: Order, action: string, input: unknown = {}) =>
    stack.deps.orderService.transition(order.id, action, input, scope);
  const delivered = async (order: Order) => {
    await move(order, 'confirm');
    await move(order, 'ship', SHIPMENT);
    return move(order, 'deliver', { signature: 'R. Front Desk' });
  };
  const spend = async (month: string = NOVEMBER) => {
    const response = await stack.get(`/v1/organizations/${body.internalOrgId}/spend?month=${month}`, bearer());
    expect(response.status, response.text).toBe(200);
    return response.body as {
      total: number;
      users: { internal_user_id: string; total: number; monthly_limit: number | null; remaining: number | null }[];
    };
  };
  return { body, approver, aggregate, buyer, profileOf, place, move, delivered, spend };
}

describe('a budget that gives back', () => {
  it('returns a cancelled order’s total to the month: the counter, the spend route and the next order agree', async () => {
    const office = await anOffice();
    const first = await office.place(await office.buyer(1_000_000));
    const ada = await office.buyer(first.totalCents);
    const order = await office.place(ada);
    // Full: the next order would go to approval.
    await expect(office.place(ada)).rejects.toMatchObject({ reason: 'monthly_limit' });
    const module = await signInToModule(stack, partner, ada);
    await stack.deps.cartService.add(ada.profile.id, SUPPLIES.productId, 1);
    const checkoutLine = async () =>
      /\$[\d,.]+ of \$[\d,.]+ spent this month/.exec(
        (await module.get(`${module.base}/checkout`)).text.replace(/<[^>]+>/g, ''),
      )?.[0];
    const limit = formatUsd(order.totalCents);
    expect(await checkoutLine()).toBe(`${limit} of ${limit} spent this month`);
    await office.move(order, 'cancel', { reason: 'ordered twice' });
    // The checkout's month line has the room back.
    expect(await checkoutLine()).toBe(`$0.00 of ${limit} spent this month`);

    expect(await stack.deps.orders.monthSpend(ada.profile.id, NOVEMBER)).toBe(0);
    const month = await stack.deps.orderService.monthSpend(await office.profileOf(ada), await office.aggregate());
    expect(month).toMatchObject({ spentCents: 0, limitCents: order.totalCents });
    const row = (await office.spend()).users.find((u) => u.internal_user_id === ada.profile.internalUserId);
    expect(row).toMatchObject({ total: 0, remaining: dollars(order.totalCents) });
    // The room is back: the next order is placed, not sent to approval.
    await expect(office.place(ada)).resolves.toMatchObject({ status: 'pending' });
  });

  it('returns each partial refund’s amount, and the full refund what was left', async () => {
    const office = await anOffice();
    const ada = await office.buyer(1_000_000);
    const order = await office.delivered(await office.place(ada, 3));
    await office.move(order, 'refund', { amount: 1.25 });
    expect(await stack.deps.orders.monthSpend(ada.profile.id, NOVEMBER)).toBe(order.totalCents - 125);
    await office.move(order, 'refund', { amount: 2 });
    expect(await stack.deps.orders.monthSpend(ada.profile.id, NOVEMBER)).toBe(order.totalCents - 325);
    await office.move(order, 'refund', {});
    expect(await stack.deps.orders.monthSpend(ada.profile.id, NOVEMBER)).toBe(0);
    const report = await office.spend();
    expect(report.total).toBe(0);
    expect(report.users.find((u) => u.internal_user_id === ada.profile.internalUserId)?.remaining).toBe(10_000);
  });

  it('gives back, for an order stored before its month was recorded, to the month of its placement in the zone', async () => {
    const office = await anOffice();
    const ada = await office.buyer(1_000_000);
    const start = stack.clock.now();
    let cancelled: Order;
    let refunded: Order;
    try {
      // 21:00 on 30 November in Chicago, already 1 December in UTC: placing counts both in November.
      stack.clock.set(new Date('2036-12-01T03:00:00.000Z'));
      cancelled = await office.place(ada);
      refunded = await office.delivered(await office.place(ada, 2));
    } finally {
      stack.clock.set(start);
    }
    // The stored orders as they were before `spendMonth` was recorded on them.
    for (const order of [cancelled, refunded])
      await stack.deps.aws.db.send(
        new UpdateCommand({
          TableName: tableName(stack.config.RESOURCE_PREFIX, 'orders'),
          Key: { pk: `ORDER#${order.id}`, sk: 'ORDER' },
          UpdateExpression: 'REMOVE #order.#month',
          ExpressionAttributeNames: { '#order': 'order', '#month': 'spendMonth' },
        }),
      );
    expect((await stack.deps.orders.get(cancelled.id))?.spendMonth).toBeUndefined();
    const total = cancelled.totalCents + refunded.totalCents;
    expect(await stack.deps.orders.monthSpend(ada.profile.id, NOVEMBER)).toBe(total);

    await office.move(cancelled, 'cancel', { reason: 'ordered twice' });
    expect(await stack.deps.orders.monthSpend(ada.profile.id, NOVEMBER)).toBe(refunded.totalCents);
    await office.move(refunded, 'refund', { amount: 1.5 });
    expect(await stack.deps.orders.monthSpend(ada.profile.id, NOVEMBER)).toBe(refunded.totalCents - 150);
    // December (UTC's month of the placement) is untouched: nothing was counted there.
    expect(await stack.deps.orders.monthSpend(ada.profile.id, '2036-12' as SpendMonth)).toBe(0);
    const row = (await office.spend()).users.find((u) => u.internal_user_id === ada.profile.internalUserId);
    expect(row?.total).toBe(dollars(refunded.totalCents - 150));
  });

  it('shows a past month with the limit that applied then, not today’s', async () => {
    const office = await anOffice();
    const ada = await office.buyer(150_000);
    await office.place(ada);
    const start = stack.clock.now();
    try {
      // December in Chicago: the limit is lowered, and November still says $1,500.
      stack.clock.set(new Date('2036-12-10T18:00:00.000Z'));
      const patched = await stack.patch(
        `/v1/organizations/${office.body.internalOrgId}/users/${ada.profile.internalUserId}`,
        { monthlyLimit: 500 },
        bearer(),
      );
      expect(patched.status, patched.text).toBe(200);
      const user = (report: Awaited<ReturnType<typeof office.spend>>) =>
        report.users.find((u) => u.internal_user_id === ada.profile.internalUserId);
      expect(user(await office.spend('2036-11'))).toMatchObject({ monthly_limit: 1500, remaining: null });
      expect(user(await office.spend('2036-12'))).toMatchObject({ monthly_limit: 500, remaining: 500 });
    } finally {
      stack.clock.set(start);
    }
  });
});

type Step =
  | { readonly kind: 'place'; readonly who: number; readonly quantity: number }
  | { readonly kind: 'approve' | 'reject' | 'withdraw'; readonly who: number; readonly quantity: number }
  | { readonly kind: 'cancel'; readonly pick: number }
  | { readonly kind: 'refund'; readonly pick: number; readonly cents: number | undefined };

const aStep: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('place' as const), who: fc.nat(1), quantity: fc.integer({ min: 1, max: 6 }) }),
  fc.record({
    kind: fc.constantFrom('approve' as const, 'reject' as const, 'withdraw' as const),
    who: fc.nat(1),
    quantity: fc.integer({ min: 1, max: 6 }),
  }),
  fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant('refund' as const),
    pick: fc.nat(),
    cents: fc.option(fc.integer({ min: 1, max: 4_000 }), { nil: undefined }),
  }),
);

describe('the month counter (property)', () => {
  it('is the sum of the month’s live orders after any concurrent orders, approvals, cancellations and refunds', async () => {
    // One organization; each run gets two new buyers (one whose $200 limit the steps reach), so runs stay cheap.
    const office = await anOffice();
    const approver = await office.profileOf(office.approver);
    const organization = await office.aggregate();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(aStep, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }),
        async (rounds) => {
          const buyers = [await office.buyer(20_000), await office.buyer(1_000_000)];
          const profiles = await Promise.all(buyers.map(office.profileOf));
          const placed: Order[] = [];
          const pickOf = (pick: number) => placed[pick % Math.max(placed.length, 1)];
          const run = async (step: Step) => {
            if (step.kind === 'place') {
              placed.push(await office.place(buyers[step.who]!, step.quantity));
            } else if ('who' in step) {
              const requester = profiles[step.who]!;
              const request = await stack.deps.approvalService.submit({
                partner: { id: partner.partnerId },
                profile: requester,
                organization,
                items: [{ productId: SUPPLIES.productId, quantity: step.quantity }],
              });
              if (step.kind === 'reject')
                await stack.deps.approvalService.reject({ requestId: request.id, approver, reason: 'No' });
              else if (step.kind === 'withdraw')
                await stack.deps.approvalService.withdraw({ requestId: request.id, requester });
              else {
                const approved = await stack.deps.approvalService.approve({ requestId: request.id, approver });
                placed.push((await stack.deps.orders.get(approved.orderId as Order['id']))!);
              }
            } else {
              const order = pickOf(step.pick);
              if (!order) return;
              const current = (await stack.deps.orders.get(order.id))!;
              if (step.kind === 'cancel') await office.move(current, 'cancel');
              else {
                const ready = current.status === 'delivered' ? current : await office.delivered(current);
                await office.move(ready, 'refund', step.cents === undefined ? {} : { amount: step.cents / 100 });
              }
            }
          };
          // Each round's steps run at once; a step refused by the rules (a limit, a status, a lost race) changes nothing.
          for (const round of rounds) await Promise.allSettled(round.map(run));

          // Every order of these buyers is one a step placed: read each back as stored now.
          const stored = await Promise.all(placed.map(async (order) => (await stack.deps.orders.get(order.id))!));
          const report = await office.spend();
          for (const buyer of buyers) {
            const live = stored
              .filter((o) => o.profileId === buyer.profile.id)
              .reduce((sum, o) => sum + countedCentsOf(o), 0);
            expect(await stack.deps.orders.monthSpend(buyer.profile.id, NOVEMBER)).toBe(live);
            const row = report.users.find((u) => u.internal_user_id === buyer.profile.internalUserId)!;
            expect(row.total).toBe(dollars(live));
            // The checkout's month line reads this.
            const line = await stack.deps.orderService.monthSpend(profiles[buyers.indexOf(buyer)]!, organization);
            expect(line.spentCents).toBe(live);
            expect(row.remaining).toBe(dollars(Math.max(line.limitCents! - live, 0)));
          }
          const users = report.users.reduce((sum, u) => sum + Math.round(u.total * 100), 0);
          expect(Math.round(report.total * 100)).toBe(users);
        },
      ),
      { numRuns: 12, seed: 45 },
    );
  }, 120_000);
});
