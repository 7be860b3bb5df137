import { DynamoSlowPathMoves } from '../adapters/dynamodb/dynamodb-slow-path-moves';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoApprovalRepository } from '../adapters/dynamodb/dynamodb-approval-repository';
import { DynamoCartRepository } from '../adapters/dynamodb/cart-repository';
import { DynamoCatalogRepository } from '../adapters/dynamodb/dynamodb-catalog-repository';
import { DynamoDeliveryBatchReader } from '../adapters/dynamodb/dynamodb-delivery-batch-reader';
import { DynamoDeliveryRepository } from '../adapters/dynamodb/dynamodb-delivery-repository';
import { DynamoInvoiceRepository } from '../adapters/dynamodb/dynamodb-invoice-repository';
import { DynamoUninvoicedShipments } from '../adapters/dynamodb/dynamodb-uninvoiced-shipments';
import { DynamoIdempotencyStore } from '../adapters/dynamodb/idempotency-store';
import { DynamoIdentityDirectory } from '../adapters/dynamodb/identity-directory';
import { DynamoOrderGuideRepository } from '../adapters/dynamodb/order-guide-repository';
import { DynamoOrderRepository } from '../adapters/dynamodb/dynamodb-order-repository';
import { DynamoOrganizationRepository } from '../adapters/dynamodb/dynamodb-organization-repository';
import { DynamoPartnerRepository } from '../adapters/dynamodb/dynamodb-partner-repository';
import { DynamoRateLimitCounter } from '../adapters/dynamodb/rate-limit-counter';
import { DynamoSessionRepository } from '../adapters/dynamodb/dynamodb-session-repository';
import { DynamoEndpointGate } from '../adapters/dynamodb/dynamodb-endpoint-gate';
import { DynamoWebhookEndpointRepository } from '../adapters/dynamodb/dynamodb-webhook-endpoint-repository';
import { TABLE_NAME_VARIABLES, type RuntimeConfig, type TableNameVariable } from '../config';
import type { Clock } from '../domain/clock';
import { type TableName, tableName } from '../resources/resource-definitions';

/**
 * The one place each DynamoDB repository is built: which client, which table of this
 * stage. One function per repository rather than one object holding them all, so a
 * function's bundle carries only the adapters its composition calls (an object's
 * methods cannot be tree-shaken: docs/performance.md).
 */
export interface DynamoTables {
  readonly config: Pick<RuntimeConfig, 'RESOURCE_PREFIX'> & Partial<Pick<RuntimeConfig, TableNameVariable>>;
  readonly db: DynamoDBDocumentClient;
}

// The environment names each table (a restored one included); the prefix's name only where it is left empty.
const table = ({ config }: DynamoTables, name: TableName) =>
  config[TABLE_NAME_VARIABLES[name]] || tableName(config.RESOURCE_PREFIX, name);

export const partnerRepository = (tables: DynamoTables) =>
  new DynamoPartnerRepository(tables.db, table(tables, 'partners'));
/** Endpoints are items of the partners table. */
export const webhookEndpointRepository = (tables: DynamoTables) =>
  new DynamoWebhookEndpointRepository(tables.db, table(tables, 'partners'));
/** Admission to endpoints: one per process, since it remembers the slots this process is claiming. */
export const endpointGate = (tables: DynamoTables) => new DynamoEndpointGate(tables.db, table(tables, 'partners'));
/** `db` replaces the client of this repository only (tests: a client that fails transactions on demand). */
export const organizationRepository = (tables: DynamoTables, db = tables.db) =>
  new DynamoOrganizationRepository(
    db,
    table(tables, 'organizations'),
    table(tables, 'identityUsers'),
    table(tables, 'idempotency'),
  );
export const identityDirectory = (tables: DynamoTables) =>
  new DynamoIdentityDirectory(tables.db, table(tables, 'identityUsers'));
export const sessionRepository = (tables: DynamoTables) =>
  new DynamoSessionRepository(tables.db, table(tables, 'sessions'));
export const deliveryRepository = (tables: DynamoTables) =>
  new DynamoDeliveryRepository(tables.db, table(tables, 'webhooks'));
/** The slow path's hand-over, on the delivery items. */
export const slowPathMoves = (tables: DynamoTables) => new DynamoSlowPathMoves(tables.db, table(tables, 'webhooks'));
export const deliveryBatchReader = (tables: DynamoTables) =>
  new DynamoDeliveryBatchReader(tables.db, {
    webhooks: table(tables, 'webhooks'),
    partners: table(tables, 'partners'),
  });
export const idempotencyStore = (tables: DynamoTables) =>
  new DynamoIdempotencyStore(tables.db, table(tables, 'idempotency'));
export const rateLimitCounter = (tables: DynamoTables) =>
  new DynamoRateLimitCounter(tables.db, table(tables, 'rateLimits'));
export const catalogRepository = (tables: DynamoTables) =>
  new DynamoCatalogRepository(tables.db, table(tables, 'catalog'));
/** Order guides are items of the carts table, under their own key prefix. */
export const orderGuideRepository = (tables: DynamoTables) =>
  new DynamoOrderGuideRepository(tables.db, table(tables, 'carts'));
export const cartRepository = (tables: DynamoTables) => new DynamoCartRepository(tables.db, table(tables, 'carts'));
/** The clock dates the outbox items' expiry. */
export const orderRepository = (tables: DynamoTables, clock: Clock) =>
  new DynamoOrderRepository(tables.db, { orders: table(tables, 'orders'), carts: table(tables, 'carts') }, clock);
/** Approval requests are items of the orders table (its stream carries their outbox); withdrawing one puts lines back in a cart; approving one conditions on the organization's requester and location. */
export const approvalRepository = (tables: DynamoTables, clock: Clock) =>
  new DynamoApprovalRepository(
    tables.db,
    {
      orders: table(tables, 'orders'),
      carts: table(tables, 'carts'),
      organizations: table(tables, 'organizations'),
      idempotency: table(tables, 'idempotency'),
    },
    clock,
  );
/** Invoices are items of the orders table, beside their orders; the clock dates processed Stripe events' expiry. */
export const invoiceRepository = (tables: DynamoTables, clock: Clock) =>
  new DynamoInvoiceRepository(tables.db, table(tables, 'orders'), clock);
/** Markers of shipped, uninvoiced orders, in the orders table beside them. */
export const uninvoicedShipments = (tables: DynamoTables) =>
  new DynamoUninvoicedShipments(tables.db, table(tables, 'orders'));
