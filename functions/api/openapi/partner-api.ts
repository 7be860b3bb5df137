/**
 * The partner API document's registry: each API route's document, by the route's name in
 * the route table (functions/routes.ts), which says everything else about the route.
 * `documentedRoutes` joins the two in the table's order; `npm run openapi` regenerates
 * docs/openapi.json, docs/api.md and the SDK's types from it, and the contract tests then
 * expect every status a document declares to be exercised. Only lib/api-docs imports
 * this: the documents' schemas and examples stay out of the Lambda bundles.
 */
import { GET_APPROVAL_REQUEST_ROUTE, LIST_APPROVAL_REQUESTS_ROUTE } from '../approval-requests/document';
import {
  APPROVE_SANDBOX_APPROVAL_REQUEST_ROUTE,
  REJECT_SANDBOX_APPROVAL_REQUEST_ROUTE,
} from '../approval-requests/sandbox-decision-documents';
import { LIST_CATALOG_PRODUCTS_ROUTE } from '../orders/catalog-document';
import { HANDSHAKE_ROUTE } from '../handshake/document';
import { GET_INVOICE_ROUTE, LIST_INVOICES_ROUTE } from '../invoices/document';
import { GET_ORDER_ROUTE, LIST_ORDERS_ROUTE } from '../orders/orders-document';
import { CREATE_SANDBOX_ORDER_ROUTE } from '../orders/sandbox-order-document';
import { SANDBOX_ORDER_TRANSITION_DOCUMENTS } from '../orders/sandbox-transition-documents';
import { GET_ORGANIZATION_ROUTE, UPDATE_ORGANIZATION_ROUTE } from '../organizations/document';
import { GET_ORGANIZATION_USER_ROUTE, UPDATE_ORGANIZATION_USER_ROUTE } from '../organization-users/document';
import { MARK_SANDBOX_INVOICE_OVERDUE_ROUTE, PAY_SANDBOX_INVOICE_ROUTE } from '../sandbox-invoices/document';
import { SETUP_ROUTE } from '../setup/document';
import { GET_SPEND_REPORT_ROUTE } from '../spending/document';
import { GET_STATEMENT_ROUTE } from '../statements/document';
import { CREATE_SHIPPING_LOCATION_ROUTE, UPDATE_SHIPPING_LOCATION_ROUTE } from '../shipping-locations/document';
import { WEBHOOK_TEST_ROUTE } from '../webhook-test/document';
import {
  GET_DELIVERY_ROUTE,
  GET_WEBHOOK_ENDPOINT_ROUTE,
  LIST_DELIVERIES_ROUTE,
  RETRY_DELIVERY_ROUTE,
} from '../webhook-deliveries/document';
import { STRIPE_EVENTS_ROUTE } from '../stripe-events/document';
import type { ApiRouteName, SignedRouteName } from '../../route-names';
import { isPartnerRoute, ROUTES, type Route, type SignedRoute } from '../../routes';
import type { DocumentedRoute, RouteDocument } from './route-document';

export { WEBHOOK_HEADERS, WEBHOOKS } from '../../webhooks/document';

/** Every API route of the table has one (a route without a document does not compile). */
const ROUTE_DOCUMENTS: Readonly<Record<ApiRouteName, RouteDocument>> = {
  setup: SETUP_ROUTE,
  'organization-get': GET_ORGANIZATION_ROUTE,
  'organization-update': UPDATE_ORGANIZATION_ROUTE,
  'organization-user-get': GET_ORGANIZATION_USER_ROUTE,
  'organization-user-update': UPDATE_ORGANIZATION_USER_ROUTE,
  'shipping-location-create': CREATE_SHIPPING_LOCATION_ROUTE,
  'shipping-location-update': UPDATE_SHIPPING_LOCATION_ROUTE,
  handshake: HANDSHAKE_ROUTE,
  'catalog-products': LIST_CATALOG_PRODUCTS_ROUTE,
  'order-list': LIST_ORDERS_ROUTE,
  'order-get': GET_ORDER_ROUTE,
  'invoice-list': LIST_INVOICES_ROUTE,
  'invoice-get': GET_INVOICE_ROUTE,
  'sandbox-order-create': CREATE_SANDBOX_ORDER_ROUTE,
  'sandbox-order-confirm': SANDBOX_ORDER_TRANSITION_DOCUMENTS.confirm,
  'sandbox-order-ship': SANDBOX_ORDER_TRANSITION_DOCUMENTS.ship,
  'sandbox-order-deliver': SANDBOX_ORDER_TRANSITION_DOCUMENTS.deliver,
  'sandbox-order-cancel': SANDBOX_ORDER_TRANSITION_DOCUMENTS.cancel,
  'sandbox-order-refund': SANDBOX_ORDER_TRANSITION_DOCUMENTS.refund,
  'approval-request-list': LIST_APPROVAL_REQUESTS_ROUTE,
  'approval-request-get': GET_APPROVAL_REQUEST_ROUTE,
  'organization-spend': GET_SPEND_REPORT_ROUTE,
  'organization-statement': GET_STATEMENT_ROUTE,
  'sandbox-approval-approve': APPROVE_SANDBOX_APPROVAL_REQUEST_ROUTE,
  'sandbox-approval-reject': REJECT_SANDBOX_APPROVAL_REQUEST_ROUTE,
  'sandbox-invoice-pay': PAY_SANDBOX_INVOICE_ROUTE,
  'sandbox-invoice-overdue': MARK_SANDBOX_INVOICE_OVERDUE_ROUTE,
  'webhook-test': WEBHOOK_TEST_ROUTE,
  'webhook-delivery-list': LIST_DELIVERIES_ROUTE,
  'webhook-delivery-get': GET_DELIVERY_ROUTE,
  'webhook-delivery-retry': RETRY_DELIVERY_ROUTE,
  'webhook-endpoint-get': GET_WEBHOOK_ENDPOINT_ROUTE,
};

/** Stripe's route: in the document so its answers are checked like every route's, marked as not for partners. */
const SIGNED_ROUTE_DOCUMENTS: Readonly<Record<SignedRouteName, RouteDocument>> = {
  'stripe-events': STRIPE_EVENTS_ROUTE,
};

const SECURITY = {
  'authorization-bearer': 'bearerApiKey',
  'x-api-key': 'headerApiKey',
  'stripe-signature': 'stripeSignature',
} as const;

const isSignedRoute = (route: Route): route is SignedRoute =>
  route.host === 'api' && route.credential === 'stripe-signature';

/** The API routes of a route table (every stage's: sandbox-only ones say so), each with its document; Stripe's last. */
export function documentedRoutes(table: readonly Route[] = ROUTES): DocumentedRoute[] {
  const partnerRoutes = table.filter(isPartnerRoute).map((route): DocumentedRoute => {
    const document = Object.hasOwn(ROUTE_DOCUMENTS, route.name)
      ? ROUTE_DOCUMENTS[route.name as ApiRouteName]
      : undefined;
    if (!document) throw new Error(`${route.name} has no route document in ROUTE_DOCUMENTS`);
    return {
      method: route.method.toLowerCase() as DocumentedRoute['method'],
      path: route.path,
      security: SECURITY[route.credential],
      scope: route.scope,
      limitPerMinute: route.limitPerMinute,
      sandboxOnly: route.sandboxOnly,
      ...document,
    };
  });
  const signedRoutes = table.filter(isSignedRoute).map((route): DocumentedRoute => ({
    method: route.method.toLowerCase() as DocumentedRoute['method'],
    path: route.path,
    security: SECURITY[route.credential],
    scope: null,
    limitPerMinute: null,
    sandboxOnly: route.sandboxOnly,
    ...SIGNED_ROUTE_DOCUMENTS[route.name as SignedRouteName],
  }));
  return [...partnerRoutes, ...signedRoutes];
}
