/**
 * The module side of the protocol, running in every page the embed host renders into
 * the iframe. It stays silent until the page that framed it says hello, and answers only
 * that page (its `parent`), only at the hello's origin, and only when that origin is one
 * of the partner's allowed frame origins the server rendered into the page. Never `'*'`.
 */
import { BRIDGE_ATTRIBUTES, type EndedState, envelope, isHello, type ModuleMessage, type PageState } from './protocol';
import { isAllowedFrameOrigin } from './frame-origin';

/** What the bridge uses of a browser window; the entry file adapts the real one, tests a fake. */
export interface BridgeHost {
  /** The framing window, or undefined when the page is not framed. */
  readonly parent: { postMessage(message: unknown, targetOrigin: string): void } | undefined;
  readonly selfOrigin: string;
  attribute(name: string): string | undefined;
  onMessage(listener: (message: { data: unknown; origin: string; fromParent: boolean }) => void): void;
  /** Calls back with the document's height in CSS pixels now and whenever it changes. */
  observeHeight(listener: (height: number) => void): void;
}

const ENDED_MESSAGES: Readonly<Record<EndedState, ModuleMessage['type']>> = {
  'session-ended': 'session.ended',
  'link-unusable': 'link.unusable',
  'signed-out': 'signed_out',
};

function pageState(host: BridgeHost): PageState | undefined {
  const page = host.attribute(BRIDGE_ATTRIBUTES.page);
  if (!page) return undefined;
  const itemCount = Number(host.attribute(BRIDGE_ATTRIBUTES.itemCount) ?? '0');
  const orderId = host.attribute(BRIDGE_ATTRIBUTES.orderId);
  const total = Number(host.attribute(BRIDGE_ATTRIBUTES.orderTotal));
  return {
    page,
    item_count: Number.isInteger(itemCount) && itemCount >= 0 ? itemCount : 0,
    ...(orderId && Number.isFinite(total) ? { order: { order_id: orderId, total } } : {}),
  };
}

export function startModuleBridge(host: BridgeHost): void {
  const parent = host.parent;
  if (!parent) return;
  const origins = (host.attribute(BRIDGE_ATTRIBUTES.origins) ?? '').split(' ').filter(Boolean);
  let target: string | undefined;
  let height: number | undefined;

  const send = (message: ModuleMessage) => {
    if (target) parent.postMessage(message, target);
  };

  host.onMessage(({ data, origin, fromParent }) => {
    if (!fromParent || !isHello(data) || !isAllowedFrameOrigin(origin, origins, host.selfOrigin)) return;
    target = origin;
    const ended = host.attribute(BRIDGE_ATTRIBUTES.ended) as EndedState | undefined;
    const state = pageState(host);
    if (ended && ENDED_MESSAGES[ended]) send(envelope(ENDED_MESSAGES[ended], {}) as ModuleMessage);
    else if (state) send(envelope('page', state));
    if (height !== undefined) {
      send(envelope('resize', { height }));
      return;
    }
    host.observeHeight((measured) => {
      const rounded = Math.ceil(measured);
      if (rounded === height) return;
      height = rounded;
      send(envelope('resize', { height }));
    });
  });
}
