/** The order API (docs/orders-api.md) and the module's catalog, cart, orders and order guide (docs/module.md). */
import {
  EmptyCart,
  InvalidOrderTransition,
  OrderGuideChanged,
  OrderNotFound,
  ProductNotFound,
  ProductUnavailable,
  SalesTaxUnavailable,
  ShippingLocationUnavailable,
} from '../domain/errors';
import { type Entry, entry, general, toCart, toOrders } from './outcome-kit';

export const ORDER_OUTCOMES: readonly Entry[] = [
  // The order API (docs/orders-api.md) and the module's orders (docs/module.md).
  entry(InvalidOrderTransition, {
    api: {
      general: general(409, 'INVALID_ORDER_TRANSITION', (error) => ({
        details: [{ code: 'INVALID_ORDER_TRANSITION', message: error.message, path: ['status'] }],
        data: { order_id: error.orderId, status: error.from, requested_status: error.to },
      })),
    },
  }),
  entry(OrderNotFound, {
    api: { general: general(404, 'ORDER_NOT_FOUND') },
    module: (_, places) => ({
      status: 404,
      title: 'Order not found',
      message: 'Your organization has no order with this ID.',
      links: [{ ...toOrders(places), primary: true }],
    }),
  }),
  entry(ProductUnavailable, {
    api: {
      general: general(400, 'PRODUCT_UNAVAILABLE', (error) => ({
        details: error.productIds.map((productId) => ({
          code: 'PRODUCT_UNAVAILABLE',
          message: `${productId} is not an active catalog product`,
          path: ['items'],
        })),
      })),
    },
    module: (error, places) => ({
      status: 409,
      title: 'Some products are no longer available',
      message: `Not available: ${error.productIds.join(', ')}. Remove them from your cart and try again; nothing was ordered.`,
      links: [toCart(places)],
    }),
  }),
  // The module's product page (docs/module.md): unknown or no longer sold.
  entry(ProductNotFound, {
    module: (_, places) => ({
      status: 404,
      title: 'Product not found',
      message: 'This product is not in the catalog, or is no longer sold.',
      links: [{ href: places.home, label: 'Browse supplies', primary: true }],
    }),
  }),
  entry(ShippingLocationUnavailable, {
    api: {
      general: general(400, 'SHIPPING_LOCATION_UNAVAILABLE', (error) => ({
        details: [
          { code: 'SHIPPING_LOCATION_UNAVAILABLE', message: error.message, path: ['internal_shipping_location_id'] },
        ],
      })),
    },
    module: (_, places) => ({
      status: 409,
      title: 'Choose another shipping address',
      message: 'That shipping location is no longer available for your organization. Nothing was ordered.',
      links: [{ href: places.checkout, label: 'Back to checkout', primary: true }],
    }),
  }),
  // Stripe Tax did not answer: nothing is placed with a guessed tax (docs/billing.md, "Sales tax").
  entry(SalesTaxUnavailable, {
    api: {
      general: (error) => ({
        ...general(503, 'SALES_TAX_UNAVAILABLE')(error),
        headers: { 'Retry-After': '30' },
      }),
    },
    module: (_, places) => ({
      status: 503,
      title: 'Sales tax could not be calculated',
      message:
        'We could not get the sales tax for this order from our tax service, so nothing was ordered and your cart is unchanged. Try again in a minute.',
      links: [{ href: places.checkout, label: 'Back to checkout', primary: true }],
    }),
  }),
  entry(EmptyCart, {
    api: { general: general(400, 'EMPTY_CART') },
    module: (_, places) => ({
      status: 409,
      title: 'Your cart is empty',
      message: 'There was nothing to order. If you just placed an order, you will find it under Orders.',
      links: [
        { ...toOrders(places), primary: true },
        { href: places.home, label: 'Browse supplies' },
      ],
    }),
  }),
  // The organization's shared order guide (docs/module.md): a line someone else changed since the page was shown.
  entry(OrderGuideChanged, {
    module: (_, places) => ({
      status: 409,
      title: 'The order guide changed',
      message:
        'Someone in your organization changed or removed this line after you opened the page, so nothing was changed. Check the order guide and try again.',
      links: [{ href: places.orderGuide, label: 'Back to the order guide', primary: true }],
    }),
  }),
];
