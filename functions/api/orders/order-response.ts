/**
 * An order as the partner API answers it (docs/orders-api.md): snake_case, money as
 * numbers with at most two decimals, the webhooks' field names where they overlap, and
 * the fields of each later status only once the order has reached it. The schemas are
 * strict so the document (docs/openapi.json) and the contract tests hold real responses
 * to them; the builders return their types, so the handler cannot answer a field the
 * document lacks.
 */
// zod/mini: the orders Lambda builds these schemas at cold start.
import * as z from 'zod/mini';
import { fromCents } from '../../domain/money';
import {
  type Order,
  type OrderItem,
  OrderStatus,
  PAYMENT_METHOD,
  refundedCentsOf,
  refundedTotalOf,
  type ShippingAddressSnapshot,
} from '../../domain/orders/order';
import type { OrderPage } from '../../domain/orders/order-repository';

/** Dollars: computed in integer cents, so at most two decimals (`multipleOf` is left out: floats make 0.01 steps fail). */
export const Dollars = z.number().check(z.gte(0));

export const OrderItemBody = z.strictObject({
  product_id: z.string(),
  name: z.string(),
  unit: z.string(),
  quantity: z.int().check(z.gte(1)),
  /** The unit price when the order was placed. */
  price: Dollars,
});

export const ShippingAddressBody = z.strictObject({
  line1: z.string(),
  line2: z.optional(z.string()),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
});

const StatusChangeBody = z.strictObject({ status: OrderStatus, at: z.iso.datetime() });

const RefundBody = z.strictObject({ amount: Dollars, refunded_at: z.iso.datetime(), reason: z.optional(z.string()) });

export const OrderBody = z.strictObject({
  id: z.uuid(),
  status: OrderStatus,
  /** Your `internalOrgId` of the organization that placed it. */
  partner_org_id: z.string(),
  /** Your `internalUserId` of who placed it (the requester, for an order placed by approving a request). */
  internal_user_id: z.string(),
  user_email: z.string(),
  /** Only on an order placed by approving an approval request: who approved it, as `order.created` has it. */
  approved_by: z.optional(z.strictObject({ internal_user_id: z.string(), email: z.string() })),
  /** The buyer's purchase-order number from checkout (at most 64 characters), or null. */
  po_number: z.nullable(z.string()),
  /** The buyer's notes from checkout (at most 500 characters), or null. */
  notes: z.nullable(z.string()),
  items: z.array(OrderItemBody),
  subtotal: Dollars,
  tax: Dollars,
  shipping: Dollars,
  /** Exactly subtotal + tax + shipping. */
  total: Dollars,
  payment_method: z.literal(PAYMENT_METHOD),
  shipping_address: ShippingAddressBody,
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  status_history: z.array(StatusChangeBody),
  confirmed_at: z.optional(z.iso.datetime()),
  tracking_number: z.optional(z.string()),
  carrier: z.optional(z.string()),
  tracking_url: z.optional(z.url()),
  estimated_delivery: z.optional(z.iso.datetime({ offset: true })),
  shipped_at: z.optional(z.iso.datetime()),
  delivered_at: z.optional(z.iso.datetime()),
  /** Who signed for the delivery. */
  signature: z.optional(z.string()),
  cancelled_at: z.optional(z.iso.datetime()),
  cancellation_reason: z.optional(z.string()),
  /** The latest refund: its amount, time and reason. */
  refund_amount: z.optional(Dollars),
  refunded_at: z.optional(z.iso.datetime()),
  refund_reason: z.optional(z.string()),
  /** Every refund so far; the order stays `delivered` until this reaches `total`. */
  amount_refunded: z.optional(Dollars),
  /** Each refund, oldest first (an order may be refunded in parts, up to its total). */
  refunds: z.optional(z.array(RefundBody)),
});
export type OrderBody = z.infer<typeof OrderBody>;

/** `GET /v1/orders`: one page, newest first; `has_more` asks for the next with `starting_after` = the last `id`. */
export const OrderListBody = z.strictObject({ data: z.array(OrderBody), has_more: z.boolean() });
export type OrderListBody = z.infer<typeof OrderListBody>;

/** What the sandbox routes answer: the order as it is after the change. */
export const OrderChangeBody = z.strictObject({ success: z.literal(true), order: OrderBody });
export type OrderChangeBody = z.infer<typeof OrderChangeBody>;

/** A line as an order (or an approval request) has it: the unit price when it was priced. */
export const toOrderItemBody = (item: OrderItem): z.infer<typeof OrderItemBody> => ({
  product_id: item.productId,
  name: item.name,
  unit: item.unit,
  quantity: item.quantity,
  price: fromCents(item.unitPriceCents),
});

export const toShippingAddressBody = (address: ShippingAddressSnapshot): z.infer<typeof ShippingAddressBody> => ({
  line1: address.line1,
  ...(address.line2 === undefined ? {} : { line2: address.line2 }),
  city: address.city,
  state: address.state,
  zip: address.zip,
});

export const toOrderResponse = (order: Order): OrderBody => ({
  id: order.id,
  status: order.status,
  partner_org_id: order.internalOrgId,
  internal_user_id: order.internalUserId,
  user_email: order.userEmail,
  ...(order.approvedBy === undefined
    ? {}
    : { approved_by: { internal_user_id: order.approvedBy.internalUserId, email: order.approvedBy.email } }),
  po_number: order.poNumber ?? null,
  notes: order.notes ?? null,
  items: order.items.map(toOrderItemBody),
  subtotal: fromCents(order.subtotalCents),
  tax: fromCents(order.taxCents),
  shipping: fromCents(order.shippingCents),
  total: fromCents(order.totalCents),
  payment_method: order.paymentMethod,
  shipping_address: toShippingAddressBody(order.shippingAddress),
  created_at: order.createdAt,
  updated_at: order.updatedAt,
  // Each status the order reached: a partial refund changes none (it is in `refunds`).
  status_history: order.statusHistory
    .filter((change) => change.status !== 'refunded' || refundedTotalOf(change) === order.totalCents)
    .map((change) => ({ status: change.status, at: change.at })),
  ...(order.confirmedAt === undefined ? {} : { confirmed_at: order.confirmedAt }),
  ...(order.shipment === undefined
    ? {}
    : {
        tracking_number: order.shipment.trackingNumber,
        carrier: order.shipment.carrier,
        tracking_url: order.shipment.trackingUrl,
        estimated_delivery: order.shipment.estimatedDelivery,
        shipped_at: order.shipment.shippedAt,
      }),
  ...(order.delivery === undefined
    ? {}
    : { delivered_at: order.delivery.deliveredAt, signature: order.delivery.signature }),
  ...(order.cancellation === undefined
    ? {}
    : {
        cancelled_at: order.cancellation.cancelledAt,
        ...(order.cancellation.reason === undefined ? {} : { cancellation_reason: order.cancellation.reason }),
      }),
  ...(order.refund === undefined
    ? {}
    : {
        refund_amount: fromCents(order.refund.amountCents),
        refunded_at: order.refund.refundedAt,
        ...(order.refund.reason === undefined ? {} : { refund_reason: order.refund.reason }),
        amount_refunded: fromCents(refundedCentsOf(order)),
        refunds: order.statusHistory
          .filter((change) => change.status === 'refunded')
          .map((change) => ({
            amount: fromCents(change.amountCents),
            refunded_at: change.at,
            ...(change.reason === undefined ? {} : { reason: change.reason }),
          })),
      }),
});

export const toOrderListResponse = (page: OrderPage): OrderListBody => ({
  data: page.orders.map(toOrderResponse),
  has_more: page.nextCursor !== undefined,
});

export const toOrderChangeResponse = (order: Order): OrderChangeBody => ({
  success: true,
  order: toOrderResponse(order),
});
