import * as z from 'zod/mini';

/** The six order event kinds of the contract (Events). */
export const ORDER_EVENT_KINDS = [
  'order.created',
  'order.confirmed',
  'order.shipped',
  'order.delivered',
  'order.cancelled',
  'order.refunded',
] as const;
export const OrderEventKind = z.enum(ORDER_EVENT_KINDS);
export type OrderEventKind = z.infer<typeof OrderEventKind>;
