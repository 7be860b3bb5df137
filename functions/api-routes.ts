/**
 * The partner API's rows of the route table (functions/routes.ts): its own routes, the
 * sandbox's, and Stripe's signed one. Plain data, as the table is.
 */
import { type ErrorShape, type Route, routeRows } from './route-types';

const GENERAL_ERRORS = {
  shape: 'general',
  serverError: { code: 'INTERNAL_ERROR', message: 'The request failed; retry with exponential backoff' },
} as const satisfies ErrorShape;

/** The order API's reads (docs/orders-api.md): reconciliation after missed webhooks, so they get the handshake's budget. */
const orderRead = {
  host: 'api',
  credential: 'authorization-bearer',
  scope: 'orders:read',
  body: 'ignored',
  errors: GENERAL_ERRORS,
  sandboxOnly: false,
} as const;
/** The sandbox's writes: a partner's CI placing and advancing orders; setup's budget, and a low ceiling. */
const sandboxWrite = {
  host: 'api',
  credential: 'authorization-bearer',
  scope: 'orders:write',
  errors: GENERAL_ERRORS,
  sandboxOnly: true,
  throttle: { rate: 10, burst: 20 },
} as const;
const transition = {
  ...sandboxWrite,
  fn: 'ordersApi',
  endpoint: 'sandbox-order-transition',
  limitPerMinute: 100,
  body: 'optional',
} as const;
/** An approver's decision on sandbox: the body names the approver, so it is required. */
const approvalDecision = {
  ...sandboxWrite,
  fn: 'ordersApi',
  endpoint: 'sandbox-approval-decision',
  limitPerMinute: 100,
  body: 'required',
} as const;
/** A partner's own deliveries and endpoint (docs/webhooks.md, "Inspecting and retrying deliveries"), on both stages. */
const webhookRead = {
  host: 'api',
  fn: 'webhooksApi',
  credential: 'authorization-bearer',
  scope: 'webhooks:read',
  body: 'ignored',
  errors: GENERAL_ERRORS,
  sandboxOnly: false,
} as const;
/** The sandbox's invoice actions share one window, as the order actions do; each is a Stripe call. */
const invoiceAction = {
  ...sandboxWrite,
  fn: 'ordersApi',
  endpoint: 'sandbox-invoice-action',
  limitPerMinute: 60,
  body: 'optional',
} as const;
const organizationChange = {
  host: 'api',
  fn: 'setup',
  credential: 'authorization-bearer',
  scope: 'organization:write',
  limitPerMinute: 100,
  errors: GENERAL_ERRORS,
  sandboxOnly: false,
  throttle: { rate: 20, burst: 40 },
} as const;

/**
 * The handshake's row, exported on its own: its function reads it directly, so its bundle carries this row and not
 * the whole table (its 150 KB budget, lib/infrastructure/bundle-budgets.ts).
 */
export const HANDSHAKE_ROUTE = {
  host: 'api',
  name: 'handshake',
  method: 'POST',
  path: '/v1/partner/handshake',
  fn: 'handshake',
  endpoint: 'handshake',
  credential: 'x-api-key',
  scope: 'session:write',
  limitPerMinute: 300,
  body: 'required',
  errors: {
    shape: 'handshake',
    serverError: {
      error: 'Failed to create authentication session',
      details: 'The session could not be created; retry with exponential backoff',
    },
  },
  sandboxOnly: false,
  throttle: { rate: 50, burst: 100 },
} as const satisfies Route;

export const API_ROUTES = /* @__PURE__ */ routeRows(
  () =>
    [
      {
        host: 'api',
        name: 'setup',
        method: 'POST',
        path: '/v1/organizations/setup',
        fn: 'setup',
        endpoint: 'setup',
        credential: 'authorization-bearer',
        scope: 'organization:write',
        limitPerMinute: 100,
        body: 'required',
        errors: {
          shape: 'general',
          serverError: { code: 'SETUP_ERROR', message: 'Setup failed; retry with exponential backoff' },
        },
        sandboxOnly: false,
        // The lowest ceiling: every new organization creates a Stripe customer.
        throttle: { rate: 20, burst: 40 },
      },
      HANDSHAKE_ROUTE,
      // The organization itself after setup (docs/setup.md): its contact, billing e-mail and payment terms. A PATCH updates
      // the organization's Stripe customer, so it keeps setup's ceiling.
      {
        ...organizationChange,
        name: 'organization-get',
        method: 'GET',
        path: '/v1/organizations/{internalOrgId}',
        endpoint: 'organization-get',
        body: 'ignored',
      },
      {
        ...organizationChange,
        name: 'organization-update',
        method: 'PATCH',
        path: '/v1/organizations/{internalOrgId}',
        endpoint: 'organization-update',
        body: 'required',
      },
      // The partner's users and shipping locations after setup (docs/setup.md), served by the setup function: each has
      // setup's scope and budget in a window of its own, so syncing users never starves provisioning. No Stripe: a higher ceiling.
      {
        ...organizationChange,
        name: 'organization-user-get',
        method: 'GET',
        path: '/v1/organizations/{internalOrgId}/users/{internalUserId}',
        endpoint: 'organization-user-get',
        body: 'ignored',
      },
      {
        ...organizationChange,
        name: 'organization-user-update',
        method: 'PATCH',
        path: '/v1/organizations/{internalOrgId}/users/{internalUserId}',
        endpoint: 'organization-user-update',
        body: 'required',
      },
      {
        ...organizationChange,
        name: 'shipping-location-create',
        method: 'POST',
        path: '/v1/organizations/{internalOrgId}/shipping-locations',
        endpoint: 'shipping-location-create',
        body: 'required',
      },
      {
        ...organizationChange,
        name: 'shipping-location-update',
        method: 'PATCH',
        path: '/v1/organizations/{internalOrgId}/shipping-locations/{internalShippingLocationId}',
        endpoint: 'shipping-location-update',
        body: 'required',
      },
      // The catalog changes rarely and is cached by callers. Reads are cheap single queries: the per-partner limits bind long before the ceilings.
      {
        ...orderRead,
        name: 'catalog-products',
        method: 'GET',
        path: '/v1/catalog/products',
        fn: 'ordersApi',
        endpoint: 'catalog-products',
        limitPerMinute: 60,
        throttle: { rate: 20, burst: 40 },
      },
      {
        ...orderRead,
        name: 'order-list',
        method: 'GET',
        path: '/v1/orders',
        fn: 'ordersApi',
        endpoint: 'order-list',
        limitPerMinute: 300,
        throttle: { rate: 50, burst: 100 },
      },
      {
        ...orderRead,
        name: 'order-get',
        method: 'GET',
        path: '/v1/orders/{order_id}',
        fn: 'ordersApi',
        endpoint: 'order-get',
        limitPerMinute: 300,
        throttle: { rate: 50, burst: 100 },
      },
      {
        ...orderRead,
        name: 'invoice-list',
        method: 'GET',
        path: '/v1/invoices',
        fn: 'ordersApi',
        endpoint: 'invoice-list',
        limitPerMinute: 300,
        throttle: { rate: 50, burst: 100 },
      },
      {
        ...orderRead,
        name: 'invoice-get',
        method: 'GET',
        path: '/v1/invoices/{invoice_id}',
        fn: 'ordersApi',
        endpoint: 'invoice-get',
        limitPerMinute: 300,
        throttle: { rate: 50, burst: 100 },
      },
      {
        ...sandboxWrite,
        name: 'sandbox-order-create',
        method: 'POST',
        path: '/v1/sandbox/orders',
        fn: 'ordersApi',
        endpoint: 'sandbox-order-create',
        limitPerMinute: 100,
        body: 'required',
      },
      // The five actions share one window, in the order of the lifecycle.
      { ...transition, name: 'sandbox-order-confirm', method: 'POST', path: '/v1/sandbox/orders/{order_id}/confirm' },
      { ...transition, name: 'sandbox-order-ship', method: 'POST', path: '/v1/sandbox/orders/{order_id}/ship' },
      { ...transition, name: 'sandbox-order-deliver', method: 'POST', path: '/v1/sandbox/orders/{order_id}/deliver' },
      { ...transition, name: 'sandbox-order-cancel', method: 'POST', path: '/v1/sandbox/orders/{order_id}/cancel' },
      { ...transition, name: 'sandbox-order-refund', method: 'POST', path: '/v1/sandbox/orders/{order_id}/refund' },
      // Approval requests (docs/orders-api.md) are orders-to-be: reading them is `orders:read` with the order reads'
      // budget, and on sandbox an approver's two decisions share one window, as the order actions do.
      {
        ...orderRead,
        name: 'approval-request-list',
        method: 'GET',
        path: '/v1/organizations/{internalOrgId}/approval-requests',
        fn: 'ordersApi',
        endpoint: 'approval-request-list',
        limitPerMinute: 300,
        throttle: { rate: 50, burst: 100 },
      },
      {
        ...orderRead,
        name: 'approval-request-get',
        method: 'GET',
        path: '/v1/approval-requests/{approval_request_id}',
        fn: 'ordersApi',
        endpoint: 'approval-request-get',
        limitPerMinute: 300,
        throttle: { rate: 50, burst: 100 },
      },
      // The spend report (docs/orders-api.md, "Spend report"): an organization read, so the order reads' scope and budget.
      {
        ...orderRead,
        name: 'organization-spend',
        method: 'GET',
        path: '/v1/organizations/{internalOrgId}/spend',
        fn: 'ordersApi',
        endpoint: 'organization-spend',
        limitPerMinute: 300,
        throttle: { rate: 50, burst: 100 },
      },
      // What an organization owes (docs/billing.md, "Statement"): an organization read, so the order reads' scope and budget.
      {
        ...orderRead,
        name: 'organization-statement',
        method: 'GET',
        path: '/v1/organizations/{internalOrgId}/statement',
        fn: 'ordersApi',
        endpoint: 'organization-statement',
        limitPerMinute: 300,
        throttle: { rate: 50, burst: 100 },
      },
      {
        ...approvalDecision,
        name: 'sandbox-approval-approve',
        method: 'POST',
        path: '/v1/sandbox/approval-requests/{approval_request_id}/approve',
      },
      {
        ...approvalDecision,
        name: 'sandbox-approval-reject',
        method: 'POST',
        path: '/v1/sandbox/approval-requests/{approval_request_id}/reject',
      },
      // Paying an invoice or letting it fall overdue on sandbox: Stripe then sends the event, which comes back through
      // POST /v1/stripe/events, so a partner's CI sees invoice.paid and invoice.overdue as production would send them.
      { ...invoiceAction, name: 'sandbox-invoice-pay', method: 'POST', path: '/v1/sandbox/invoices/{invoice_id}/pay' },
      {
        ...invoiceAction,
        name: 'sandbox-invoice-overdue',
        method: 'POST',
        path: '/v1/sandbox/invoices/{invoice_id}/overdue',
      },
      // A sample webhook through the real pipeline (docs/webhooks.md, "Test events"). `orders:write` is the sandbox's
      // "make my webhooks fire" scope (docs/decisions.md); each request is one POST to the partner, so its limits are lower.
      {
        ...sandboxWrite,
        name: 'webhook-test',
        method: 'POST',
        path: '/v1/webhooks/test',
        fn: 'webhookTest',
        endpoint: 'webhook-test',
        limitPerMinute: 60,
        body: 'required',
        throttle: { rate: 5, burst: 10 },
      },
      // Reads are single queries or gets, the order reads' budget; a retry is one more POST to the partner, so it gets the test event's.
      {
        ...webhookRead,
        name: 'webhook-delivery-list',
        method: 'GET',
        path: '/v1/webhooks/deliveries',
        endpoint: 'webhook-delivery-list',
        limitPerMinute: 300,
        throttle: { rate: 50, burst: 100 },
      },
      {
        ...webhookRead,
        name: 'webhook-delivery-get',
        method: 'GET',
        path: '/v1/webhooks/deliveries/{delivery_id}',
        endpoint: 'webhook-delivery-get',
        limitPerMinute: 300,
        throttle: { rate: 50, burst: 100 },
      },
      {
        ...webhookRead,
        name: 'webhook-delivery-retry',
        method: 'POST',
        path: '/v1/webhooks/deliveries/{delivery_id}/retry',
        endpoint: 'webhook-delivery-retry',
        scope: 'webhooks:write',
        limitPerMinute: 60,
        // Nothing to say but the path: a body, if any, is not read.
        body: 'ignored',
        throttle: { rate: 5, burst: 10 },
      },
      {
        ...webhookRead,
        name: 'webhook-endpoint-get',
        method: 'GET',
        path: '/v1/webhooks/endpoint',
        endpoint: 'webhook-endpoint-get',
        limitPerMinute: 300,
        throttle: { rate: 20, burst: 40 },
      },
      // Stripe's invoice events (docs/billing.md): Stripe is the caller, signing the body; a few per invoice, retried by
      // Stripe on any non-2xx, so a modest ceiling.
      {
        host: 'api',
        name: 'stripe-events',
        method: 'POST',
        path: '/v1/stripe/events',
        fn: 'ordersApi',
        endpoint: 'stripe-events',
        credential: 'stripe-signature',
        body: 'raw',
        errors: GENERAL_ERRORS,
        sandboxOnly: false,
        throttle: { rate: 20, burst: 40 },
      },
    ] as const satisfies readonly Route[],
);
