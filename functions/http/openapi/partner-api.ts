/**
 * The registry of the partner API document: every route and webhook it describes.
 * Adding a route is declaring its `RouteDocument` next to its schemas and listing it
 * here; `npm run openapi` regenerates docs/openapi.json, docs/api.md and the SDK's
 * types, and the contract tests then expect every status it declares to be exercised.
 */
import { LIST_CATALOG_PRODUCTS_ROUTE } from '../catalog-route-document';
import { HANDSHAKE_ROUTE } from '../handshake-route-document';
import { GET_ORDER_ROUTE, LIST_ORDERS_ROUTE } from '../orders-route-document';
import { CREATE_SANDBOX_ORDER_ROUTE } from '../sandbox-order-route-document';
import { SANDBOX_ORDER_TRANSITION_ROUTES } from '../sandbox-order-transition-route-documents';
import { SETUP_ROUTE } from '../setup-route-document';
import { WEBHOOK_TEST_ROUTE } from '../webhook-test-route-document';
import type { RouteDocument } from './route-document';

export { ORDER_WEBHOOKS, WEBHOOK_HEADERS } from './order-webhook-documents';

export const PARTNER_API_ROUTES: readonly RouteDocument[] = [
  SETUP_ROUTE,
  HANDSHAKE_ROUTE,
  LIST_CATALOG_PRODUCTS_ROUTE,
  LIST_ORDERS_ROUTE,
  GET_ORDER_ROUTE,
  CREATE_SANDBOX_ORDER_ROUTE,
  ...SANDBOX_ORDER_TRANSITION_ROUTES,
  WEBHOOK_TEST_ROUTE,
];
