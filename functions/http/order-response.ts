import type { Product } from '../domain/catalog/product';
import { fromCents } from '../domain/money';
import type { Order } from '../domain/orders/order';

/**
 * An order as the partner API shows it (docs/orders-api.md): snake_case, money as
 * numbers with at most two decimals, the webhooks' field names where they overlap, and
 * the fields of each later status only once the order has reached it.
 */
export const toOrderResponse = (order: Order) => ({
  id: order.id,
  status: order.status,
  partner_org_id: order.internalOrgId,
  user_email: order.userEmail,
  items: order.items.map((item) => ({
    product_id: item.productId,
    name: item.name,
    unit: item.unit,
    quantity: item.quantity,
    price: fromCents(item.unitPriceCents),
  })),
  subtotal: fromCents(order.subtotalCents),
  tax: fromCents(order.taxCents),
  shipping: fromCents(order.shippingCents),
  total: fromCents(order.totalCents),
  payment_method: order.paymentMethod,
  shipping_address: {
    line1: order.shippingAddress.line1,
    ...(order.shippingAddress.line2 === undefined ? {} : { line2: order.shippingAddress.line2 }),
    city: order.shippingAddress.city,
    state: order.shippingAddress.state,
    zip: order.shippingAddress.zip,
  },
  created_at: order.createdAt,
  updated_at: order.updatedAt,
  status_history: order.statusHistory.map((change) => ({ status: change.status, at: change.at })),
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
  ...(order.delivery === undefined ? {} : { delivered_at: order.delivery.deliveredAt, signature: order.delivery.signature }),
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
      }),
});

/** A catalog product as `GET /v1/catalog/products` lists it: what a partner needs to order it. */
export const toCatalogProductResponse = (product: Product) => ({
  product_id: product.productId,
  name: product.name,
  description: product.description,
  category: product.category,
  price: fromCents(product.priceCents),
  unit: product.unit,
});
