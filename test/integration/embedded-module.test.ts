/**
 * The procurement module over HTTP, as a browser without script uses it: pages are GETs,
 * every change a form post answered with 303 (Post/Redirect/Get). What the user sees is
 * asserted on the HTML; what changed, on the services.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductId } from '../../functions/domain/catalog/product';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { holdUntilAll } from '../support/arrival-gate';
import { aSetupBody, type ProvisionedProfile, provisionProfile } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';

const COOKIE = '__Host-embed_session';

let stack: TestStack;
let partner: { partnerId: PartnerId; apiKey: string };
beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  partner = await stack.createPartner();
});
afterAll(() => stack.close());

const base = () => `/embedded/${partner.partnerId}`;

interface Page {
  readonly status: number;
  readonly location: string | null;
  readonly text: string;
}

async function request(
  path: string,
  init: { cookie?: string; method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<Page> {
  const res = await fetch(`${stack.url}${path}`, {
    method: init.method ?? (init.form ? 'POST' : 'GET'),
    redirect: 'manual',
    headers: {
      ...(init.cookie ? { Cookie: `${COOKIE}=${init.cookie}` } : {}),
      ...(init.form ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
      ...init.headers,
    },
    ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
  });
  return { status: res.status, location: res.headers.get('location'), text: await res.text() };
}

/** A handshake and its redemption: the cookie the iframe now holds. */
async function signIn(profile: ProvisionedProfile): Promise<string> {
  const shake = await stack.post(
    '/v1/partner/handshake',
    { profile_id: profile.profile.id },
    { 'X-API-Key': partner.apiKey },
  );
  const redeemed = await fetch(shake.body.iframe_embed_url, { redirect: 'manual' });
  return /__Host-embed_session=([^;]*)/.exec(redeemed.headers.getSetCookie()[0] ?? '')?.[1] as string;
}

/** The form token the module's pages carry for this session. */
async function tokenOf(cookie: string): Promise<string> {
  const page = await request(base(), { cookie });
  return /name="csrf" value="([^"]+)"/.exec(page.text)?.[1] as string;
}

/** A form post from the module's own page (same origin, the page's token). */
async function submit(
  cookie: string,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = { 'Sec-Fetch-Site': 'same-origin' },
): Promise<Page> {
  return request(path, { cookie, form: { csrf: await tokenOf(cookie), ...fields }, headers });
}

const cartOf = async (buyer: ProvisionedProfile) =>
  (await stack.deps.cartService.view(buyer.profile.id)).lines.map((l) => [l.product.productId, l.quantity]);

describe('the procurement module', () => {
  it('shops, changes a quantity and places an order, each change answered with a redirect', async () => {
    const buyer = await provisionProfile(stack.deps, partner.partnerId);
    const cookie = await signIn(buyer);

    const search = await request(`${base()}?q=nitrile`, { cookie });
    expect(search.text).toContain('<label class="sr" for="q">Search supplies</label>');
    expect(search.text).toMatch(/Add<span class="sr"> Nitrile Exam Gloves[^<]*<\/span> to cart/);

    const added = await submit(cookie, `${base()}/cart/items`, { product_id: 'GLV-NIT-M-100', q: 'nitrile' });
    expect(added.status).toBe(303);
    expect(added.location).toBe(`${base()}?q=nitrile&added=GLV-NIT-M-100#card-GLV-NIT-M-100`);
    expect((await request(added.location as string, { cookie })).text).toMatch(
      /role="status"><span>Added <strong>Nitrile/,
    );

    await submit(cookie, `${base()}/cart/items`, { product_id: 'PPR-LTR-5000' });
    const changed = await submit(cookie, `${base()}/cart/items/GLV-NIT-M-100`, { action: 'update', quantity: '3' });
    expect(changed).toMatchObject({ status: 303, location: `${base()}/cart` });
    expect(await cartOf(buyer)).toEqual([
      ['GLV-NIT-M-100', 3],
      ['PPR-LTR-5000', 1],
    ]);
    expect((await request(`${base()}/cart`, { cookie })).text).toContain(
      'aria-label="Cart, 4 items">Cart <span class="count" aria-hidden="true">4</span>',
    );

    const placed = await submit(cookie, `${base()}/orders`, { location: buyer.locations[0]!.id });
    expect(placed.status).toBe(303);
    const orderId = /\/orders\/([0-9a-f-]{36})\?placed=1$/.exec(placed.location ?? '')?.[1] as string;
    const confirmation = await request(placed.location as string, { cookie });
    expect(confirmation.text).toContain('<h1>Order placed</h1>');
    expect(confirmation.text).toContain(orderId);
    expect(await cartOf(buyer)).toEqual([]);

    const orders = await request(`${base()}/orders`, { cookie });
    expect(orders.text).toContain(`Order ${orderId.slice(0, 8)}`);
    expect(orders.text).toContain('>Pending</span>');
  });

  it('places one order when the same checkout is submitted twice, and says so on the second', async () => {
    const buyer = await provisionProfile(stack.deps, partner.partnerId);
    const cookie = await signIn(buyer);
    await stack.deps.cartService.add(buyer.profile.id, 'GLV-NIT-M-100');
    const token = await tokenOf(cookie);
    const post = () =>
      request(`${base()}/orders`, { cookie, form: { csrf: token }, headers: { 'Sec-Fetch-Site': 'same-origin' } });

    const outcomes = await Promise.all([post(), post()]);
    const second = await post();

    expect(outcomes.filter((o) => o.status === 303)).toHaveLength(1);
    for (const refused of [...outcomes.filter((o) => o.status !== 303), second]) {
      expect(refused.status).toBe(409);
      expect(refused.text).toMatch(/Your cart (is empty|changed while ordering)/);
      expect(refused.text).not.toMatch(/at .*\.ts:\d+/);
    }
    const page = await stack.deps.orderService.listForOrganization(buyer.organization, {
      partnerId: partner.partnerId,
    });
    expect(page.orders).toHaveLength(1);
  });

  it('refuses a form post without the token, with a wrong one, or from another site: a 403 page, nothing changed', async () => {
    const buyer = await provisionProfile(stack.deps, partner.partnerId);
    const cookie = await signIn(buyer);
    await stack.deps.cartService.add(buyer.profile.id, 'GLV-NIT-M-100');
    const token = await tokenOf(cookie);
    const sameSite = { 'Sec-Fetch-Site': 'same-origin' };
    const otherSession = await tokenOf(await signIn(await provisionProfile(stack.deps, partner.partnerId)));

    const attempts: { form: Record<string, string>; headers: Record<string, string> }[] = [
      { form: { product_id: 'PPR-LTR-5000' }, headers: sameSite },
      { form: { product_id: 'PPR-LTR-5000', csrf: 'x'.repeat(43) }, headers: sameSite },
      { form: { product_id: 'PPR-LTR-5000', csrf: otherSession }, headers: sameSite },
      { form: { product_id: 'PPR-LTR-5000', csrf: token }, headers: { 'Sec-Fetch-Site': 'cross-site' } },
      { form: { product_id: 'PPR-LTR-5000', csrf: token }, headers: { Origin: 'https://evil.example' } },
    ];
    for (const attempt of attempts) {
      const res = await request(`${base()}/cart/items`, { cookie, ...attempt });
      expect(res.status).toBe(403);
      expect(res.text).toContain('<h1>Request refused</h1>');
    }
    const order = await request(`${base()}/orders`, { cookie, form: {}, headers: sameSite });
    expect(order.status).toBe(403);

    expect(await cartOf(buyer)).toEqual([['GLV-NIT-M-100', 1]]);
    expect(
      (await stack.deps.orderService.listForOrganization(buyer.organization, { partnerId: partner.partnerId })).orders,
    ).toEqual([]);
  });

  it("shows the not-found page for another organization's order, and for an id that is none", async () => {
    const other = await provisionProfile(stack.deps, partner.partnerId);
    await stack.deps.cartService.add(other.profile.id, 'GLV-NIT-M-100');
    const theirs = await stack.deps.orderService.placeOrder({
      partner: { id: partner.partnerId },
      profile: other.profile,
      organization: (await stack.deps.organizations.getOrganization(
        partner.partnerId,
        other.organization.internalOrgId,
      ))!,
    });
    const cookie = await signIn(await provisionProfile(stack.deps, partner.partnerId));

    for (const id of [theirs.id, 'not-an-order', '00000000-0000-4000-8000-000000000000']) {
      const res = await request(`${base()}/orders/${id}`, { cookie });
      expect(res.status).toBe(404);
      expect(res.text).toContain('<h1>Order not found</h1>');
      expect(res.text).not.toContain(theirs.id);
    }
    expect((await request(`${base()}/orders`, { cookie })).text).not.toContain(theirs.id.slice(0, 8));
  });

  it('escapes a product name containing a script tag on every page that shows it', async () => {
    const productId = 'XSS-TEST-1' as ProductId;
    await stack.deps.catalog.upsertMany([
      {
        productId,
        name: '<script>alert("x")</script> Gloves',
        description: 'A "quoted" & <b>bold</b> description',
        category: 'Gloves & PPE',
        priceCents: 1000,
        unit: "box of 'ten'",
        active: true,
        image: `${'0'.repeat(64)}.svg`,
      },
    ]);
    const buyer = await provisionProfile(stack.deps, partner.partnerId);
    const cookie = await signIn(buyer);
    await submit(cookie, `${base()}/cart/items`, { product_id: productId });

    for (const path of [
      `${base()}?q=XSS-TEST`,
      `${base()}?added=${productId}`,
      `${base()}/cart`,
      `${base()}/checkout`,
    ]) {
      const page = await request(path, { cookie });
      expect(page.status).toBe(200);
      expect(page.text).not.toContain('<script>');
      expect(page.text).not.toContain('<b>bold');
      expect(page.text).toContain('&lt;script>alert(&quot;x&quot;)&lt;/script> Gloves');
    }
  });

  describe('adds at once to one line', () => {
    /** `count` adds of one product posted together, each held after its cart read until all have read. */
    async function addTogether(buyer: ProvisionedProfile, cookie: string, count: number): Promise<number[]> {
      const csrf = await tokenOf(cookie);
      const gate = holdUntilAll(
        stack.deps.aws.db,
        count,
        ({ name, input }) =>
          /^Query(Command)?$/.test(name) && JSON.stringify(input).includes(`CART#${buyer.profile.id}`),
      );
      try {
        const posts = Array.from({ length: count }, () =>
          request(`${base()}/cart/items`, {
            cookie,
            form: { csrf, product_id: 'PPR-LTR-5000' },
            headers: { 'Sec-Fetch-Site': 'same-origin' },
          }),
        );
        return (await Promise.all(posts)).map((page) => page.status);
      } finally {
        gate.remove();
      }
    }

    it('counts every one of ten adds that read the same cart', async () => {
      const buyer = await provisionProfile(stack.deps, partner.partnerId);
      const cookie = await signIn(buyer);

      const statuses = await addTogether(buyer, cookie, 10);

      expect(statuses).toEqual(Array(10).fill(303));
      expect(await cartOf(buyer)).toEqual([['PPR-LTR-5000', 10]]);
    });

    it('never takes a line past 999, refusing the adds that would', async () => {
      const buyer = await provisionProfile(stack.deps, partner.partnerId);
      const cookie = await signIn(buyer);
      await stack.deps.cartService.changeQuantity(buyer.profile.id, 'PPR-LTR-5000', 995);

      const statuses = await addTogether(buyer, cookie, 10);

      expect(statuses.filter((status) => status === 303)).toHaveLength(4);
      expect(statuses.filter((status) => status === 400)).toHaveLength(6);
      expect(await cartOf(buyer)).toEqual([['PPR-LTR-5000', 999]]);
    });
  });

  describe("a form post larger than any of the module's forms", () => {
    /** A form post with the page's token first, then `extra` as it is, from the module's own page. */
    async function post(cookie: string, extra: string): Promise<Page> {
      const res = await fetch(`${stack.url}${base()}/cart/items`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          Cookie: `${COOKIE}=${cookie}`,
          'Content-Type': 'application/x-www-form-urlencoded',
          'Sec-Fetch-Site': 'same-origin',
        },
        body: `csrf=${await tokenOf(cookie)}&product_id=PPR-LTR-5000${extra}`,
      });
      return { status: res.status, location: res.headers.get('location'), text: await res.text() };
    }

    it.each([
      ['16 KiB of body and one byte more', (used: number) => `&q=${'a'.repeat(16 * 1024 - used - 3 + 1)}`],
      ['5 MB of body', () => `&q=${'a'.repeat(5_000_000)}`],
      ['201 fields', () => '&f'.repeat(199)],
      ['200,000 fields', () => '&f'.repeat(200_000)],
    ])('answers %s with the 413 "Form too large" page, changing nothing', async (_name, extra) => {
      const buyer = await provisionProfile(stack.deps, partner.partnerId);
      const cookie = await signIn(buyer);
      const used = `csrf=${await tokenOf(cookie)}&product_id=PPR-LTR-5000`.length;

      const res = await post(cookie, extra(used));

      expect(res.status).toBe(413);
      expect(res.text).toContain('<h1>Form too large</h1>');
      expect(await cartOf(buyer)).toEqual([]);
    });

    it('takes a form of exactly 16 KiB and 200 fields', async () => {
      const buyer = await provisionProfile(stack.deps, partner.partnerId);
      const cookie = await signIn(buyer);
      const used = `csrf=${await tokenOf(cookie)}&product_id=PPR-LTR-5000`.length;
      const fields = '&f'.repeat(197);

      const res = await post(cookie, `${fields}&q=${'a'.repeat(16 * 1024 - used - fields.length - 3)}`);

      expect(res.status).toBe(303);
      expect(await cartOf(buyer)).toEqual([['PPR-LTR-5000', 1]]);
    });
  });

  it('keeps the cart across a reload and a new handshake', async () => {
    const buyer = await provisionProfile(stack.deps, partner.partnerId);
    const first = await signIn(buyer);
    await submit(first, `${base()}/cart/items`, { product_id: 'PPR-LTR-5000' });

    const second = await signIn(buyer);
    const cart = await request(`${base()}/cart`, { cookie: second });
    expect(cart.text).toContain('Copy Paper, Letter, 20 lb');
    expect(cart.text).toContain('aria-label="Cart, 1 item"');
  });

  it('shows an empty cart at checkout as a page, and refuses to order it with a page too', async () => {
    const cookie = await signIn(await provisionProfile(stack.deps, partner.partnerId, aSetupBody()));
    const checkout = await request(`${base()}/checkout`, { cookie });
    expect(checkout.status).toBe(200);
    expect(checkout.text).toContain('<h1>Your cart is empty</h1>');

    const placed = await submit(cookie, `${base()}/orders`, {});
    expect(placed.status).toBe(409);
    expect(placed.text).toContain('<h1>Your cart is empty</h1>');
  });

  it('shows a quantity it cannot take as a page, leaving the cart as it was', async () => {
    const buyer = await provisionProfile(stack.deps, partner.partnerId);
    const cookie = await signIn(buyer);
    await stack.deps.cartService.add(buyer.profile.id, 'PPR-LTR-5000');
    for (const quantity of ['1000', 'two', '', '1e1']) {
      const res = await submit(cookie, `${base()}/cart/items/PPR-LTR-5000`, { action: 'update', quantity });
      expect(res.status).toBe(400);
      expect(res.text).toContain('<h1>Please check that</h1>');
    }
    expect(await cartOf(buyer)).toEqual([['PPR-LTR-5000', 1]]);
  });
});
