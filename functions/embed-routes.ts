/**
 * The embed host's rows of the route table (functions/routes.ts): the module's opening,
 * its pages and its form posts. Plain data, as the table is.
 */
import { type Route, routeRows } from './route-types';

const embed = { host: 'embed', fn: 'embed' } as const;
/** The module's pages: people clicking, a few requests a second per user at most. */
const page = { ...embed, throttle: { rate: 50, burst: 100 } } as const;

export const EMBED_ROUTES = /* @__PURE__ */ routeRows(
  () =>
    [
      {
        ...embed,
        name: 'module-open',
        method: 'GET',
        path: '/embedded/{partnerId}',
        throttle: { rate: 50, burst: 100 },
      },
      {
        ...embed,
        name: 'module-logout',
        method: 'POST',
        path: '/embedded/{partnerId}/logout',
        throttle: { rate: 10, burst: 20 },
      },
      // The procurement module (docs/module.md): pages are GETs, every change a form POST.
      { ...page, name: 'module-product', method: 'GET', path: '/embedded/{partnerId}/products/{productId}' },
      { ...page, name: 'module-cart', method: 'GET', path: '/embedded/{partnerId}/cart' },
      { ...page, name: 'module-cart-add', method: 'POST', path: '/embedded/{partnerId}/cart/items' },
      { ...page, name: 'module-cart-line', method: 'POST', path: '/embedded/{partnerId}/cart/items/{productId}' },
      { ...page, name: 'module-checkout', method: 'GET', path: '/embedded/{partnerId}/checkout' },
      { ...page, name: 'module-orders', method: 'GET', path: '/embedded/{partnerId}/orders' },
      // Placing an order writes a transaction: the lowest of the module's routes.
      {
        ...embed,
        name: 'module-order-place',
        method: 'POST',
        path: '/embedded/{partnerId}/orders',
        throttle: { rate: 20, burst: 40 },
      },
      { ...page, name: 'module-order', method: 'GET', path: '/embedded/{partnerId}/orders/{orderId}' },
      { ...page, name: 'module-invoices', method: 'GET', path: '/embedded/{partnerId}/invoices' },
      // The approvers' spend report (docs/module.md, "Spending"): a page and its month as CSV.
      { ...page, name: 'module-spending', method: 'GET', path: '/embedded/{partnerId}/spending' },
      { ...page, name: 'module-spending-csv', method: 'GET', path: '/embedded/{partnerId}/spending/csv' },
      // Buy again writes up to 50 cart lines: a click, not a stream.
      {
        ...embed,
        name: 'module-buy-again',
        method: 'POST',
        path: '/embedded/{partnerId}/orders/{orderId}/buy-again',
        throttle: { rate: 20, burst: 40 },
      },
      // Approval requests (docs/module.md, "Approvals"): submitting writes a transaction like placing an order, and so
      // do the decisions (an approval places the order); the requester's and approvers' pages are pages.
      {
        ...embed,
        name: 'module-approval-submit',
        method: 'POST',
        path: '/embedded/{partnerId}/approvals',
        throttle: { rate: 20, burst: 40 },
      },
      { ...page, name: 'module-approvals', method: 'GET', path: '/embedded/{partnerId}/approvals' },
      { ...page, name: 'module-approval', method: 'GET', path: '/embedded/{partnerId}/approvals/{requestId}' },
      {
        ...embed,
        name: 'module-approval-approve',
        method: 'POST',
        path: '/embedded/{partnerId}/approvals/{requestId}/approve',
        throttle: { rate: 20, burst: 40 },
      },
      {
        ...embed,
        name: 'module-approval-reject',
        method: 'POST',
        path: '/embedded/{partnerId}/approvals/{requestId}/reject',
        throttle: { rate: 20, burst: 40 },
      },
      {
        ...embed,
        name: 'module-approval-withdraw',
        method: 'POST',
        path: '/embedded/{partnerId}/approvals/{requestId}/withdraw',
        throttle: { rate: 20, burst: 40 },
      },
      {
        ...embed,
        name: 'module-approval-resubmit',
        method: 'POST',
        path: '/embedded/{partnerId}/approvals/{requestId}/resubmit',
        throttle: { rate: 20, burst: 40 },
      },
      // The organization's order guide: the page, its one form, and the catalog cards' add.
      { ...page, name: 'module-order-guide', method: 'GET', path: '/embedded/{partnerId}/order-guide' },
      { ...page, name: 'module-order-guide-change', method: 'POST', path: '/embedded/{partnerId}/order-guide' },
      { ...page, name: 'module-order-guide-add', method: 'POST', path: '/embedded/{partnerId}/order-guide/items' },
      // The host SDK and the module bridge (docs/embedding.md): browsers cache the SDK for a year and the bridge for
      // five minutes, so these are mostly first visits. The frame check: one per mount of the SDK on another origin.
      { ...embed, name: 'embed-sdk', method: 'GET', path: '/sdk/v1/embed.js', throttle: { rate: 50, burst: 100 } },
      {
        ...embed,
        name: 'module-bridge',
        method: 'GET',
        path: '/embedded/assets/bridge-v1.js',
        throttle: { rate: 50, burst: 100 },
      },
      // The module pages' own script (apply on change, checkout's totals), cached like the bridge.
      {
        ...embed,
        name: 'module-pages-script',
        method: 'GET',
        path: '/embedded/assets/module-v1.js',
        throttle: { rate: 50, burst: 100 },
      },
      // Product pictures from the stack's bucket, by content key (immutable): same origin as the pages, so their CSP stays
      // `img-src 'self'`. A catalog page shows up to 24 pictures; browsers keep each for a year.
      {
        ...embed,
        name: 'product-image',
        method: 'GET',
        path: '/embedded/assets/products/{imageKey}',
        throttle: { rate: 200, burst: 400 },
      },
      {
        ...embed,
        name: 'frame-check',
        method: 'GET',
        path: '/embedded/{partnerId}/frame-check',
        throttle: { rate: 50, burst: 100 },
      },
    ] as const satisfies readonly Route[],
);
