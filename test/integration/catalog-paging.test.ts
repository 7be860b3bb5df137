/**
 * A catalog that scales, as a user without script sees it: pages of at most 24 products
 * with Previous/Next links that keep the search, category and sort; a Sort control in the
 * search form; category links made from the data; and a quantity on every card.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product, ProductId } from '../../functions/domain/catalog/product';
import type { Cents } from '../../functions/domain/money';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { moduleBrowser, type ModuleBrowser, unescapeHtml } from '../support/module-browser';
import { provisionProfile } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;
let partner: { partnerId: PartnerId; apiKey: string };
let browser: ModuleBrowser;
let cookie: string;
let buyerId: string;

/** 30 active products in one new category, priced 1.00 … 30.00 in reverse name order, and one inactive in another. */
const BULK: Product[] = Array.from({ length: 30 }, (_, index) => ({
  productId: `bulk-${String(index).padStart(2, '0')}` as ProductId,
  name: `Bulk tray ${String(index).padStart(2, '0')}`,
  description: 'A tray for paging tests.',
  category: 'Bulk Trays',
  priceCents: ((30 - index) * 100) as Cents,
  unit: 'each',
  active: true,
  image: `${'b'.repeat(64)}.svg`,
}));
const HIDDEN: Product = { ...BULK[0]!, productId: 'hidden-1' as ProductId, category: 'Retired Things', active: false };

beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  partner = await stack.createPartner();
  browser = moduleBrowser(stack, partner);
  await stack.deps.catalog.upsertMany([...BULK, HIDDEN]);
  const buyer = await provisionProfile(stack.deps, partner.partnerId);
  buyerId = buyer.profile.id;
  cookie = await browser.signIn(buyer);
});
afterAll(() => stack.close());

const namesOn = (html: string) =>
  [...html.matchAll(/<h2><a href="[^"]+">([^<]+)<\/a><\/h2>/g)].map(([, name]) => unescapeHtml(name as string));
const linkTo = (html: string, text: string) => {
  const match = new RegExp(`<a href="([^"]+)" rel="(?:prev|next)">${text}</a>`).exec(html);
  return match ? unescapeHtml(match[1] as string) : undefined;
};

describe('catalog pages', () => {
  it('shows at most 24 products a page, with Next and Previous links', async () => {
    const first = await browser.request(browser.base, { cookie });
    const total = (await stack.deps.catalog.listActive()).length;
    expect(namesOn(first.text)).toHaveLength(24);
    expect(first.text).toContain(`${total} products`);
    expect(first.text).toContain('<nav class="pages" aria-label="Pages">');
    expect(linkTo(first.text, 'Previous')).toBeUndefined();
    expect(linkTo(first.text, 'Next')).toBe(`${browser.base}?page=2`);
    const last = await browser.request(`${browser.base}?page=3`, { cookie });
    expect(namesOn(last.text)).toHaveLength(total - 48);
    expect(linkTo(last.text, 'Previous')).toBe(`${browser.base}?page=2`);
    expect(linkTo(last.text, 'Next')).toBeUndefined();
    expect(last.text).toContain('Page 3 of 3');
  });

  it('keeps the search, category and sort across pages', async () => {
    const first = await browser.request(`${browser.base}?category=Bulk+Trays&q=tray&sort=price-desc`, { cookie });
    expect(namesOn(first.text).slice(0, 2)).toEqual(['Bulk tray 00', 'Bulk tray 01']);
    const next = linkTo(first.text, 'Next') as string;
    expect(new URL(next, stack.url).searchParams.toString()).toBe('category=Bulk+Trays&q=tray&sort=price-desc&page=2');
    const second = await browser.request(next, { cookie });
    expect(namesOn(second.text)).toEqual([
      'Bulk tray 24',
      'Bulk tray 25',
      'Bulk tray 26',
      'Bulk tray 27',
      'Bulk tray 28',
      'Bulk tray 29',
    ]);
    expect(new URL(linkTo(second.text, 'Previous') as string, stack.url).searchParams.toString()).toBe(
      'category=Bulk+Trays&q=tray&sort=price-desc',
    );
  });

  it('shows the last page for a page past it, and the first for junk', async () => {
    expect((await browser.request(`${browser.base}?page=99`, { cookie })).text).toContain('Page 3 of 3');
    for (const junk of ['0', '-1', 'two', '1e3', '%00'])
      expect((await browser.request(`${browser.base}?page=${junk}`, { cookie })).text).toContain('Page 1 of 3');
  });
});

describe('sorting', () => {
  it('has a Sort control inside the search form, with a submit button, and sorts by name and by price', async () => {
    const page = await browser.request(`${browser.base}?category=Bulk+Trays&sort=price`, { cookie });
    const form = /<form class="find" role="search" method="get" action="([^"]+)">([\s\S]*?)<\/form>/.exec(page.text);
    expect(form?.[1]).toBe(browser.base);
    expect(form?.[2]).toContain(
      '<label for="sort">Sort</label><select id="sort" name="sort" data-apply-on-change="true">',
    );
    expect(form?.[2]).toContain('<option value="price" selected>Price (low to high)</option>');
    expect(form?.[2]).toContain('<button type="submit">Search</button>');
    expect(form?.[2]).toContain('<input type="hidden" name="category" value="Bulk Trays"/>');
    expect(namesOn(page.text).slice(0, 3)).toEqual(['Bulk tray 29', 'Bulk tray 28', 'Bulk tray 27']);
    const byName = await browser.request(`${browser.base}?category=Bulk+Trays&sort=name`, { cookie });
    expect(namesOn(byName.text).slice(0, 3)).toEqual(['Bulk tray 00', 'Bulk tray 01', 'Bulk tray 02']);
    const junk = await browser.request(`${browser.base}?category=Bulk+Trays&sort=%3Cscript%3E`, { cookie });
    expect(junk.status).toBe(200);
    expect(namesOn(junk.text)[0]).toBe('Bulk tray 00');
  });
});

describe('categories', () => {
  it('links the categories that have active products, a new one too, and no fixed list', async () => {
    const page = await browser.request(browser.base, { cookie });
    const nav = /<nav aria-label="Categories">([\s\S]*?)<\/nav>/.exec(page.text)?.[1] ?? '';
    const links = [...nav.matchAll(/<a href="[^"]*"(?: aria-current="page")?>([^<]+)<\/a>/g)].map(([, text]) =>
      unescapeHtml(text as string),
    );
    expect(links).toEqual([
      'All',
      'Breakroom',
      'Bulk Trays',
      'Cleaning & Disinfection',
      'Clinical Disposables',
      'Gloves & PPE',
      'Office Supplies',
    ]);
    expect(nav).toContain(`<a href="${browser.base}?category=Bulk+Trays">Bulk Trays</a>`);
  });
});

describe('a quantity on every card', () => {
  it('labels each card’s quantity field and adds that many, back to the same view', async () => {
    const view = `${browser.base}?category=Bulk+Trays&q=tray&sort=price&page=2`;
    const page = await browser.request(view, { cookie });
    expect(page.text).toContain(
      '<label for="qty-0">Quantity<span class="sr"> of Bulk tray 05</span></label><input class="qty" type="number" id="qty-0" name="quantity" value="1" min="1" max="999"',
    );
    const added = await browser.submit(cookie, `${browser.base}/cart/items`, {
      product_id: 'bulk-05',
      quantity: '10',
      category: 'Bulk Trays',
      q: 'tray',
      sort: 'price',
      page: '2',
    });
    expect(added.status).toBe(303);
    expect(new URL(added.location as string, stack.url).searchParams.toString()).toBe(
      'category=Bulk+Trays&q=tray&sort=price&page=2&added=bulk-05',
    );
    const lines = (await stack.deps.cartService.view(buyerId as never)).lines.map((line) => [
      line.product.productId,
      line.quantity,
    ]);
    expect(lines).toContainEqual(['bulk-05', 10]);
  });

  it('keeps the catalog page small', async () => {
    const page = await browser.request(browser.base, { cookie });
    expect(Buffer.byteLength(page.text)).toBeLessThan(48 * 1024);
  });
});
