/**
 * Module forms whose bytes are not UTF-8 (docs/module.md, "Forms"): every form answers 400
 * with the module's problem page and changes nothing, as the API refuses the same bytes
 * with INVALID_UTF8. Before, they were stored as U+FFFD and signed into webhooks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { aProduct } from '../support/catalog-fixtures';
import { type ModuleClient, signInToModule } from '../support/module-client';
import { aSetupBody, provisionProfile, type ProvisionedProfile } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;
let partner: { partnerId: PartnerId; apiKey: string };
const GAUZE = aProduct('UTF-GAUZE');

beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  partner = await stack.createPartner();
  await stack.deps.catalog.upsertMany([GAUZE]);
});
afterAll(() => stack.close());

/** Not UTF-8, as raw bytes or percent-encoded the way a browser's form would send them. */
const NOT_UTF8: [string, Buffer][] = [
  ['a raw 0xFF byte', Buffer.from([0xff])],
  ['a raw truncated sequence', Buffer.from([0x41, 0xe2, 0x82])],
  ['a percent-encoded 0xFF', Buffer.from('%FF')],
  ['a percent-encoded overlong "/"', Buffer.from('%C0%AF')],
  ['a percent-encoded surrogate', Buffer.from('%ED%A0%80')],
];

interface Person {
  readonly who: ProvisionedProfile;
  readonly module: ModuleClient;
}

/** A buyer limited to $50 and an approver, each signed in. */
async function anOffice(): Promise<{ buyer: Person; approver: Person }> {
  const body = aSetupBody();
  const person = async (id: string, extra: Record<string, unknown>): Promise<Person> => {
    const who = await provisionProfile(stack.deps, partner.partnerId, {
      ...body,
      internalUserId: `${id}-${body.internalUserId}`,
      user: { firstName: id, lastName: 'Tester', email: `${id}.${body.internalUserId}@acme.test`, ...extra },
    });
    return { who, module: await signInToModule(stack, partner, who) };
  };
  return { buyer: await person('buyer', { orderLimit: 50 }), approver: await person('approver', { role: 'approver' }) };
}

/** A form post from the module's own page (its token, same origin), `fields` as written and then `field=<bytes>`. */
async function postBytes(person: Person, path: string, fields: string, field: string, bytes: Buffer) {
  const token = /name="csrf" value="([^"]+)"/.exec((await person.module.get(person.module.base)).text)?.[1] as string;
  const res = await fetch(`${stack.url}${person.module.base}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      Cookie: person.module.cookie,
      'Content-Type': 'application/x-www-form-urlencoded',
      'Sec-Fetch-Site': 'same-origin',
    },
    body: new Uint8Array(Buffer.concat([Buffer.from(`csrf=${token}&${fields}&${field}=`), bytes])),
  });
  return { status: res.status, text: await res.text() };
}

const cartOf = async (person: Person) =>
  (await stack.deps.cartService.view(person.who.profile.id)).lines.map((l) => [l.product.productId, l.quantity]);
const guideOf = async (person: Person) =>
  (await stack.deps.functions.embed.orderGuide.view(person.who.organization.id)).map((e) => [
    e.line.productId,
    e.line.quantity,
  ]);
const ordersOf = async (person: Person) =>
  (await stack.deps.orders.listByOrganization(person.who.organization.id)).orders;
const requestsOf = async (person: Person) =>
  (await stack.deps.approvalService.listForOrganization(person.who.organization)).requests;

const expectProblemPage = (res: { status: number; text: string }) => {
  expect(res.status).toBe(400);
  expect(res.text).toContain('<h1>Text not readable</h1>');
};

describe('a module form that is not UTF-8', () => {
  it.each(NOT_UTF8)('checkout: a PO number with %s places nothing', async (_name, bytes) => {
    const { buyer } = await anOffice();
    await stack.deps.cartService.add(buyer.who.profile.id, GAUZE.productId, 1);

    const res = await postBytes(buyer, '/orders', `location=${buyer.who.locations[0]!.id}`, 'po_number', bytes);

    expectProblemPage(res);
    expect(await ordersOf(buyer)).toEqual([]);
    expect(await cartOf(buyer)).toEqual([[GAUZE.productId, 1]]);
  });

  it.each(NOT_UTF8)('submit for approval: notes with %s submit nothing', async (_name, bytes) => {
    const { buyer } = await anOffice();
    await stack.deps.cartService.add(buyer.who.profile.id, GAUZE.productId, 3);

    const res = await postBytes(buyer, '/approvals', `location=${buyer.who.locations[0]!.id}`, 'notes', bytes);

    expectProblemPage(res);
    expect(await requestsOf(buyer)).toEqual([]);
    expect(await cartOf(buyer)).toEqual([[GAUZE.productId, 3]]);
  });

  it.each(NOT_UTF8)('approval reject: a reason with %s decides nothing', async (_name, bytes) => {
    const { buyer, approver } = await anOffice();
    await stack.deps.cartService.add(buyer.who.profile.id, GAUZE.productId, 3);
    await buyer.module.submit(`${buyer.module.base}/approvals`, { location: buyer.who.locations[0]!.id });
    const [request] = await requestsOf(buyer);

    const res = await postBytes(approver, `/approvals/${request!.id}/reject`, 'x=1', 'reason', bytes);

    expectProblemPage(res);
    expect((await requestsOf(buyer)).map((r) => r.status)).toEqual(['pending']);
  });

  it.each([
    ['cart add', '/cart/items', `product_id=${GAUZE.productId}`, 'q'],
    ['cart quantity', `/cart/items/${GAUZE.productId}`, 'action=update&quantity=2', 'q'],
    ['order guide add', '/order-guide/items', `product_id=${GAUZE.productId}&quantity=3`, 'from'],
  ])('%s: a field with invalid bytes changes nothing', async (_name, path, fields, field) => {
    const { buyer } = await anOffice();
    await stack.deps.cartService.add(buyer.who.profile.id, GAUZE.productId, 1);

    for (const [, bytes] of NOT_UTF8) expectProblemPage(await postBytes(buyer, path, fields, field, bytes));

    expect(await cartOf(buyer)).toEqual([[GAUZE.productId, 1]]);
    expect(await guideOf(buyer)).toEqual([]);
  });

  it('takes UTF-8 beyond ASCII, raw or percent-encoded, and reads "+" and a stray "%" as before', async () => {
    const { buyer } = await anOffice();
    await stack.deps.cartService.add(buyer.who.profile.id, GAUZE.productId, 1);

    const res = await postBytes(
      buyer,
      '/orders',
      `location=${buyer.who.locations[0]!.id}`,
      'po_number',
      Buffer.from('é%F0%9F%98%80+50%+off%zz'),
    );

    expect(res.status).toBe(303);
    expect((await ordersOf(buyer)).map((o) => o.poNumber)).toEqual(['é😀 50% off%zz']);
  });
});
