/**
 * Every page, with markup in every value a partner or a user can choose: organization and
 * user names, locations (name, nickname, address, delivery instructions), search text,
 * products from a catalog import, tracking, signatures, cancellation and refund reasons,
 * PO numbers and order notes, order-guide lines, approval requests (requester, PO number,
 * notes, items, rejection reasons), path and query junk. Each page is parsed as a browser would: no element, attribute or
 * script may come from data, and each value shows as the text it is.
 */
import { DomUtils, parseDocument } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCatalogImport } from '../../functions/domain/catalog/catalog-import';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { linkUnusablePage, unavailablePage } from '../../functions/embed-host/host-pages';
import { type DemoUser } from '../../lib/local-runtime/demo-app';
import { demoPage, webhookLogPage } from '../../lib/local-runtime/demo-pages';
import { aSetupBody, type ProvisionedProfile, provisionProfile, type SetupBody } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';

/** Breaks out of text, of double- and single-quoted attributes and of a textarea, in one value. */
const EVIL = `<script>alert(1)</script>"><img src=x onerror=alert(1)>'onmouseover='alert(1)'</textarea>javascript:alert(1)`;
/** The same for fields of at most 64 characters (carrier, tracking number). */
const SHORT = `"><img src=x onerror=alert(1)>'onmouseover='x'</textarea>`;
const EVIL_URL = `https://track.test/t?n="><script>alert(1)</script>&x='onmouseover='alert(1)`;

/** The elements our pages are made of: anything else came from data. */
const OUR_ELEMENTS = new Set(
  'html head meta title style script body a header div span b nav ul ol li strong br form input button main h1 h2 p label section aside dl dt dd fieldset legend address time table thead tbody tr th td small code iframe img textarea select option'.split(
    ' ',
  ),
);
const OUR_SCRIPTS = new Set([
  '/embedded/assets/bridge-v1.js',
  '/embedded/assets/module-v1.js',
  '/demo/assets/demo-host.js',
]);

const COOKIE = '__Host-embed_session';

interface RenderedPage {
  readonly label: string;
  readonly status: number;
  readonly html: string;
  /** Values from data the page must show as text. */
  readonly shows: readonly string[];
}

type Node = ReturnType<typeof parseDocument>['children'][number];
type Element = Extract<Node, { attribs: unknown }>;

const elementsOf = (nodes: readonly Node[]): Element[] =>
  nodes.filter(DomUtils.isTag).flatMap((node) => [node, ...elementsOf(node.children)]);
const textOf = (nodes: readonly Node[]): string =>
  nodes.map((node) => (DomUtils.isText(node) ? node.data : DomUtils.isTag(node) ? textOf(node.children) : '')).join('');

/** Everything the browser would build from the page that our markup does not explain. */
function injections(html: string): string[] {
  const found: string[] = [];
  if (!html.startsWith('<!doctype html>\n')) found.push('no doctype');
  for (const element of elementsOf(parseDocument(html).children)) {
    if (!OUR_ELEMENTS.has(element.name)) found.push(`<${element.name}>`);
    for (const [name, value] of Object.entries(element.attribs)) {
      if (/^on/i.test(name) || !/^[a-z-]+$/.test(name)) found.push(`${element.name}[${name}]`);
      if (/^\s*javascript:/i.test(value)) found.push(`${element.name}[${name}=${value}]`);
    }
    if (element.name === 'script' && (!OUR_SCRIPTS.has(element.attribs.src ?? '') || element.children.length > 0))
      found.push(`script ${element.attribs.src ?? 'inline'}`);
    if (element.name === 'style' && /alert|<|onerror/.test(textOf(element.children))) found.push('data in a style');
  }
  return found;
}

let stack: TestStack;
let partnerId: PartnerId;
let apiKey: string;
const pages: RenderedPage[] = [];

async function request(
  path: string,
  init: { cookie?: string; form?: Record<string, string>; sameOrigin?: boolean } = {},
) {
  const res = await fetch(`${stack.url}${path}`, {
    method: init.form ? 'POST' : 'GET',
    redirect: 'manual',
    headers: {
      ...(init.cookie ? { Cookie: `${COOKIE}=${init.cookie}` } : {}),
      ...(init.form ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
      ...(init.sameOrigin === false ? {} : { 'Sec-Fetch-Site': 'same-origin' }),
    },
    ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
  });
  return { status: res.status, location: res.headers.get('location'), text: await res.text() };
}

/** The form token of a session's pages. */
const tokenOf = async (cookie: string): Promise<string> =>
  /name="csrf" value="([^"]+)"/.exec((await request(`/embedded/${partnerId}`, { cookie })).text)?.[1] as string;

async function signIn(profile: ProvisionedProfile): Promise<string> {
  const shake = await stack.post('/v1/partner/handshake', { profile_id: profile.profile.id }, { 'X-API-Key': apiKey });
  const redeemed = await fetch(shake.body.iframe_embed_url, { redirect: 'manual' });
  return /__Host-embed_session=([^;]*)/.exec(redeemed.headers.getSetCookie()[0] ?? '')?.[1] as string;
}

const hostileLocation = (id: string, isDefault: boolean) => ({
  internalShippingLocationId: id,
  name: `${id} ${EVIL}`,
  nickname: EVIL,
  address: { line1: EVIL, line2: EVIL, city: EVIL, province: 'TX', postalCode: '78701' },
  contact: { name: EVIL },
  deliveryInstructions: EVIL,
  isDefault,
});

beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  ({ partnerId, apiKey } = await stack.createPartner());
  const bearer = { Authorization: `Bearer ${apiKey}` };
  const base = `/embedded/${partnerId}`;
  const keep = async (
    label: string,
    path: string,
    shows: readonly string[],
    init: Parameters<typeof request>[1] = {},
  ) => {
    const res = await request(path, init);
    pages.push({ label, status: res.status, html: res.text, shows });
    return res;
  };

  // The category and the picture's key are data too (a key that is no key still only ever lands, encoded, in a src).
  const imported = parseCatalogImport([
    {
      product_id: 'EVIL-1',
      name: EVIL,
      description: EVIL,
      category: SHORT,
      price: 10,
      unit: SHORT,
      active: true,
      image: EVIL,
    },
    {
      product_id: 'evil.2',
      name: `${EVIL} 2`,
      description: EVIL,
      category: SHORT,
      price: 11,
      unit: SHORT,
      active: true,
      image: SHORT,
    },
  ]);
  if (!imported.ok) throw new Error(JSON.stringify(imported.issues));
  await stack.deps.catalog.upsertMany(imported.products);

  const organizationBody = aSetupBody({
    organizationName: EVIL,
    user: { firstName: EVIL, lastName: SHORT, email: `o'brien.${Date.now()}@acme.test` },
    shippingLocations: [hostileLocation('main', true), hostileLocation('north', false)],
  });
  const buyer = await provisionProfile(stack.deps, partnerId, organizationBody);
  const cookie = await signIn(buyer);
  const token = /name="csrf" value="([^"]+)"/.exec((await request(base, { cookie })).text)?.[1] as string;
  const submit = (path: string, fields: Record<string, string>) =>
    request(path, { cookie, form: { csrf: token, ...fields } });
  const people = [EVIL, SHORT];

  const added = await submit(`${base}/cart/items`, { product_id: 'EVIL-1', q: SHORT });
  await keep('catalog after an add, with search text', added.location as string, [...people, `“${SHORT}”`], { cookie });
  await keep('catalog, category junk', `${base}?category=${encodeURIComponent(EVIL)}`, people, { cookie });
  await keep(
    'catalog, search text',
    `${base}?q=${encodeURIComponent(EVIL.slice(0, 100))}`,
    [`“${EVIL.slice(0, 100)}”`],
    { cookie },
  );
  await keep('catalog, no result', `${base}?q=${encodeURIComponent(`${SHORT} nothing`)}`, [`“${SHORT} nothing”`], {
    cookie,
  });
  await keep(
    'catalog, hostile category, sorted by price',
    `${base}?category=${encodeURIComponent(SHORT)}&sort=price`,
    [EVIL, `${EVIL} 2`, SHORT],
    { cookie },
  );
  await keep('product page', `${base}/products/EVIL-1`, [...people, `${EVIL} 2`, `More in ${SHORT}`], { cookie });
  const addedHere = await submit(`${base}/cart/items`, { product_id: 'evil.2', quantity: '2', from: 'product' });
  await keep('product page after an add', addedHere.location as string, [`${EVIL} 2`], { cookie });
  await keep('404 product', `${base}/products/${encodeURIComponent(SHORT)}`, [], { cookie });
  await keep('cart', `${base}/cart`, [...people, EVIL], { cookie });
  await keep('checkout, two locations', `${base}/checkout`, [EVIL, `main ${EVIL}`, ` (${EVIL})`], { cookie });
  await keep('checkout, the other location', `${base}/checkout?location=${buyer.locations[1]!.id}`, [`north ${EVIL}`], {
    cookie,
  });

  const placed = await submit(`${base}/orders`, { location: buyer.locations[0]!.id, po_number: SHORT, notes: EVIL });
  const orderId = /\/orders\/([0-9a-f-]{36})\?placed=1$/.exec(placed.location ?? '')?.[1] as string;
  await keep('order placed, with PO number and notes', placed.location as string, [EVIL, SHORT], { cookie });
  for (const [action, body] of [
    ['confirm', {}],
    [
      'ship',
      { carrier: SHORT, tracking_number: SHORT, tracking_url: EVIL_URL, estimated_delivery: '2036-01-09T17:00:00Z' },
    ],
    ['deliver', { signature: EVIL }],
    ['refund', { amount: 1, reason: EVIL }],
  ] as const) {
    const res = await stack.post(`/v1/sandbox/orders/${orderId}/${action}`, body, bearer);
    if (res.status !== 200) throw new Error(`${action}: ${res.status} ${res.text}`);
  }
  await submit(`${base}/cart/items`, { product_id: 'EVIL-1' });
  const second = /\/orders\/([0-9a-f-]{36})/.exec(
    (await submit(`${base}/orders`, { location: buyer.locations[1]!.id })).location ?? '',
  )?.[1] as string;
  const cancelled = await stack.post(`/v1/sandbox/orders/${second}/cancel`, { reason: EVIL }, bearer);
  if (cancelled.status !== 200) throw new Error(`cancel: ${cancelled.status} ${cancelled.text}`);

  await keep(
    'order with tracking, signature and refund',
    `${base}/orders/${orderId}`,
    [EVIL, `${SHORT}, tracking ${SHORT}`, `Signed for by ${EVIL}`, EVIL_URL],
    { cookie },
  );
  await keep('cancelled order', `${base}/orders/${second}`, [EVIL], { cookie });
  await keep('orders', `${base}/orders`, [EVIL, `to main ${EVIL}`], { cookie });
  await keep('orders, cursor junk', `${base}/orders?after=${encodeURIComponent(EVIL)}`, [], { cookie });

  await keep('orders, status filter', `${base}/orders?status=refunded`, [EVIL], { cookie });
  await keep('400 status junk', `${base}/orders?status=${encodeURIComponent(EVIL)}`, [], { cookie });
  await keep('400 PO number too long', `${base}/orders`, [], { cookie, form: { csrf: token, po_number: EVIL } });
  await keep('400 notes with a control character', `${base}/orders`, [], {
    cookie,
    form: { csrf: token, notes: `${SHORT}\u0007` },
  });

  const guided = await submit(`${base}/order-guide/items`, { product_id: 'EVIL-1', quantity: '3' });
  await keep('order guide after an add', guided.location as string, [EVIL], { cookie });
  await keep('order guide, added junk', `${base}/order-guide?added=${encodeURIComponent(EVIL)}`, [EVIL], { cookie });
  await keep('409 order guide changed', `${base}/order-guide`, [], {
    cookie,
    form: { csrf: token, action: 'save:EVIL-1', 'quantity:EVIL-1': '2', 'version:EVIL-1': '999' },
  });
  await keep('400 order guide quantity', `${base}/order-guide`, [], {
    cookie,
    form: { csrf: token, action: `save:${EVIL}`, [`quantity:${EVIL}`]: EVIL },
  });
  await keep('409 order guide unknown product', `${base}/order-guide/items`, [], {
    cookie,
    form: { csrf: token, product_id: EVIL, quantity: '1' },
  });
  const again = await submit(`${base}/orders/${orderId}/buy-again`, {});
  await keep('cart after Buy again', again.location as string, [EVIL], { cookie });
  await keep(
    'cart, notice junk',
    `${base}/cart?added=3&skipped=${encodeURIComponent(`EVIL-1,${EVIL}`)}`,
    [`No longer sold, so not added: ${EVIL}.`],
    { cookie },
  );
  await stack.deps.cartService.clear(buyer.profile.id);

  await keep('403 forged post', `${base}/cart/items`, [], { cookie, form: { csrf: EVIL, product_id: EVIL } });
  await keep('404 order', `${base}/orders/${encodeURIComponent(EVIL)}`, [], { cookie });
  await keep('409 empty cart', `${base}/orders`, [], { cookie, form: { csrf: token, location: EVIL } });
  await submit(`${base}/cart/items`, { product_id: 'EVIL-1' });
  await keep('400 quantity', `${base}/cart/items/EVIL-1`, [], {
    cookie,
    form: { csrf: token, action: 'update', quantity: EVIL },
  });
  await keep('409 location gone', `${base}/orders`, [], { cookie, form: { csrf: token, location: EVIL } });

  // Approvals: a buyer limited to $1 and an approver, both named with markup, in the same organization.
  const colleague = (id: string, user: Omit<SetupBody['user'], 'email'>) =>
    provisionProfile(stack.deps, partnerId, {
      ...organizationBody,
      internalUserId: `${id}-${organizationBody.internalUserId}`,
      user: { ...user, email: `${id}.${Date.now()}@acme.test` },
    });
  const limited = await colleague('limited', { firstName: EVIL, lastName: SHORT, orderLimit: 1 });
  const approver = await colleague('approver', { firstName: SHORT, lastName: EVIL, role: 'approver' });
  const asUser = async (profile: ProvisionedProfile) => {
    const userCookie = await signIn(profile);
    const userToken = /name="csrf" value="([^"]+)"/.exec(
      (await request(base, { cookie: userCookie })).text,
    )?.[1] as string;
    return {
      cookie: userCookie,
      post: (path: string, fields: Record<string, string>) =>
        request(path, { cookie: userCookie, form: { csrf: userToken, ...fields } }),
    };
  };
  const requester = await asUser(limited);
  const decider = await asUser(approver);
  const requestOf = (location: string | null) => /\/approvals\/([0-9a-f-]{36})/.exec(location ?? '')?.[1] as string;
  const submitForApproval = async () => {
    await stack.deps.cartService.add(limited.profile.id, 'EVIL-1', 2);
    return requester.post(`${base}/approvals`, { location: buyer.locations[0]!.id, po_number: SHORT, notes: EVIL });
  };
  await stack.deps.cartService.add(limited.profile.id, 'EVIL-1', 2);
  await keep('checkout above the order limit', `${base}/checkout`, [EVIL, `main ${EVIL}`], {
    cookie: requester.cookie,
  });
  await stack.deps.cartService.clear(limited.profile.id);
  const submitted = await submitForApproval();
  const rejectedId = requestOf(submitted.location);
  await keep(
    'submitted for approval, with PO number and notes',
    submitted.location as string,
    [EVIL, SHORT, `${EVIL} ${SHORT}`, `main ${EVIL}`],
    { cookie: requester.cookie },
  );
  await keep(
    'approvals, approver',
    `${base}/approvals`,
    [`${EVIL} ${SHORT} · ${limited.profile.email}`, `${EVIL} × 2`, `PO ${SHORT}`, `${SHORT} ${EVIL}`],
    { cookie: decider.cookie },
  );
  await keep('approval request, approver', `${base}/approvals/${rejectedId}`, [EVIL, SHORT, `${EVIL} ${SHORT}`], {
    cookie: decider.cookie,
  });
  await keep('400 rejection reason with a control character', `${base}/approvals/${rejectedId}/reject`, [], {
    cookie: decider.cookie,
    form: { csrf: await tokenOf(decider.cookie), reason: `${SHORT}\u0007` },
  });
  const rejected = await decider.post(`${base}/approvals/${rejectedId}/reject`, { reason: EVIL });
  await keep('approval rejected', rejected.location as string, [`Rejected by ${SHORT} ${EVIL} `, EVIL], {
    cookie: decider.cookie,
  });
  await keep('orders, with a rejected request', `${base}/orders`, [EVIL], { cookie: requester.cookie });
  const approvedId = requestOf((await submitForApproval()).location);
  const approved = await decider.post(`${base}/approvals/${approvedId}/approve`, {});
  await keep('approval approved', approved.location as string, [`Approved by ${SHORT} ${EVIL} `], {
    cookie: decider.cookie,
  });
  const approvedOrder = (await stack.deps.approvalService.get(approvedId, { partnerId })).orderId as string;
  await keep(
    'order placed by an approval',
    `${base}/orders/${approvedOrder}`,
    [`, approved by ${SHORT} ${EVIL} (${approver.profile.email})`, EVIL, SHORT],
    { cookie: requester.cookie },
  );
  const withdrawnId = requestOf((await submitForApproval()).location);
  const withdrawn = await requester.post(`${base}/approvals/${withdrawnId}/withdraw`, {});
  await keep('approval withdrawn', withdrawn.location as string, [EVIL, SHORT], { cookie: requester.cookie });
  await keep('approvals, requester', `${base}/approvals`, [`${EVIL} × 2`, `PO ${SHORT}`, EVIL], {
    cookie: requester.cookie,
  });
  await keep('409 approval not pending', `${base}/approvals/${withdrawnId}/approve`, [], {
    cookie: decider.cookie,
    form: { csrf: await tokenOf(decider.cookie) },
  });
  await keep('409 order needs approval', `${base}/orders`, [], {
    cookie: requester.cookie,
    form: { csrf: await tokenOf(requester.cookie), location: buyer.locations[0]!.id },
  });
  await keep('404 approval request', `${base}/approvals/${encodeURIComponent(EVIL)}`, [], { cookie: decider.cookie });
  await stack.deps.cartService.add(approver.profile.id, 'EVIL-1', 1);
  const ownId = requestOf(
    (await decider.post(`${base}/approvals`, { location: buyer.locations[0]!.id, notes: EVIL })).location,
  );
  await keep('approval request, the approver’s own', `${base}/approvals/${ownId}`, [EVIL], { cookie: decider.cookie });
  await keep('403 own request', `${base}/approvals/${ownId}/approve`, [], {
    cookie: decider.cookie,
    form: { csrf: await tokenOf(decider.cookie) },
  });

  const single = await provisionProfile(
    stack.deps,
    partnerId,
    aSetupBody({ organizationName: SHORT, shippingLocations: [hostileLocation('only', true)] }),
  );
  const singleCookie = await signIn(single);
  await stack.deps.cartService.add(single.profile.id, 'EVIL-1');
  await keep('checkout, one location', `${base}/checkout`, [SHORT, `only ${EVIL}`], { cookie: singleCookie });
  await keep('401 no session', `${base}?q=${encodeURIComponent(EVIL)}`, []);
  await keep('signed out', `${base}/logout`, [], { cookie: singleCookie, form: {} });

  pages.push(
    {
      label: 'link unusable',
      status: 401,
      html: linkUnusablePage([`https://${SHORT}.test`, EVIL], 'link-unusable'),
      shows: [],
    },
    { label: 'unavailable', status: 500, html: unavailablePage([EVIL]), shows: [] },
  );

  const hostileUser: DemoUser = {
    slug: EVIL,
    role: EVIL,
    setup: { ...aSetupBody({ user: { firstName: EVIL, lastName: SHORT, email: 'x@acme.test' } }) },
  };
  pages.push(
    {
      label: 'demo',
      status: 200,
      html: demoPage({ users: [hostileUser], current: hostileUser, notice: EVIL }),
      shows: [EVIL, `${EVIL} ${SHORT}`],
    },
    { label: 'demo, no user', status: 200, html: demoPage({ users: [hostileUser] }), shows: [EVIL] },
    {
      label: 'demo webhook log',
      status: 200,
      html: webhookLogPage(
        [
          {
            receivedAt: new Date().toISOString(),
            deliveryId: EVIL,
            verified: false,
            rawBody: EVIL,
            body: { event: EVIL, data: { order_id: SHORT, status: EVIL, total: 1 } },
          },
        ],
        true,
      ),
      shows: [EVIL],
    },
  );
}, 120_000);
afterAll(() => stack.close());

describe('pages with markup in every value a partner or user chooses', () => {
  it('renders every page', () => {
    expect(pages.map((p) => [p.label, p.status])).toEqual([
      ['catalog after an add, with search text', 200],
      ['catalog, category junk', 200],
      ['catalog, search text', 200],
      ['catalog, no result', 200],
      ['catalog, hostile category, sorted by price', 200],
      ['product page', 200],
      ['product page after an add', 200],
      ['404 product', 404],
      ['cart', 200],
      ['checkout, two locations', 200],
      ['checkout, the other location', 200],
      ['order placed, with PO number and notes', 200],
      ['order with tracking, signature and refund', 200],
      ['cancelled order', 200],
      ['orders', 200],
      ['orders, cursor junk', expect.any(Number)],
      ['orders, status filter', 200],
      ['400 status junk', 400],
      ['400 PO number too long', 400],
      ['400 notes with a control character', 400],
      ['order guide after an add', 200],
      ['order guide, added junk', 200],
      ['409 order guide changed', 409],
      ['400 order guide quantity', 400],
      ['409 order guide unknown product', 409],
      ['cart after Buy again', 200],
      ['cart, notice junk', 200],
      ['403 forged post', 403],
      ['404 order', 404],
      ['409 empty cart', 409],
      ['400 quantity', 400],
      ['409 location gone', 409],
      ['checkout above the order limit', 200],
      ['submitted for approval, with PO number and notes', 200],
      ['approvals, approver', 200],
      ['approval request, approver', 200],
      ['400 rejection reason with a control character', 400],
      ['approval rejected', 200],
      ['orders, with a rejected request', 200],
      ['approval approved', 200],
      ['order placed by an approval', 200],
      ['approval withdrawn', 200],
      ['approvals, requester', 200],
      ['409 approval not pending', 409],
      ['409 order needs approval', 409],
      ['404 approval request', 404],
      ['approval request, the approver’s own', 200],
      ['403 own request', 403],
      ['checkout, one location', 200],
      ['401 no session', 401],
      ['signed out', 200],
      ['link unusable', 401],
      ['unavailable', 500],
      ['demo', 200],
      ['demo, no user', 200],
      ['demo webhook log', 200],
    ]);
  });

  it('lets no value become an element, an attribute, a script or a javascript: link', () => {
    for (const page of pages) {
      expect(injections(page.html), page.label).toEqual([]);
      expect(page.html, page.label).not.toContain('<script>alert');
      expect(page.html, page.label).not.toContain('<img src=x');
      // Our only pictures: the product pictures, from our own asset route, the key one encoded path segment.
      for (const image of elementsOf(parseDocument(page.html).children).filter((e) => e.name === 'img')) {
        expect(image.attribs.src, page.label).toMatch(/^\/embedded\/assets\/products\/[A-Za-z0-9%._~!*'()-]+$/);
        expect(Object.keys(image.attribs).sort(), page.label).toEqual(
          [
            'alt',
            'decoding',
            'height',
            'src',
            'width',
            ...(image.attribs.loading ? ['loading'] : []),
            ...(image.attribs.class === 'pic' ? ['class'] : []),
          ].sort(),
        );
      }
    }
  });

  it('shows each value as the text it is', () => {
    for (const page of pages) {
      const document = parseDocument(page.html);
      const text = textOf(document.children);
      const attributes = elementsOf(document.children).flatMap((e) => Object.values(e.attribs));
      for (const value of page.shows)
        expect(text.includes(value) || attributes.includes(value), `${page.label}: ${value}`).toBe(true);
    }
  });

  // Issue 28: axe's heading-order and page-has-heading-one, on every page a person reads.
  it('starts every page at one h1 and never skips a heading level', () => {
    for (const page of pages) {
      const levels = elementsOf(parseDocument(page.html).children)
        .filter((e) => /^h[1-6]$/.test(e.name))
        .map((e) => Number(e.name.slice(1)));
      expect(
        levels.filter((level) => level === 1),
        page.label,
      ).toHaveLength(1);
      expect(levels[0], page.label).toBe(1);
      levels.forEach(
        (level, i) =>
          i > 0 &&
          expect(level - levels[i - 1]!, `${page.label}: h${levels[i - 1]} then h${level}`).toBeLessThanOrEqual(1),
      );
    }
  });
});
