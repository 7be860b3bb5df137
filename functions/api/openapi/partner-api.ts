/**
 * The registry of the partner API document: every route and webhook it describes.
 * Adding a route is declaring its `RouteDocument` next to its schemas and listing it
 * here; `npm run openapi` regenerates docs/openapi.json, docs/api.md and the SDK's
 * types, and the contract tests then expect every status it declares to be exercised.
 */
import { LIST_CATALOG_PRODUCTS_ROUTE } from '../orders/catalog-document';
import { HANDSHAKE_ROUTE } from '../handshake/document';
import { GET_ORDER_ROUTE, LIST_ORDERS_ROUTE } from '../orders/orders-document';
import { CREATE_SANDBOX_ORDER_ROUTE } from '../orders/sandbox-order-document';
import { SANDBOX_ORDER_TRANSITION_ROUTES } from '../orders/sandbox-transition-documents';
import { GET_ORGANIZATION_USER_ROUTE, UPDATE_ORGANIZATION_USER_ROUTE } from '../organization-users/document';
import { SETUP_ROUTE } from '../setup/document';
import { CREATE_SHIPPING_LOCATION_ROUTE, UPDATE_SHIPPING_LOCATION_ROUTE } from '../shipping-locations/document';
import { WEBHOOK_TEST_ROUTE } from '../webhook-test/document';
import type { RouteDocument } from './route-document';

export { ORDER_WEBHOOKS, WEBHOOK_HEADERS } from '../../webhooks/document';

export const PARTNER_API_ROUTES: readonly RouteDocument[] = [
  SETUP_ROUTE,
  // The partner's users and shipping locations after setup (docs/setup.md).
  GET_ORGANIZATION_USER_ROUTE,
  UPDATE_ORGANIZATION_USER_ROUTE,
  CREATE_SHIPPING_LOCATION_ROUTE,
  UPDATE_SHIPPING_LOCATION_ROUTE,
  HANDSHAKE_ROUTE,
  LIST_CATALOG_PRODUCTS_ROUTE,
  LIST_ORDERS_ROUTE,
  GET_ORDER_ROUTE,
  CREATE_SANDBOX_ORDER_ROUTE,
  ...SANDBOX_ORDER_TRANSITION_ROUTES,
  WEBHOOK_TEST_ROUTE,
];
