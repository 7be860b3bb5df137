import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoDeliveryRepository } from '../adapters/dynamodb/delivery-repository';
import { DynamoIdempotencyStore } from '../adapters/dynamodb/idempotency-store';
import { DynamoIdentityDirectory } from '../adapters/dynamodb/identity-directory';
import { DynamoOrganizationRepository } from '../adapters/dynamodb/organization-repository';
import { DynamoPartnerRepository } from '../adapters/dynamodb/partner-repository';
import { DynamoRateLimitCounter } from '../adapters/dynamodb/rate-limit-counter';
import { DynamoSessionRepository } from '../adapters/dynamodb/session-repository';
import { DynamoWebhookEndpointRepository } from '../adapters/dynamodb/webhook-endpoint-repository';
import { DynamoCartRepository } from '../adapters/dynamodb/cart-repository';
import { DynamoCatalogRepository } from '../adapters/dynamodb/catalog-repository';
import { DynamoOrderRepository } from '../adapters/dynamodb/order-repository';
import type { RuntimeConfig } from '../config';
import type { Clock } from '../domain/clock';
import { type TableName, tableName } from '../resources/resource-definitions';

/**
 * The one place each DynamoDB repository is built: which client, which table of this
 * stage. The repositories hold no state beyond those two, so a composition may build
 * the ones it needs without sharing them.
 */
export class DynamoRepositories {
  constructor(
    private readonly config: Pick<RuntimeConfig, 'RESOURCE_PREFIX'>,
    private readonly db: DynamoDBDocumentClient,
  ) {}

  partners = () => new DynamoPartnerRepository(this.db, this.table('partners'));
  /** Endpoints are items of the partners table. */
  webhookEndpoints = () => new DynamoWebhookEndpointRepository(this.db, this.table('partners'));
  /** `db` replaces the client of this repository only (tests: a client that fails transactions on demand). */
  organizations = (db = this.db) => new DynamoOrganizationRepository(db, this.table('organizations'), this.table('identityUsers'), this.table('idempotency'));
  identity = () => new DynamoIdentityDirectory(this.db, this.table('identityUsers'));
  sessions = () => new DynamoSessionRepository(this.db, this.table('sessions'));
  deliveries = () => new DynamoDeliveryRepository(this.db, this.table('webhooks'));
  idempotency = () => new DynamoIdempotencyStore(this.db, this.table('idempotency'));
  rateLimits = () => new DynamoRateLimitCounter(this.db, this.table('rateLimits'));
  catalog = () => new DynamoCatalogRepository(this.db, this.table('catalog'));
  carts = () => new DynamoCartRepository(this.db, this.table('carts'));
  /** The clock dates the outbox items' expiry. */
  orders = (clock: Clock) => new DynamoOrderRepository(this.db, { orders: this.table('orders'), carts: this.table('carts') }, clock);

  private table(table: TableName): string {
    return tableName(this.config.RESOURCE_PREFIX, table);
  }
}
