/**
 * A product's page as a user without script sees it: name, picture, full description,
 * unit, SKU, category, price, a quantity and the add button, and others of its category;
 * an unknown or inactive product is the module's 404 page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { moduleBrowser, type ModuleBrowser } from '../support/module-browser';
import { provisionProfile } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;
let partner: { partnerId: PartnerId; apiKey: string };
let browser: ModuleBrowser;
let cookie: string;
let buyerId: string;
beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  partner = await stack.createPartner();
  browser = moduleBrowser(stack, partner);
  const buyer = await provisionProfile(stack.deps, partner.partnerId);
  buyerId = buyer.profile.id;
  cookie = await browser.signIn(buyer);
});
afterAll(() => stack.close());

const cart = async () =>
  (await stack.deps.cartService.view(buyerId as never)).lines.map((line) => [line.product.productId, line.quantity]);

describe('the product page', () => {
  it('shows everything about the product, a quantity field and the add button, and four others of its category', async () => {
    const page = await browser.request(`${browser.base}/products/GLV-NIT-M-100`, { cookie });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("img-src 'self'");
    const html = page.text;
    expect(html).toContain('<h1>Nitrile Exam Gloves, Powder-Free, Medium</h1>');
    expect(html).toMatch(
      /<img src="\/embedded\/assets\/products\/[0-9a-f]{64}\.svg" alt="Nitrile Exam Gloves, Powder-Free, Medium" width="320" height="320"/,
    );
    expect(html).toContain('Blue nitrile examination gloves, 3.5 mil, textured fingertips, latex-free. Ambidextrous.');
    expect(html).toContain('<dt>Unit</dt><dd>box of 100</dd>');
    expect(html).toContain('<dt>SKU</dt><dd class="sku">GLV-NIT-M-100</dd>');
    expect(html).toContain('<dt>Category</dt><dd>Gloves &amp; PPE</dd>');
    expect(html).toContain('$12.49');
    // spinbutton "Quantity of …" (a labelled number field), default 1, 1-999; button "Add … to cart".
    expect(html).toContain(
      '<label for="quantity">Quantity<span class="sr"> of Nitrile Exam Gloves, Powder-Free, Medium</span></label>',
    );
    expect(html).toMatch(/<input class="qty" type="number" id="quantity" name="quantity" value="1" min="1" max="999"/);
    expect(html).toContain('Add<span class="sr"> Nitrile Exam Gloves, Powder-Free, Medium</span> to cart');
    const related = [...html.matchAll(/<li><img [^>]*><a href="([^"]+)">([^<]+)<\/a>/g)].map(([, href, name]) => [
      href,
      name,
    ]);
    expect(related).toHaveLength(4);
    for (const [href] of related) expect(href).toMatch(new RegExp(`^${browser.base}/products/[A-Z0-9-]+$`));
    expect(related.map(([, name]) => name)).not.toContain('Nitrile Exam Gloves, Powder-Free, Medium');
    expect(html).toContain('<h2 id="related">More in Gloves &amp; PPE</h2>');
  });

  it('is linked from its card by the product’s name', async () => {
    const home = await browser.request(`${browser.base}?q=GLV-NIT-M-100`, { cookie });
    expect(home.text).toContain(
      `<h2><a href="${browser.base}/products/GLV-NIT-M-100">Nitrile Exam Gloves, Powder-Free, Medium</a></h2>`,
    );
  });

  it('adds the quantity chosen and comes back to the product, saying so', async () => {
    const added = await browser.submit(cookie, `${browser.base}/cart/items`, {
      product_id: 'MSK-L3-50',
      quantity: '10',
      from: 'product',
    });
    expect(added.status).toBe(303);
    expect(added.location).toBe(`${browser.base}/products/MSK-L3-50?added=1`);
    expect(await cart()).toContainEqual(['MSK-L3-50', 10]);
    const after = await browser.request(added.location as string, { cookie });
    expect(after.text).toMatch(
      /<div class="flash" role="status"><span>Added <strong>ASTM Level 3 Procedure Masks, Ear Loop<\/strong> to your cart/,
    );
  });

  it('answers an unknown, inactive, other-case or junk product id with the module’s 404 page', async () => {
    for (const id of ['NO-SUCH-SKU', 'ABT-TIP-3W-250', 'glv-nit-m-100', '%3Cscript%3E', '%00', 'x'.repeat(300)]) {
      const page = await browser.request(`${browser.base}/products/${id}`, { cookie });
      expect(page.status, id).toBe(404);
      expect(page.text).toContain('<h1>Product not found</h1>');
    }
  });

  it('refuses a bad add with the module’s error page, never a 500, changing nothing', async () => {
    const before = await cart();
    const cases: [Record<string, string>, number][] = [
      [{ product_id: 'GLV-NIT-S-100', quantity: '0' }, 400],
      [{ product_id: 'GLV-NIT-S-100', quantity: '1000' }, 400],
      [{ product_id: 'GLV-NIT-S-100', quantity: '-1' }, 400],
      [{ product_id: 'GLV-NIT-S-100', quantity: '2.5' }, 400],
      [{ product_id: 'GLV-NIT-S-100', quantity: 'ten' }, 400],
      [{ product_id: 'NO-SUCH-SKU', quantity: '1' }, 409],
      [{ product_id: 'GLV\u0000NIT', quantity: '1' }, 409],
      [{ product_id: 'GLV-NIT-S-100\u202e', quantity: '1' }, 409],
    ];
    for (const [fields, status] of cases) {
      const page = await browser.submit(cookie, `${browser.base}/cart/items`, fields);
      expect(page.status, JSON.stringify(fields)).toBe(status);
      expect(page.text).toContain('role="alert"');
    }
    expect(await cart()).toEqual(before);
  });

  it('refuses an add without the form token, as every form post', async () => {
    const page = await browser.request(`${browser.base}/cart/items`, {
      cookie,
      form: { product_id: 'GLV-NIT-S-100', quantity: '3', from: 'product' },
      headers: { 'Sec-Fetch-Site': 'same-origin' },
    });
    expect(page.status).toBe(403);
    expect(await cart()).not.toContainEqual(['GLV-NIT-S-100', 3]);
  });
});
