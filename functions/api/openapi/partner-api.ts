/**
 * The partner API document's registry: each API route's document, by the route's key in
 * the route table (functions/routes.ts), which says everything else about the route.
 * `documentedRoutes` joins the two in the table's order; `npm run openapi` regenerates
 * docs/openapi.json, docs/api.md and the SDK's types from it, and the contract tests then
 * expect every status a document declares to be exercised. Only lib/api-docs imports
 * this: the documents' schemas and examples stay out of the Lambda bundles.
 */
import {
  APPROVE_SANDBOX_APPROVAL_REQUEST_ROUTE,
  GET_APPROVAL_REQUEST_ROUTE,
  LIST_APPROVAL_REQUESTS_ROUTE,
  REJECT_SANDBOX_APPROVAL_REQUEST_ROUTE,
} from '../approval-requests/document';
import { LIST_CATALOG_PRODUCTS_ROUTE } from '../orders/catalog-document';
import { HANDSHAKE_ROUTE } from '../handshake/document';
import { GET_ORDER_ROUTE, LIST_ORDERS_ROUTE } from '../orders/orders-document';
import { CREATE_SANDBOX_ORDER_ROUTE } from '../orders/sandbox-order-document';
import { SANDBOX_ORDER_TRANSITION_DOCUMENTS } from '../orders/sandbox-transition-documents';
import { GET_ORGANIZATION_ROUTE, UPDATE_ORGANIZATION_ROUTE } from '../organizations/document';
import { GET_ORGANIZATION_USER_ROUTE, UPDATE_ORGANIZATION_USER_ROUTE } from '../organization-users/document';
import { SETUP_ROUTE } from '../setup/document';
import { CREATE_SHIPPING_LOCATION_ROUTE, UPDATE_SHIPPING_LOCATION_ROUTE } from '../shipping-locations/document';
import { WEBHOOK_TEST_ROUTE } from '../webhook-test/document';
import {
  GET_DELIVERY_ROUTE,
  GET_WEBHOOK_ENDPOINT_ROUTE,
  LIST_DELIVERIES_ROUTE,
  RETRY_DELIVERY_ROUTE,
} from '../webhook-deliveries/document';
import { type ApiRoute, type ApiRouteKey, ROUTES, type Route, routeKey } from '../../routes';
import type { DocumentedRoute, RouteDocument } from './route-document';

export { WEBHOOK_HEADERS, WEBHOOKS } from '../../webhooks/document';

/** Every API route of the table has one (a route without a document does not compile). */
const ROUTE_DOCUMENTS: Readonly<Record<ApiRouteKey, RouteDocument>> = {
  'POST /v1/organizations/setup': SETUP_ROUTE,
  'GET /v1/organizations/{internalOrgId}': GET_ORGANIZATION_ROUTE,
  'PATCH /v1/organizations/{internalOrgId}': UPDATE_ORGANIZATION_ROUTE,
  'GET /v1/organizations/{internalOrgId}/users/{internalUserId}': GET_ORGANIZATION_USER_ROUTE,
  'PATCH /v1/organizations/{internalOrgId}/users/{internalUserId}': UPDATE_ORGANIZATION_USER_ROUTE,
  'POST /v1/organizations/{internalOrgId}/shipping-locations': CREATE_SHIPPING_LOCATION_ROUTE,
  'PATCH /v1/organizations/{internalOrgId}/shipping-locations/{internalShippingLocationId}':
    UPDATE_SHIPPING_LOCATION_ROUTE,
  'POST /v1/partner/handshake': HANDSHAKE_ROUTE,
  'GET /v1/catalog/products': LIST_CATALOG_PRODUCTS_ROUTE,
  'GET /v1/orders': LIST_ORDERS_ROUTE,
  'GET /v1/orders/{order_id}': GET_ORDER_ROUTE,
  'POST /v1/sandbox/orders': CREATE_SANDBOX_ORDER_ROUTE,
  'POST /v1/sandbox/orders/{order_id}/confirm': SANDBOX_ORDER_TRANSITION_DOCUMENTS.confirm,
  'POST /v1/sandbox/orders/{order_id}/ship': SANDBOX_ORDER_TRANSITION_DOCUMENTS.ship,
  'POST /v1/sandbox/orders/{order_id}/deliver': SANDBOX_ORDER_TRANSITION_DOCUMENTS.deliver,
  'POST /v1/sandbox/orders/{order_id}/cancel': SANDBOX_ORDER_TRANSITION_DOCUMENTS.cancel,
  'POST /v1/sandbox/orders/{order_id}/refund': SANDBOX_ORDER_TRANSITION_DOCUMENTS.refund,
  'GET /v1/organizations/{internalOrgId}/approval-requests': LIST_APPROVAL_REQUESTS_ROUTE,
  'GET /v1/approval-requests/{approval_request_id}': GET_APPROVAL_REQUEST_ROUTE,
  'POST /v1/sandbox/approval-requests/{approval_request_id}/approve': APPROVE_SANDBOX_APPROVAL_REQUEST_ROUTE,
  'POST /v1/sandbox/approval-requests/{approval_request_id}/reject': REJECT_SANDBOX_APPROVAL_REQUEST_ROUTE,
  'POST /v1/webhooks/test': WEBHOOK_TEST_ROUTE,
  'GET /v1/webhooks/deliveries': LIST_DELIVERIES_ROUTE,
  'GET /v1/webhooks/deliveries/{delivery_id}': GET_DELIVERY_ROUTE,
  'POST /v1/webhooks/deliveries/{delivery_id}/retry': RETRY_DELIVERY_ROUTE,
  'GET /v1/webhooks/endpoint': GET_WEBHOOK_ENDPOINT_ROUTE,
};

const SECURITY = { 'authorization-bearer': 'bearerApiKey', 'x-api-key': 'headerApiKey' } as const;

/** The API routes of a route table (every stage's: sandbox-only ones say so), each with its document. */
export function documentedRoutes(table: readonly Route[] = ROUTES): DocumentedRoute[] {
  return table
    .filter((route): route is ApiRoute => route.host === 'api')
    .map((route) => {
      const key = routeKey(route);
      const document = Object.hasOwn(ROUTE_DOCUMENTS, key) ? ROUTE_DOCUMENTS[key as ApiRouteKey] : undefined;
      if (!document) throw new Error(`${key} has no route document in ROUTE_DOCUMENTS`);
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
}
