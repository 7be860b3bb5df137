/**
 * Approvals in the embedded module over HTTP, as a browser without script uses it
 * (docs/module.md, "Approvals"): checkout above the user's limit submits for approval,
 * approvers see the waiting count and decide, the requester follows and withdraws, and
 * every refusal is a page from the error table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { aProduct } from '../support/catalog-fixtures';
import { type ModuleClient, signInToModule } from '../support/module-client';
import { aColleagueBody, aSetupBody, provisionProfile, type ProvisionedProfile } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;
let partner: { partnerId: PartnerId; apiKey: string };
const GAUZE = aProduct('MOD-GAUZE');

beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  partner = await stack.createPartner();
  await stack.deps.catalog.upsertMany([GAUZE]);
});
afterAll(() => stack.close());

interface Person {
  readonly who: ProvisionedProfile;
  readonly module: ModuleClient;
}

/** An organization with a buyer limited to $50 and two approvers, each signed in. */
async function anOffice(): Promise<{ buyer: Person; approver: Person; other: Person }> {
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
    other: await person('other', 'Katherine', { role: 'approver', orderLimit: 10 }),
  };
}

const cartOf = async (person: Person) =>
  (await stack.deps.cartService.view(person.who.profile.id)).lines.map((line) => [
    line.product.productId,
    line.quantity,
  ]);
const requestIdIn = (location: string | null) => /\/approvals\/([0-9a-f-]{36})/.exec(location ?? '')?.[1] as string;

/** Puts $90 of gauze in the cart and submits it from checkout, as its form does. */
async function submit(person: Person, fields: Record<string, string> = {}) {
  await stack.deps.cartService.add(person.who.profile.id, GAUZE.productId, 3);
  return person.module.submit(`${person.module.base}/approvals`, { location: person.who.locations[0]!.id, ...fields });
}

describe('checkout above the limit', () => {
  it('offers Submit for approval instead of Place order, and refuses the order itself', async () => {
    const { buyer } = await anOffice();
    await stack.deps.cartService.add(buyer.who.profile.id, GAUZE.productId, 1);
    const within = await buyer.module.get(`${buyer.module.base}/checkout`);
    expect(within.text).toContain('>Place order</button>');
    expect(within.text).not.toContain('Submit for approval');

    await stack.deps.cartService.add(buyer.who.profile.id, GAUZE.productId, 1);
    const above = await buyer.module.get(`${buyer.module.base}/checkout`);
    expect(above.text).toContain('>Submit for approval</button>');
    expect(above.text).not.toContain('>Place order</button>');
    expect(above.text).toMatch(/<form method="post" action="[^"]+\/approvals" class="two" data-checkout/);
    expect(above.text).toContain('above your order limit of $50.00');

    const refused = await buyer.module.submit(`${buyer.module.base}/orders`, { location: buyer.who.locations[0]!.id });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('<h1>This order needs approval</h1>');
    expect(await cartOf(buyer)).toEqual([[GAUZE.productId, 2]]);
    expect((await stack.deps.orders.listByOrganization(buyer.who.organization.id)).orders).toEqual([]);
  });
});

describe('submitting, deciding, following', () => {
  it('submit → "Submitted for approval"; the approver sees "Approvals (1 waiting)", approves; the requester sees the order', async () => {
    const { buyer, approver } = await anOffice();
    const submitted = await submit(buyer, { po_number: 'PO-9', notes: 'Front\r\ndesk' });
    expect(submitted.status).toBe(303);
    expect(submitted.location).toMatch(/\/approvals\/[0-9a-f-]{36}\?submitted=1$/);
    const id = requestIdIn(submitted.location);
    const page = await buyer.module.get(submitted.location as string);
    expect(page.text).toContain('<h1>Submitted for approval</h1>');
    expect(page.text).toContain('Front desk');
    expect(page.text).toContain('aria-label="Withdraw request');
    expect(page.text).not.toContain('>Approve</button>');
    expect(await cartOf(buyer)).toEqual([]);
    // Buyers have no Approvals link.
    expect(page.text).not.toContain('Approvals (');

    const home = await approver.module.get(approver.module.base);
    expect(home.text).toContain(
      'Approvals <span class="count" aria-hidden="true">1</span><span class="sr"> (1 waiting)</span>',
    );
    const list = await approver.module.get(`${approver.module.base}/approvals`);
    expect(list.text).toContain('<h2>Waiting for a decision (1)</h2>');
    // The approver's intro names both limits an order can wait for.
    expect(list.text).toMatch(
      /order limit, or taking the buyer(&#x27;|’|')s month above their monthly limit, wait here/,
    );
    expect(list.text).toContain(`Request ${id.slice(0, 8)}`);
    expect(list.text).toContain(`Ada Tester · ${buyer.who.profile.email}`);
    expect(list.text).toContain('Gauze Sponges × 3');
    expect(list.text).toContain('PO PO-9');
    expect(list.text).toContain('waiting 0 minutes');
    const shown = await approver.module.get(`${approver.module.base}/approvals/${id}`);
    expect(shown.text).toContain('>Approve</button>');
    // A crafted link cannot make a waiting request look decided.
    const crafted = await approver.module.get(`${approver.module.base}/approvals/${id}?done=approved`);
    expect(crafted.text).not.toContain('You approved this request');
    expect(crafted.text).toContain('>Approve</button>');
    expect(shown.text).toContain('<label for="reason">Reason for rejecting</label>');

    // Within the session's 30 idle minutes.
    stack.clock.advance(20 * 60 * 1000);
    expect((await approver.module.get(`${approver.module.base}/approvals`)).text).toContain('waiting 20 minutes');
    const approved = await approver.module.submit(`${approver.module.base}/approvals/${id}/approve`, {});
    expect(approved).toMatchObject({ status: 303, location: `${approver.module.base}/approvals/${id}?done=approved` });
    const after = await approver.module.get(approved.location as string);
    expect(after.text).toContain('You approved this request, and its order was placed.');
    // Only to the approver who did: the requester reading the same link is not told they approved it.
    expect((await buyer.module.get(`${buyer.module.base}/approvals/${id}?done=approved`)).text).not.toContain(
      'You approved this request',
    );
    expect(after.text).toContain(
      'Approvals <span class="count" aria-hidden="true">0</span><span class="sr"> (0 waiting)</span>',
    );
    const [order] = (await stack.deps.orders.listByOrganization(buyer.who.organization.id)).orders;
    expect(after.text).toContain(`href="${approver.module.base}/orders/${order!.id}"`);

    const orders = await buyer.module.get(`${buyer.module.base}/orders`);
    expect(orders.text).toContain('<h2>Your approval requests</h2>');
    expect(orders.text).toContain(`Order ${order!.id.slice(0, 8)}`);
    expect(orders.text).toContain('>Approved</span>');
    const orderPage = await buyer.module.get(`${buyer.module.base}/orders/${order!.id}`);
    expect(orderPage.text).toContain(`approved by Grace Tester (${approver.who.profile.email})`);
  });

  it('approve takes an optional comment (at most 500 characters), which the requester reads on the request and its order', async () => {
    const { buyer, approver } = await anOffice();
    const id = requestIdIn((await submit(buyer)).location);
    const shown = await approver.module.get(`${approver.module.base}/approvals/${id}`);
    expect(shown.text).toContain('<label for="comment">Comment for the requester (optional)</label>');
    const tooLong = await approver.module.submit(`${approver.module.base}/approvals/${id}/approve`, {
      comment: 'x'.repeat(501),
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.text).toContain('<h1>Please check that</h1>');

    const approved = await approver.module.submit(`${approver.module.base}/approvals/${id}/approve`, {
      comment: 'Fine this once: next time <ask> first',
    });
    expect(approved).toMatchObject({ status: 303, location: `${approver.module.base}/approvals/${id}?done=approved` });
    const said = '<span data-testid="approval-comment">Fine this once: next time &lt;ask> first</span>';
    expect((await buyer.module.get(`${buyer.module.base}/approvals/${id}`)).text).toContain(said);
    const [order] = (await stack.deps.orders.listByOrganization(buyer.who.organization.id)).orders;
    expect((await buyer.module.get(`${buyer.module.base}/orders/${order!.id}`)).text).toContain(said);
  });

  it('refuses a line break in the comment or the reason, as the partner API does: one rule, nothing decided', async () => {
    const { buyer, approver } = await anOffice();
    const id = requestIdIn((await submit(buyer)).location);
    const shown = await approver.module.get(`${approver.module.base}/approvals/${id}`);
    expect(shown.text).toContain('<input type="text" id="comment" name="comment"');
    expect(shown.text).toContain('<input type="text" id="reason" name="reason"');
    for (const [action, field] of [
      ['approve', 'comment'],
      ['reject', 'reason'],
    ] as const) {
      const inModule = await approver.module.submit(`${approver.module.base}/approvals/${id}/${action}`, {
        [field]: 'Fine this once:\r\nnext time ask first',
      });
      expect(inModule.status).toBe(400);
      expect(inModule.text).toContain('must not contain control or bidirectional-override characters');
      const byApi = await stack.post(
        `/v1/sandbox/approval-requests/${id}/${action}`,
        { internal_user_id: approver.who.profile.internalUserId, [field]: 'Fine this once:\r\nnext time ask first' },
        { Authorization: `Bearer ${partner.apiKey}` },
      );
      expect(byApi.status).toBe(400);
      expect(byApi.body.details).toMatchObject([{ code: 'CONTROL_CHARACTER', path: [field] }]);
    }
    expect((await approver.module.get(`${approver.module.base}/approvals/${id}`)).text).toContain('>Approve</button>');
  });

  it('reject needs a reason, which the requester then reads on their orders page', async () => {
    const { buyer, approver } = await anOffice();
    const id = requestIdIn((await submit(buyer)).location);
    const missing = await approver.module.submit(`${approver.module.base}/approvals/${id}/reject`, { reason: '   ' });
    expect(missing.status).toBe(400);
    expect(missing.text).toContain('<h1>Please check that</h1>');
    const tooLong = await approver.module.submit(`${approver.module.base}/approvals/${id}/reject`, {
      reason: 'x'.repeat(501),
    });
    expect(tooLong.status).toBe(400);

    const rejected = await approver.module.submit(`${approver.module.base}/approvals/${id}/reject`, {
      reason: 'Over budget: ask in March',
    });
    expect(rejected).toMatchObject({ status: 303, location: `${approver.module.base}/approvals/${id}?done=rejected` });
    const orders = await buyer.module.get(`${buyer.module.base}/orders`);
    expect(orders.text).toContain('>Rejected</span>');
    expect(orders.text).toContain('<span data-testid="rejection-reason">Over budget: ask in March</span>');
    expect(orders.text).not.toContain('aria-label="Withdraw request');
  });

  it('the requester withdraws a waiting request and gets the products back; the approver who comes second is told', async () => {
    const { buyer, approver } = await anOffice();
    const id = requestIdIn((await submit(buyer)).location);
    const orders = await buyer.module.get(`${buyer.module.base}/orders`);
    expect(orders.text).toContain('Waiting for approval');
    expect(orders.text).toMatch(
      new RegExp(`<form method="post" action="[^"]+/approvals/${id}/withdraw"><input type="hidden" name="csrf"`),
    );

    const withdrawn = await buyer.module.submit(`${buyer.module.base}/approvals/${id}/withdraw`, {});
    expect(withdrawn).toMatchObject({ status: 303, location: `${buyer.module.base}/approvals/${id}?done=withdrawn` });
    expect((await buyer.module.get(withdrawn.location as string)).text).toContain('back in your cart');
    expect(await cartOf(buyer)).toEqual([[GAUZE.productId, 3]]);

    const late = await approver.module.submit(`${approver.module.base}/approvals/${id}/approve`, {});
    expect(late.status).toBe(409);
    expect(late.text).toContain('<h1>Withdrawn by the requester</h1>');
    expect((await stack.deps.orders.listByOrganization(buyer.who.organization.id)).orders).toEqual([]);
    const again = await buyer.module.submit(`${buyer.module.base}/approvals/${id}/withdraw`, {});
    expect(again.status).toBe(409);
  });

  it('refuses self-approval, decisions by buyers and forged posts; hides requests from other buyers', async () => {
    const { buyer, approver, other } = await anOffice();
    const own = requestIdIn((await submit(other)).location);
    const ownPage = await other.module.get(`${other.module.base}/approvals/${own}`);
    expect(ownPage.text).not.toContain('>Approve</button>');
    expect(ownPage.text).toContain('Another approver of your organization decides on it.');
    const self = await other.module.submit(`${other.module.base}/approvals/${own}/approve`, {});
    expect(self.status).toBe(403);
    expect(self.text).toContain('<h1>This is your own request</h1>');
    expect((await buyer.module.get(`${buyer.module.base}/approvals/${own}`)).status).toBe(404);
    const byBuyer = await buyer.module.submit(`${buyer.module.base}/approvals/${own}/approve`, {});
    // Hidden from the buyer's pages, but a decision is refused for what it is: buyers do not decide.
    expect(byBuyer.status).toBe(403);
    expect(byBuyer.text).toContain('<h1>Only approvers decide requests</h1>');

    const forged = await fetch(`${stack.url}${approver.module.base}/approvals/${own}/approve`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        Cookie: approver.module.cookie,
        'Content-Type': 'application/x-www-form-urlencoded',
        'Sec-Fetch-Site': 'same-origin',
      },
      body: 'csrf=wrong',
    });
    expect(forged.status).toBe(403);
    expect((await stack.deps.approvalService.get(own, { partnerId: partner.partnerId })).status).toBe('pending');
    expect(
      (await approver.module.get(`${approver.module.base}/approvals/${'0'.repeat(8)}-0000-4000-8000-000000000000`))
        .status,
    ).toBe(404);
    expect((await approver.module.submit(`${approver.module.base}/approvals/${own}/approve`, {})).status).toBe(303);
  });

  it('a buyer’s Approvals page lists their own requests only', async () => {
    const { buyer, other } = await anOffice();
    const mine = requestIdIn((await submit(buyer)).location);
    const theirs = requestIdIn((await submit(other)).location);
    const page = await buyer.module.get(`${buyer.module.base}/approvals`);
    expect(page.text).toContain('<h1>Your approval requests</h1>');
    expect(page.text).toContain(`Request ${mine.slice(0, 8)}`);
    expect(page.text).not.toContain(`Request ${theirs.slice(0, 8)}`);
  });
});
