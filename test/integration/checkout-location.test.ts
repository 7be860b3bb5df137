/**
 * Checkout ships to what is selected (docs/module.md, "Checkout"): one form carries the location, the PO number and
 * notes and the location its totals were quoted for. Without script, placing (or submitting for approval) with
 * another location than the quoted one answers with checkout re-quoted for it and places nothing; placing with the
 * quoted one places the order there, with Stripe Tax's tax for its address (the stand-in's rates).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cents } from '../../functions/domain/money';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { aProduct } from '../support/catalog-fixtures';
import { type ModuleClient, signInToModule } from '../support/module-client';
import { unescapeHtml } from '../support/module-browser';
import { aSetupBody, provisionProfile, type ProvisionedProfile } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;
let partner: { partnerId: PartnerId; apiKey: string };
const GAUZE = aProduct('LOC-GAUZE', { priceCents: 4000 as Cents });

beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  partner = await stack.createPartner();
  await stack.deps.catalog.upsertMany([GAUZE]);
});
afterAll(() => stack.close());

/** A buyer whose organization ships to Austin (Texas, the default, 8.25%) and San Francisco (California, 8.625%), with gauze in the cart. */
async function aBuyer(user: Record<string, unknown> = {}): Promise<{ who: ProvisionedProfile; module: ModuleClient }> {
  const body = aSetupBody();
  const who = await provisionProfile(stack.deps, partner.partnerId, {
    ...body,
    user: { ...body.user, ...user },
    shippingLocations: [
      {
        internalShippingLocationId: 'austin',
        name: 'Austin clinic',
        address: { line1: '1 Main St', city: 'Austin', province: 'TX', postalCode: '78701' },
        isDefault: true,
      },
      {
        internalShippingLocationId: 'sacramento',
        name: 'Sacramento clinic',
        address: { line1: '1 Market St', city: 'San Francisco', province: 'CA', postalCode: '94105' },
      },
    ],
  });
  await stack.deps.cartService.add(who.profile.id, GAUZE.productId, 1);
  return { who, module: await signInToModule(stack, partner, who) };
}

const idOf = (who: ProvisionedProfile, name: string) => who.locations.find((l) => l.name === name)!.id;
const ordersOf = async (who: ProvisionedProfile) =>
  (await stack.deps.orders.listByOrganization(who.organization.id)).orders;
const summaryOf = (text: string) => unescapeHtml(/<aside[^>]*>([\s\S]*?)<\/aside>/.exec(text)?.[1] ?? '');

describe('checkout, one form', () => {
  it('carries the location, the references and the quoted location in one form, each radio with its totals', async () => {
    const { who, module } = await aBuyer();
    const page = await module.get(`${module.base}/checkout`);
    expect(page.status).toBe(200);
    const forms = page.text.match(/<form[\s\S]*?<\/form>/g) ?? [];
    const checkout = forms.filter((f) => f.includes('name="location"'));
    expect(checkout).toHaveLength(1);
    expect(checkout[0]).toContain('name="po_number"');
    expect(checkout[0]).toContain(`name="quoted" value="${idOf(who, 'Austin clinic')}"`);
    expect(page.text).not.toContain('Use this address');
    // $40.00 + 8.625% (shipping untaxed in California) + $9.95 shipping, ready for the script to show when Sacramento is selected.
    expect(checkout[0]).toMatch(
      /value="[^"]+"[^>]*data-tax-label="Tax \(California 8.625%\)"[^>]*data-total="\$53.40"/,
    );
  });

  it('without script, Place order with another location than the quoted one shows the re-quoted summary and places nothing', async () => {
    const { who, module } = await aBuyer();
    const austin = idOf(who, 'Austin clinic');
    const sacramento = idOf(who, 'Sacramento clinic');
    const moved = await module.submit(`${module.base}/orders`, {
      location: sacramento,
      quoted: austin,
      po_number: 'PO-77',
      notes: 'Back door',
    });
    expect(moved.status).toBe(200);
    expect(unescapeHtml(moved.text)).toContain('The totals are now for Sacramento clinic');
    const summary = summaryOf(moved.text);
    expect(summary).toContain('Tax (California 8.625%)');
    expect(summary).toContain('$53.40');
    expect(moved.text).toContain(`name="quoted" value="${sacramento}"`);
    expect(moved.text).toMatch(new RegExp(`value="${sacramento}"[^>]*checked`));
    expect(moved.text).toContain('value="PO-77"');
    expect(moved.text).toContain('>Back door</textarea>');
    expect(await ordersOf(who)).toEqual([]);
    expect((await stack.deps.cartService.view(who.profile.id)).lines).toHaveLength(1);

    const placed = await module.submit(`${module.base}/orders`, { location: sacramento, quoted: sacramento });
    expect(placed.status).toBe(303);
    const [order] = await ordersOf(who);
    expect(order?.shippingAddress).toMatchObject({ locationId: sacramento, state: 'California' });
    expect(order?.taxCents).toBe(345);
  });

  it('without script, Submit for approval with another location than the quoted one re-quotes too', async () => {
    const { who, module } = await aBuyer({ orderLimit: 30 });
    const moved = await module.submit(`${module.base}/approvals`, {
      location: idOf(who, 'Sacramento clinic'),
      quoted: idOf(who, 'Austin clinic'),
    });
    expect(moved.status).toBe(200);
    expect(summaryOf(moved.text)).toContain('Tax (California 8.625%)');
    expect(moved.text).toContain('>Submit for approval</button>');
    expect(
      (await stack.deps.approvalService.listForOrganization(who.organization, { since: '2000-01-01T00:00:00Z' }))
        .requests,
    ).toEqual([]);
  });
});
