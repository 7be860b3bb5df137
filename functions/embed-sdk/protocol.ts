/**
 * The messages between the host SDK (on the partner's page) and the module bridge (in
 * the iframe). Every message is one envelope; either side ignores anything that is not
 * exactly an envelope of a type it knows, with the data that type carries.
 */
const PROTOCOL = 'supplies-embed';
const PROTOCOL_VERSION = 1;

export interface Envelope<T extends string, D> {
  readonly protocol: typeof PROTOCOL;
  readonly version: typeof PROTOCOL_VERSION;
  readonly type: T;
  readonly data: D;
}

/** What the module's page shows: which page, the cart's units, and the order it just placed (confirmation page only). */
export interface PageState {
  readonly page: string;
  readonly item_count: number;
  readonly order?: { readonly order_id: string; readonly total: number };
}

/** Module → host. `session.ended` and `link.unusable` are pages that replace the module when its session or link is gone. */
export type ModuleMessage =
  | Envelope<'page', PageState>
  | Envelope<'resize', { readonly height: number }>
  | Envelope<'session.ended', Record<string, never>>
  | Envelope<'link.unusable', Record<string, never>>
  | Envelope<'signed_out', Record<string, never>>;

export const envelope = <T extends string, D>(type: T, data: D): Envelope<T, D> => ({
  protocol: PROTOCOL,
  version: PROTOCOL_VERSION,
  type,
  data,
});

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < 1e6;
const isShortText = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= 100;

/** The type and data of an envelope of this protocol version, else undefined. */
function openEnvelope(value: unknown): { type: string; data: Record<string, unknown> } | undefined {
  if (!isRecord(value) || value.protocol !== PROTOCOL || value.version !== PROTOCOL_VERSION) return undefined;
  if (typeof value.type !== 'string' || !isRecord(value.data)) return undefined;
  return { type: value.type, data: value.data };
}

export const isHello = (value: unknown): boolean => openEnvelope(value)?.type === 'hello';

/** A module message with exactly the data its type carries, else undefined. */
export function readModuleMessage(value: unknown): ModuleMessage | undefined {
  const message = openEnvelope(value);
  if (!message) return undefined;
  const { type, data } = message;
  switch (type) {
    case 'page': {
      if (!isShortText(data.page) || !isCount(data.item_count)) return undefined;
      const order = data.order;
      if (order === undefined) return envelope('page', { page: data.page, item_count: data.item_count });
      if (
        !isRecord(order) ||
        !isShortText(order.order_id) ||
        typeof order.total !== 'number' ||
        !Number.isFinite(order.total)
      )
        return undefined;
      return envelope('page', {
        page: data.page,
        item_count: data.item_count,
        order: { order_id: order.order_id, total: order.total },
      });
    }
    case 'resize':
      return isCount(data.height) ? envelope('resize', { height: data.height }) : undefined;
    case 'session.ended':
    case 'link.unusable':
    case 'signed_out':
      return envelope(type, {});
    default:
      return undefined;
  }
}

/**
 * The data attributes the embed host renders on the `<html>` element of every page the
 * bridge runs in (the server writes them, the bridge reads them).
 */
export const BRIDGE_ATTRIBUTES = {
  /** The partner's allowed frame origins, space-separated (the CSP's frame-ancestors sources). */
  origins: 'data-embed-origins',
  page: 'data-embed-page',
  itemCount: 'data-embed-item-count',
  orderId: 'data-embed-order-id',
  orderTotal: 'data-embed-order-total',
  /** On pages that replace the module: `session-ended`, `link-unusable` or `signed-out`. */
  ended: 'data-embed-ended',
} as const;

export type EndedState = 'session-ended' | 'link-unusable' | 'signed-out';
