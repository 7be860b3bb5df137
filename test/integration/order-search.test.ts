/**
 * Finding any order on the module's Orders page (docs/module.md, "Orders"): the search box
 * (short order id, PO number or product name, any case), the From/To days in the
 * organization's zone, and each line's own Add to cart on an order page, as a browser
 * without script uses them.
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
});
afterAll(() => stack.close());

const GLOVES = 'GLV-NIT-M-100' as ProductId;
const PAPER = 'PPR-LTR-5000' as ProductId;

async function placed(buyer: ProvisionedProfile, productId: ProductId, poNumber: string) {
  const organization = await stack.deps.organizations.getOrganization(
    partner.partnerId,
    buyer.organization.internalOrgId,
  );
  return stack.deps.orderService.placeOrder({
    partner: { id: partner.partnerId },
    profile: buyer.profile,
    organization: organization!,
    items: [{ productId, quantity: 2 }],
    references: { poNumber },
  });
}

describe('the Orders page search', () => {
  it('finds orders by short id, PO number or product name in any case, within From-To days of the organization’s zone', async () => {
    const buyer = await provisionProfile(stack.deps, partner.partnerId, aSetupBody({ timeZone: 'America/Chicago' }));
    const other = await provisionProfile(stack.deps, partner.partnerId);
    const module = await signInToModule(stack, partner, buyer);
    const products = await stack.deps.catalog.get([GLOVES, PAPER]);
    // 23:30 on 29 February in Chicago, then 00:30 on 1 March: the same UTC day, two days there.
    stack.clock.set(new Date('2036-03-01T05:30:00.000Z'));
    const late = await placed(buyer, GLOVES, 'PO-Red-7');
    stack.clock.set(new Date('2036-03-01T06:30:00.000Z'));
    const early = await placed(buyer, PAPER, 'blue-9');
    await placed(other, GLOVES, 'PO-Red-7');

    const listed = async (query: string) => {
      const page = await module.get(`${module.base}/orders?${query}`);
      expect(page.status, query).toBe(200);
      return [...page.text.matchAll(/>Order ([0-9a-f]{8})</g)].map((match) => match[1]);
    };
    const short = (id: string) => id.slice(0, 8);

    const page = await module.get(`${module.base}/orders`);
    expect(page.text).toContain('<label for="q">Search orders</label>');
    expect(page.text).toContain('<input type="date" id="from" name="from" value/>');
    expect(await listed('q=red')).toEqual([short(late.id)]);
    expect(await listed('q=%20po-RED-7%20')).toEqual([short(late.id)]);
    // The matching PO number is shown with the result, and the placeholder names what the field searches.
    const byPo = await module.get(`${module.base}/orders?q=red`);
    expect(byPo.text).toContain('PO PO-Red-7');
    expect(byPo.text).toContain('placeholder="Order, PO or product"');
    const paperWord = products.get(PAPER)!.name.split(' ')[0]!.toUpperCase();
    expect(await listed(`q=${encodeURIComponent(paperWord)}`)).toEqual([short(early.id)]);
    expect(await listed(`q=${short(early.id).toUpperCase()}`)).toEqual([short(early.id)]);
    expect(await listed('q=nothing-like-it')).toEqual([]);
    expect((await module.get(`${module.base}/orders?q=nothing-like-it`)).text).toContain('<h2>No orders match</h2>');

    expect(await listed('from=2036-03-01')).toEqual([short(early.id)]);
    expect(await listed('to=2036-02-29')).toEqual([short(late.id)]);
    expect(await listed('from=2036-02-29&to=2036-03-01')).toEqual([short(early.id), short(late.id)]);
    expect(await listed('q=red&from=2036-03-01')).toEqual([]);
    const kept = await module.get(`${module.base}/orders?q=red&from=2036-02-01&to=2036-02-29`);
    expect(kept.text).toContain('value="red"');
    expect(kept.text).toContain('<input type="date" id="to" name="to" value="2036-02-29"/>');

    for (const query of ['from=yesterday', 'to=2036-02-30', 'from=2036-03-02&to=2036-03-01', `q=${'x'.repeat(65)}`]) {
      const refused = await module.get(`${module.base}/orders?${query}`);
      expect(refused.status, query).toBe(400);
      expect(refused.text, query).toContain('<h1>Please check that</h1>');
    }
  });

  it('gives each line of an order page its own Add <name> to cart, which adds that line’s quantity', async () => {
    const buyer = await provisionProfile(stack.deps, partner.partnerId);
    const module = await signInToModule(stack, partner, buyer);
    const order = await placed(buyer, GLOVES, 'PO-1');
    const name = (await stack.deps.catalog.get([GLOVES])).get(GLOVES)!.name;
    const page = await module.get(`${module.base}/orders/${order.id}`);
    expect(page.text).toContain(`<button type="submit">Add ${name} to cart</button>`);

    const added = await module.submit(`${module.base}/cart/items`, {
      product_id: GLOVES,
      quantity: '2',
      from: 'order',
    });
    expect(added).toMatchObject({ status: 303, location: `${module.base}/cart?added=1` });
    expect(
      (await stack.deps.cartService.view(buyer.profile.id)).lines.map((l) => [l.product.productId, l.quantity]),
    ).toEqual([[GLOVES, 2]]);
  });
});
