/**
 * The module bridge's rules, on a fake window: it says nothing until the framing page's
 * hello, answers only that page, only at an allowed origin, never to '*', and ignores
 * every message that is not exactly a hello.
 */
import { describe, expect, it } from 'vitest';
import { type BridgeHost, startModuleBridge } from '../../functions/embed-sdk/module-bridge';
import { BRIDGE_ATTRIBUTES, envelope } from '../../functions/embed-sdk/protocol';

const EMBED = 'https://embed.example.com';
const PARTNER = 'https://app.partner.example';

function fakeModulePage(attributes: Record<string, string>) {
  const posted: { message: unknown; targetOrigin: string }[] = [];
  let deliver: Parameters<BridgeHost['onMessage']>[0] = () => undefined;
  let heightListener: ((height: number) => void) | undefined;
  const host: BridgeHost = {
    parent: { postMessage: (message, targetOrigin) => posted.push({ message, targetOrigin }) },
    selfOrigin: EMBED,
    attribute: (name) => attributes[name],
    onMessage: (listener) => {
      deliver = listener;
    },
    observeHeight: (listener) => {
      heightListener = listener;
      listener(812.4);
    },
  };
  startModuleBridge(host);
  return {
    posted,
    receive: (data: unknown, origin: string, fromParent = true) => deliver({ data, origin, fromParent }),
    grow: (height: number) => heightListener?.(height),
  };
}

const catalogPage = {
  [BRIDGE_ATTRIBUTES.origins]: `${PARTNER} https://*.partner.test`,
  [BRIDGE_ATTRIBUTES.page]: 'catalog',
  [BRIDGE_ATTRIBUTES.itemCount]: '2',
};
const hello = envelope('hello', {});

describe('the module bridge', () => {
  it('sends nothing before a hello, then the page and its height to the hello origin only', () => {
    const page = fakeModulePage(catalogPage);
    expect(page.posted).toEqual([]);
    page.receive(hello, PARTNER);
    expect(page.posted).toEqual([
      { message: envelope('page', { page: 'catalog', item_count: 2 }), targetOrigin: PARTNER },
      { message: envelope('resize', { height: 813 }), targetOrigin: PARTNER },
    ]);
    page.grow(900);
    expect(page.posted.at(-1)).toEqual({ message: envelope('resize', { height: 900 }), targetOrigin: PARTNER });
  });

  it('answers a wildcard-allowed origin', () => {
    const page = fakeModulePage(catalogPage);
    page.receive(hello, 'https://eu.partner.test');
    expect(page.posted.map((p) => p.targetOrigin)).toEqual(['https://eu.partner.test', 'https://eu.partner.test']);
  });

  it.each([
    ['an origin the partner does not allow', 'https://evil.example', true],
    ['the allowed host over http', 'http://app.partner.example', true],
    ['an opaque origin', 'null', true],
    ['a window that is not its parent', PARTNER, false],
  ])('never posts after a hello from %s', (_case, origin, fromParent) => {
    const page = fakeModulePage(catalogPage);
    page.receive(hello, origin, fromParent);
    page.grow(1000);
    expect(page.posted).toEqual([]);
  });

  it.each([
    ['another protocol', { protocol: 'other', version: 1, type: 'hello', data: {} }],
    ['another version', { protocol: 'supplies-embed', version: 2, type: 'hello', data: {} }],
    ['no data', { protocol: 'supplies-embed', version: 1, type: 'hello' }],
    ['a string', 'hello'],
    ['another type', envelope('page', { page: 'catalog', item_count: 1 })],
  ])('ignores %s', (_case, data) => {
    const page = fakeModulePage(catalogPage);
    page.receive(data, PARTNER);
    expect(page.posted).toEqual([]);
  });

  it('never posts to "*", even when the page lists no origin', () => {
    const page = fakeModulePage({ ...catalogPage, [BRIDGE_ATTRIBUTES.origins]: '' });
    page.receive(hello, PARTNER);
    page.receive(hello, '*');
    expect(page.posted).toEqual([]);
  });

  it('reports an ended session, an unusable link or a sign-out instead of a page, and a placed order with it', () => {
    const ended = fakeModulePage({ [BRIDGE_ATTRIBUTES.origins]: PARTNER, [BRIDGE_ATTRIBUTES.ended]: 'session-ended' });
    ended.receive(hello, PARTNER);
    expect(ended.posted[0]?.message).toEqual(envelope('session.ended', {}));

    const placed = fakeModulePage({
      ...catalogPage,
      [BRIDGE_ATTRIBUTES.page]: 'order',
      [BRIDGE_ATTRIBUTES.itemCount]: '0',
      [BRIDGE_ATTRIBUTES.orderId]: 'ord-1',
      [BRIDGE_ATTRIBUTES.orderTotal]: '162.38',
    });
    placed.receive(hello, PARTNER);
    expect(placed.posted[0]?.message).toEqual(
      envelope('page', { page: 'order', item_count: 0, order: { order_id: 'ord-1', total: 162.38 } }),
    );
  });
});
