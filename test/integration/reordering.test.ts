/**
 * Ordering again: Buy again on an order's page, the orders list's Status filter, and the
 * organization's shared order guide, as a browser without script uses them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductId } from '../../functions/domain/catalog/product';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { signInToModule } from '../support/module-client';
import { aSetupBody, provisionProfile, type ProvisionedProfile } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;
let partner: { partnerId: PartnerId; apiKey: string };
beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  partner = await stack.createPartner();
  await stack.deps.catalog.upsertMany([
    {
      productId: 'SOON-GONE-1' as ProductId,
      name: 'Seasonal Hand Soap',
      description: 'Lavender',
      category: 'Cleaning',
      priceCents: 450,
      unit: 'bottle',
      active: true,
      image: `${'0'.repeat(64)}.svg`,
    },
  ]);
});
afterAll(() => stack.close());

const cartOf = async (buyer: ProvisionedProfile) =>
  (await stack.deps.cartService.view(buyer.profile.id)).lines.map((l) => [l.product.productId, l.quantity]);
const guideOf = async (buyer: ProvisionedProfile) =>
  (await stack.deps.functions.embed.orderGuide.view(buyer.organization.id)).map((e) => [
    e.line.productId,
    e.line.quantity,
  ]);
const organizationOf = async (buyer: ProvisionedProfile) =>
  (await stack.deps.organizations.getOrganization(partner.partnerId, buyer.organization.internalOrgId))!;
const setActive = async (productId: string, active: boolean) => {
  const product = (await stack.deps.catalog.get([productId as ProductId])).get(productId as ProductId)!;
  await stack.deps.catalog.upsertMany([{ ...product, active }]);
};

async function placed(buyer: ProvisionedProfile, items: { productId: string; quantity: number }[]) {
  return stack.deps.orderService.placeOrder({
    partner: { id: partner.partnerId },
    profile: buyer.profile,
    organization: await organizationOf(buyer),
    items: items.map((i) => ({ productId: i.productId as ProductId, quantity: i.quantity })),
  });
}

describe('Buy again', () => {
  it("puts the order's lines in the cart at today's prices, adding to what is there, capped at 999, and names what is no longer sold", async () => {
    const buyer = await provisionProfile(stack.deps, partner.partnerId);
    const module = await signInToModule(stack, partner, buyer);
    const order = await placed(buyer, [
      { productId: 'GLV-NIT-M-100', quantity: 3 },
      { productId: 'PPR-LTR-5000', quantity: 960 },
      { productId: 'SOON-GONE-1', quantity: 2 },
    ]);
    await stack.deps.cartService.add(buyer.profile.id, 'PPR-LTR-5000', 50);
    await setActive('SOON-GONE-1', false);
    stack.clock.advance(1000);
    try {
      const page = await module.get(`${module.base}/orders/${order.id}`);
      expect(page.text).toMatch(
        /<form class="buy-again" method="post" action="[^"]+\/buy-again"><input type="hidden" name="csrf"/,
      );
      expect(page.text).toContain('>Buy again</button>');

      const again = await module.submit(`${module.base}/orders/${order.id}/buy-again`, {});
      expect(again.status).toBe(303);
      expect(again.location).toBe(`${module.base}/cart?added=2&skipped=SOON-GONE-1`);
      expect(await cartOf(buyer)).toEqual([
        ['PPR-LTR-5000', 999],
        ['GLV-NIT-M-100', 3],
      ]);
      const cart = await module.get(again.location as string);
      expect(cart.text).toContain('Added 2 products to your cart. No longer sold, so not added: Seasonal Hand Soap.');
    } finally {
      await setActive('SOON-GONE-1', true);
    }
  });

  it("refuses a forged Buy again, and another organization's order, changing nothing", async () => {
    const buyer = await provisionProfile(stack.deps, partner.partnerId);
    const module = await signInToModule(stack, partner, buyer);
    const mine = await placed(buyer, [{ productId: 'GLV-NIT-M-100', quantity: 1 }]);
    const theirs = await placed(await provisionProfile(stack.deps, partner.partnerId), [
      { productId: 'PPR-LTR-5000', quantity: 1 },
    ]);

    const forged = await fetch(`${stack.url}${module.base}/orders/${mine.id}/buy-again`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        Cookie: module.cookie,
        'Content-Type': 'application/x-www-form-urlencoded',
        'Sec-Fetch-Site': 'same-origin',
      },
      body: 'csrf=wrong',
    });
    expect(forged.status).toBe(403);
    const foreign = await module.submit(`${module.base}/orders/${theirs.id}/buy-again`, {});
    expect(foreign.status).toBe(404);
    expect(foreign.text).toContain('<h1>Order not found</h1>');
    expect(await cartOf(buyer)).toEqual([]);
  });
});

describe('the orders list', () => {
  it('filters by status with a GET form, and its pages keep the filter', async () => {
    const buyer = await provisionProfile(stack.deps, partner.partnerId);
    const module = await signInToModule(stack, partner, buyer);
    const orders = [];
    for (let i = 0; i < 23; i += 1) {
      stack.clock.advance(1000);
      orders.push(await placed(buyer, [{ productId: 'GLV-NIT-M-100', quantity: 1 }]));
    }
    for (const order of orders.slice(0, 22))
      await stack.deps.orderService.transition(order.id, 'confirm', {}, { partnerId: partner.partnerId });

    const all = await module.get(`${module.base}/orders`);
    expect(all.text).toContain(
      '<label for="status">Status</label><select id="status" name="status" data-apply-on-change="true">',
    );
    expect(all.text).toContain('<form class="filter" method="get"');

    const confirmed = await module.get(`${module.base}/orders?status=confirmed`);
    expect(confirmed.text).toContain('<option value="confirmed" selected>Confirmed</option>');
    expect(confirmed.text.match(/>Confirmed<\/span>/g)).toHaveLength(20);
    expect(confirmed.text).not.toContain('>Pending</span>');
    const older = /href="([^"]*status=confirmed[^"]*after=[^"]*)"/.exec(confirmed.text)?.[1]?.replace(/&amp;/g, '&');
    expect(older).toBeDefined();
    const second = await module.get(older as string);
    expect(second.text.match(/>Confirmed<\/span>/g)).toHaveLength(2);
    expect(second.text).not.toContain('Older orders');

    const pending = await module.get(`${module.base}/orders?status=pending`);
    expect(pending.text).toContain(`Order ${orders[22]!.id.slice(0, 8)}`);
    expect(pending.text.match(/>Pending<\/span>/g)).toHaveLength(1);
    expect((await module.get(`${module.base}/orders?status=shipped`)).text).toContain('No shipped orders');
    const bad = await module.get(`${module.base}/orders?status=lost`);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('<h1>Please check that</h1>');
  });
});

describe('the order guide', () => {
  it('is shared by the organization: one user adds from a catalog card, another changes, removes and orders from it', async () => {
    const body = aSetupBody();
    const ada = await provisionProfile(stack.deps, partner.partnerId, body);
    const grace = await provisionProfile(stack.deps, partner.partnerId, {
      ...body,
      internalUserId: 'grace',
      user: { firstName: 'Grace', lastName: 'Hopper', email: 'grace@acme.test' },
    });
    const adaModule = await signInToModule(stack, partner, ada);
    const graceModule = await signInToModule(stack, partner, grace);

    // The catalog shows 24 products a page, by name: the gloves are found by a search.
    const catalog = await adaModule.get(`${adaModule.base}?q=Nitrile`);
    expect(catalog.text).toContain(
      'Add<span class="sr"> Nitrile Exam Gloves, Powder-Free, Medium</span> to order guide',
    );
    expect(catalog.text).toContain('href="' + adaModule.base + '/order-guide">Order guide</a>');
    expect((await adaModule.get(`${adaModule.base}/order-guide`)).text).toContain('<h2>Your order guide is empty</h2>');

    const added = await adaModule.submit(`${adaModule.base}/order-guide/items`, {
      product_id: 'GLV-NIT-M-100',
      quantity: '4',
    });
    expect(added).toMatchObject({ status: 303, location: `${adaModule.base}/order-guide?added=GLV-NIT-M-100` });
    expect((await adaModule.get(added.location as string)).text).toContain(
      'Added <strong>Nitrile Exam Gloves, Powder-Free, Medium</strong> to the order guide.',
    );
    await adaModule.submit(`${adaModule.base}/order-guide/items`, { product_id: 'PPR-LTR-5000', quantity: '2' });
    await adaModule.submit(`${adaModule.base}/order-guide/items`, { product_id: 'SOON-GONE-1', quantity: '1' });

    const page = await graceModule.get(`${graceModule.base}/order-guide`);
    expect(page.text).toContain('<h1>Order guide</h1>');
    expect(page.text).toContain('aria-label="Quantity of Copy Paper, Letter, 20 lb"');
    expect(page.text).toContain('>Add selected to cart</button>');
    const version = (id: string) => new RegExp(`name="version:${id}" value="(\\d+)"`).exec(page.text)?.[1] as string;

    const saved = await graceModule.submit(`${graceModule.base}/order-guide`, {
      action: 'save:PPR-LTR-5000',
      'quantity:PPR-LTR-5000': '6',
      'version:PPR-LTR-5000': version('PPR-LTR-5000'),
    });
    expect(saved).toMatchObject({ status: 303, location: `${graceModule.base}/order-guide` });
    await graceModule.submit(`${graceModule.base}/order-guide`, {
      action: 'remove:SOON-GONE-1',
      'version:SOON-GONE-1': version('SOON-GONE-1'),
    });
    expect(await guideOf(ada)).toEqual([
      ['GLV-NIT-M-100', 4],
      ['PPR-LTR-5000', 6],
    ]);

    // Some of the guide, with this order's quantities: only the gloves, 5 of them.
    await stack.deps.cartService.add(grace.profile.id, 'GLV-NIT-M-100', 997);
    const toCart = await graceModule.submit(`${graceModule.base}/order-guide`, {
      action: 'cart',
      'select:GLV-NIT-M-100': '1',
      'quantity:GLV-NIT-M-100': '5',
      'quantity:PPR-LTR-5000': '6',
    });
    expect(toCart).toMatchObject({ status: 303, location: `${graceModule.base}/cart?added=1` });
    expect(await cartOf(grace)).toEqual([['GLV-NIT-M-100', 999]]);
    expect((await graceModule.get(toCart.location as string)).text).toContain('Added 1 product to your cart.');
    expect(await cartOf(ada)).toEqual([]);
  });

  it('refuses bad input with a page: a quantity outside 1-999, an unknown product, a line not in the guide, a forged post', async () => {
    const buyer = await provisionProfile(stack.deps, partner.partnerId);
    const module = await signInToModule(stack, partner, buyer);
    await module.submit(`${module.base}/order-guide/items`, { product_id: 'GLV-NIT-M-100', quantity: '2' });
    const attempts: [string, Record<string, string>, number][] = [
      ['/order-guide/items', { product_id: 'GLV-NIT-M-100', quantity: '0' }, 400],
      ['/order-guide/items', { product_id: 'GLV-NIT-M-100', quantity: '1000' }, 400],
      ['/order-guide/items', { product_id: 'GLV-NIT-M-100', quantity: 'two' }, 400],
      ['/order-guide/items', { product_id: 'NO-SUCH-THING', quantity: '1' }, 409],
      ['/order-guide', { action: 'cart', 'select:PPR-LTR-5000': '1', 'quantity:PPR-LTR-5000': '1' }, 400],
      ['/order-guide', { action: 'cart', 'select:GLV-NIT-M-100': '1', 'quantity:GLV-NIT-M-100': '1000' }, 400],
      ['/order-guide', { action: 'cart' }, 400],
      [
        '/order-guide',
        { action: 'save:GLV-NIT-M-100', 'quantity:GLV-NIT-M-100': '-1', 'version:GLV-NIT-M-100': '1' },
        400,
      ],
      ['/order-guide', { action: 'save:GLV-NIT-M-100', 'quantity:GLV-NIT-M-100': '3' }, 400],
      ['/order-guide', { action: 'explode' }, 400],
    ];
    for (const [path, fields, status] of attempts) {
      const res = await module.submit(`${module.base}${path}`, fields);
      expect(res.status, JSON.stringify(fields)).toBe(status);
      expect(res.text).toContain('role="alert"');
      expect(res.text).not.toMatch(/at .*\.ts:\d+/);
    }
    const forged = await fetch(`${stack.url}${module.base}/order-guide/items`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        Cookie: module.cookie,
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: 'https://evil.example',
      },
      body: 'product_id=PPR-LTR-5000&quantity=1',
    });
    expect(forged.status).toBe(403);
    expect(await guideOf(buyer)).toEqual([['GLV-NIT-M-100', 2]]);
    expect(await cartOf(buyer)).toEqual([]);
  });

  it('never loses a concurrent edit: simultaneous adds all land, and of two changes made on the same version one wins, the other is told', async () => {
    const body = aSetupBody();
    const users = [await provisionProfile(stack.deps, partner.partnerId, body)];
    for (const u of ['b', 'c', 'd'])
      users.push(
        await provisionProfile(stack.deps, partner.partnerId, {
          ...body,
          internalUserId: `u-${u}`,
          user: { firstName: u, lastName: 'X', email: `${u}@x.test` },
        }),
      );
    const modules = await Promise.all(users.map((u) => signInToModule(stack, partner, u)));
    const products = ['GLV-NIT-M-100', 'PPR-LTR-5000', 'MSK-L3-50', 'WIP-CAVI-160'];

    const adds = await Promise.all(
      modules.map((m, i) =>
        m.submit(`${m.base}/order-guide/items`, { product_id: products[i]!, quantity: String(i + 1) }),
      ),
    );
    expect(adds.map((a) => a.status)).toEqual([303, 303, 303, 303]);
    expect((await guideOf(users[0]!)).sort()).toEqual(products.map((p, i) => [p, i + 1]).sort());

    const page = await modules[0]!.get(`${modules[0]!.base}/order-guide`);
    const version = /name="version:GLV-NIT-M-100" value="(\d+)"/.exec(page.text)?.[1] as string;
    const edits = await Promise.all(
      [modules[1]!, modules[2]!].map((m, i) =>
        m.submit(`${m.base}/order-guide`, {
          action: 'save:GLV-NIT-M-100',
          'quantity:GLV-NIT-M-100': String(10 + i),
          'version:GLV-NIT-M-100': version,
        }),
      ),
    );
    expect(edits.map((e) => e.status).sort()).toEqual([303, 409]);
    const refused = edits.find((e) => e.status === 409)!;
    expect(refused.text).toContain('<h1>The order guide changed</h1>');
    const winner = edits.findIndex((e) => e.status === 303);
    expect((await guideOf(users[0]!)).find(([p]) => p === 'GLV-NIT-M-100')).toEqual(['GLV-NIT-M-100', 10 + winner]);

    // A removal made on the old version does not undo the winner's change either.
    const stale = await modules[3]!.submit(`${modules[3]!.base}/order-guide`, {
      action: 'remove:GLV-NIT-M-100',
      'version:GLV-NIT-M-100': version,
    });
    expect(stale.status).toBe(409);
    expect((await guideOf(users[0]!)).map(([p]) => p)).toContain('GLV-NIT-M-100');
  });
});
