/**
 * `Edit and resubmit` in the embedded module over HTTP, as a browser without script uses it
 * (docs/module.md, "Approvals"): a rejected request's lines back in its requester's cart
 * (after a confirmation when the cart holds lines), submitted again as a new request linked
 * both ways, in the pages, the partner API and approval.requested; once only.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvalEventId } from '../../functions/domain/approvals/approval-events';
import type { Cents } from '../../functions/domain/money';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { OUTBOX_KEY_PREFIX, tableName } from '../../functions/resources/resource-definitions';
import { aProduct } from '../support/catalog-fixtures';
import { holdUntilAll } from '../support/arrival-gate';
import { type ModuleClient, signInToModule } from '../support/module-client';
import { aColleagueBody, aSetupBody, provisionProfile, type ProvisionedProfile } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;
let partner: { partnerId: PartnerId; apiKey: string };
const product = (id: string, name: string, priceCents: number) =>
  aProduct(id, { name, description: name, priceCents: priceCents as Cents, unit: 'box' });
const GAUZE = product('RSB-GAUZE', 'Gauze Sponges', 3000);
const MASKS = product('RSB-MASKS', 'Masks', 1250);
const GLOVES = product('RSB-GLOVES', 'Gloves', 900);

beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  partner = await stack.createPartner();
  await stack.deps.catalog.upsertMany([GAUZE, MASKS, GLOVES]);
});
afterAll(() => stack.close());

interface Person {
  readonly who: ProvisionedProfile;
  readonly module: ModuleClient;
}

/** An organization with a buyer limited to $50, a second buyer and an approver, each signed in. */
async function anOffice(): Promise<{ buyer: Person; approver: Person; colleague: Person }> {
  const body = aSetupBody();
  const person = async (id: string, first: string, extra: Record<string, unknown>): Promise<Person> => {
    const who = await provisionProfile(
      stack.deps,
      partner.partnerId,
      aColleagueBody(body, id, { firstName: first, ...extra }),
    );
    return { who, module: await signInToModule(stack, partner, who) };
  };
  return {
    buyer: await person('buyer', 'Ada', { orderLimit: 50 }),
    approver: await person('approver', 'Grace', { role: 'approver' }),
    colleague: await person('colleague', 'Mary', { orderLimit: 50 }),
  };
}

const requestIdIn = (location: string | null) => /\/approvals\/([0-9a-f-]{36})/.exec(location ?? '')?.[1] as string;
const cartOf = async (person: Person) =>
  (await stack.deps.cartService.view(person.who.profile.id)).lines.map((line) => [
    line.product.productId,
    line.quantity,
  ]);
const submitCart = (person: Person) =>
  person.module.submit(`${person.module.base}/approvals`, { location: person.who.locations[0]!.id });

/** $90 of gauze and 2 masks submitted and rejected: the request's id. */
async function aRejectedRequest(office: { buyer: Person; approver: Person }): Promise<string> {
  await stack.deps.cartService.add(office.buyer.who.profile.id, GAUZE.productId, 3);
  await stack.deps.cartService.add(office.buyer.who.profile.id, MASKS.productId, 2);
  const id = requestIdIn((await submitCart(office.buyer)).location);
  const rejected = await office.approver.module.submit(`${office.approver.module.base}/approvals/${id}/reject`, {
    reason: 'Fewer masks',
  });
  expect(rejected.status).toBe(303);
  return id;
}

const resubmitPath = (person: Person, id: string) => `${person.module.base}/approvals/${id}/resubmit`;
const BUTTON = '>Edit and resubmit</button>';

const requestedData = async (id: string) => {
  const { Item } = await stack.deps.aws.db.send(
    new GetCommand({
      TableName: tableName(stack.config.RESOURCE_PREFIX, 'orders'),
      Key: { pk: `${OUTBOX_KEY_PREFIX}${approvalEventId(id, 'approval.requested')}`, sk: 'OUTBOX' },
      ConsistentRead: true,
    }),
  );
  return (JSON.parse(Item?.message as string) as { data: Record<string, unknown> }).data;
};

describe('Edit and resubmit', () => {
  it('is offered to the requester of a rejected request only, never while it waits', async () => {
    const office = await anOffice();
    await stack.deps.cartService.add(office.buyer.who.profile.id, GAUZE.productId, 3);
    const id = requestIdIn((await submitCart(office.buyer)).location);
    expect((await office.buyer.module.get(`${office.buyer.module.base}/approvals/${id}`)).text).not.toContain(BUTTON);
    const early = await office.buyer.module.submit(resubmitPath(office.buyer, id), {});
    expect(early.status).toBe(409);
    expect(early.text).toContain('This request cannot be resubmitted');

    await office.approver.module.submit(`${office.approver.module.base}/approvals/${id}/reject`, { reason: 'No' });
    expect((await office.buyer.module.get(`${office.buyer.module.base}/approvals/${id}`)).text).toContain(BUTTON);
    expect((await office.approver.module.get(`${office.approver.module.base}/approvals/${id}`)).text).not.toContain(
      BUTTON,
    );
    const byApprover = await office.approver.module.submit(resubmitPath(office.approver, id), {});
    expect(byApprover.status).toBe(403);
    expect(await cartOf(office.approver)).toEqual([]);
  });

  it('asks before replacing a cart that holds lines, then replaces it and resubmits as a linked request', async () => {
    const office = await anOffice();
    const first = await aRejectedRequest(office);
    await stack.deps.cartService.add(office.buyer.who.profile.id, GLOVES.productId, 4);

    const asked = await office.buyer.module.submit(resubmitPath(office.buyer, first), {});
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('Replace your cart?');
    expect(asked.text).toContain('name="replace" value="1"');
    expect(await cartOf(office.buyer)).toEqual([[GLOVES.productId, 4]]);

    const replaced = await office.buyer.module.submit(resubmitPath(office.buyer, first), { replace: '1' });
    expect(replaced).toMatchObject({ status: 303, location: `${office.buyer.module.base}/cart?added=2` });
    expect(await cartOf(office.buyer)).toEqual([
      [GAUZE.productId, 3],
      [MASKS.productId, 2],
    ]);
    const cart = await office.buyer.module.get(replaced.location as string);
    expect(cart.text).toMatch(
      new RegExp(`This cart resubmits <a href="[^"]+/approvals/${first}">Request ${first.slice(0, 8)}</a>`),
    );

    const second = requestIdIn((await submitCart(office.buyer)).location);
    expect(second).not.toBe(first);
    const newPage = await office.buyer.module.get(`${office.buyer.module.base}/approvals/${second}`);
    expect(newPage.text).toContain(`Resubmits <a href="${office.buyer.module.base}/approvals/${first}">`);
    const oldPage = await office.buyer.module.get(`${office.buyer.module.base}/approvals/${first}`);
    expect(oldPage.text).toContain(`Resubmitted as <a href="${office.buyer.module.base}/approvals/${second}">`);
    expect(oldPage.text).not.toContain(BUTTON);
    expect((await stack.deps.cartService.view(office.buyer.who.profile.id)).resubmits).toBeUndefined();

    const headers = { Authorization: `Bearer ${partner.apiKey}` };
    expect((await stack.get(`/v1/approval-requests/${second}`, headers)).body).toMatchObject({
      id: second,
      resubmitted_from: first,
    });
    expect((await stack.get(`/v1/approval-requests/${first}`, headers)).body).toMatchObject({ resubmitted_from: null });
    expect(await requestedData(second)).toMatchObject({ resubmitted_from: first });
    expect(await requestedData(first)).toMatchObject({ resubmitted_from: null });

    // Resubmitted once: a second try is refused, naming the new request, and the cart is left alone.
    await stack.deps.cartService.add(office.buyer.who.profile.id, GLOVES.productId, 1);
    const again = await office.buyer.module.submit(resubmitPath(office.buyer, first), { replace: '1' });
    expect(again.status).toBe(409);
    expect(again.text).toContain('Already resubmitted');
    expect(again.text).toContain(`/approvals/${second}`);
    expect(await cartOf(office.buyer)).toEqual([[GLOVES.productId, 1]]);
  });

  it('an empty cart is filled at once; removing its last line drops the link, and a plain submission is not linked', async () => {
    const office = await anOffice();
    const first = await aRejectedRequest(office);
    expect(await cartOf(office.buyer)).toEqual([]);
    expect((await office.buyer.module.submit(resubmitPath(office.buyer, first), {})).status).toBe(303);
    expect((await stack.deps.cartService.view(office.buyer.who.profile.id)).resubmits).toBe(first);
    for (const { productId } of [GAUZE, MASKS])
      await office.buyer.module.submit(`${office.buyer.module.base}/cart/items/${productId}`, { action: 'remove' });
    await stack.deps.cartService.add(office.buyer.who.profile.id, GAUZE.productId, 3);
    const plain = requestIdIn((await submitCart(office.buyer)).location);
    expect(
      (await stack.get(`/v1/approval-requests/${plain}`, { Authorization: `Bearer ${partner.apiKey}` })).body,
    ).toMatchObject({
      resubmitted_from: null,
    });
    // The first may still be resubmitted.
    expect((await office.buyer.module.get(`${office.buyer.module.base}/approvals/${first}`)).text).toContain(BUTTON);
  });

  it('a double click of Edit and resubmit, then of Submit for approval, gives one new request', async () => {
    const office = await anOffice();
    const first = await aRejectedRequest(office);
    const together = async (
      count: number,
      matches: (input: string) => boolean,
      post: () => Promise<{ status: number }>,
    ) => {
      const gate = holdUntilAll(
        stack.deps.aws.db,
        count,
        ({ name, input }) => name === 'TransactWriteCommand' && matches(JSON.stringify(input)),
      );
      try {
        return (await Promise.all(Array.from({ length: count }, post))).map((page) => page.status);
      } finally {
        gate.remove();
      }
    };
    const cartKey = `CART#${office.buyer.who.profile.id}`;
    // Both clicks read the empty cart, then write at once: one wins, the other finds the cart already resubmitting.
    expect(
      await together(
        2,
        (input) => input.includes('RESUBMIT') && input.includes(cartKey),
        () => office.buyer.module.submit(resubmitPath(office.buyer, first), {}),
      ),
    ).toEqual([303, 303]);
    expect(await cartOf(office.buyer)).toEqual([
      [GAUZE.productId, 3],
      [MASKS.productId, 2],
    ]);
    const statuses = await together(
      2,
      (input) => input.includes(`APPROVAL#${first}`),
      () => submitCart(office.buyer),
    );
    expect(statuses.sort()).toEqual([303, 409]);
    const page = await stack.get(`/v1/organizations/${office.buyer.who.organization.internalOrgId}/approval-requests`, {
      Authorization: `Bearer ${partner.apiKey}`,
    });
    const linked = (page.body.data as { id: string; resubmitted_from: string | null }[]).filter(
      (request) => request.resubmitted_from === first,
    );
    expect(linked).toHaveLength(1);
  });

  it("keeps the request's PO number and notes: checkout's fields start with them", async () => {
    const office = await anOffice();
    await stack.deps.cartService.add(office.buyer.who.profile.id, GAUZE.productId, 3);
    const first = requestIdIn(
      (
        await office.buyer.module.submit(`${office.buyer.module.base}/approvals`, {
          location: office.buyer.who.locations[0]!.id,
          po_number: 'PO-7781',
          notes: 'Leave at the back door',
        })
      ).location,
    );
    await office.approver.module.submit(`${office.approver.module.base}/approvals/${first}/reject`, { reason: 'No' });
    expect((await office.buyer.module.submit(resubmitPath(office.buyer, first), {})).status).toBe(303);

    const checkout = await office.buyer.module.get(`${office.buyer.module.base}/checkout`);
    expect(checkout.text).toMatch(/id="po_number"[^>]*value="PO-7781"/);
    expect(checkout.text).toMatch(/<textarea id="notes"[^>]*>Leave at the back door<\/textarea>/);
  });

  it("another organization's request, or a colleague's, is the not-found page and changes nothing", async () => {
    const office = await anOffice();
    const elsewhere = await anOffice();
    const id = await aRejectedRequest(elsewhere);
    await stack.deps.cartService.add(office.buyer.who.profile.id, GLOVES.productId, 1);
    for (const person of [office.buyer, elsewhere.colleague]) {
      const refused = await person.module.submit(resubmitPath(person, id), { replace: '1' });
      expect(refused.status).toBe(404);
      expect(refused.text).toContain('Approval request not found');
    }
    expect(await cartOf(office.buyer)).toEqual([[GLOVES.productId, 1]]);
    expect(await cartOf(elsewhere.colleague)).toEqual([]);
  });
});
