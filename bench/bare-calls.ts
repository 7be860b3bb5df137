/**
 * The baseline of the HTTP benchmark: only the DynamoDB calls each endpoint must make,
 * mirrored call for call from the real adapters (same tables, keys, consistency, condition
 * expressions and item attributes), one after another, with nothing around them: no
 * middy pipeline, no validation, no request log, no HTML. Where an item's content is
 * computed (an order's prices, its event), the domain's pure functions compute it, so
 * the items are the service's byte for byte.
 *
 * handshake (by profile_id)        GetItem key hash (consistent), UpdateItem rate-limit counter,
 *                                  GetItem profile by id, PutItem session token
 * setup, existing organization     GetItem key hash (consistent), UpdateItem rate-limit counter,
 *                                  Query the organization's partition (consistent),
 *                                  TransactWriteItems: profile + profile-by-id + identity user
 * setup, new organization          the same reads (the Query finds nothing), then the Stripe
 *                                  customer (customers.create, customers.update: the real SDK
 *                                  against the same stand-in), then TransactWriteItems:
 *                                  organization + profile + profile-by-id + identity user +
 *                                  location + default-location claim
 * place order (sandbox)            GetItem key hash, UpdateItem rate-limit counter, GetItem
 *                                  profile by id, Query the organization's partition
 *                                  (consistent), BatchGetItem the products (consistent),
 *                                  TransactWriteItems: order + order.created outbox item
 * move order (sandbox confirm)     GetItem key hash, UpdateItem rate-limit counter, GetItem the
 *                                  order (consistent), TransactWriteItems: the order (condition
 *                                  on its sequence) + the order.confirmed outbox item
 * module catalog page              GetItem the partner (frame-ancestors), UpdateItem the
 *                                  embedded session (conditional, ALL_NEW), GetItem profile by
 *                                  id, Query the organization's partition (consistent), Query
 *                                  the catalog, Query the user's cart (consistent)
 * webhook delivery attempt         the signed POST, then UpdateItem of the delivery state and
 *                                  attempt log (conditional; secret, endpoint and body at hand,
 *                                  as a first attempt's message carries them). For reference,
 *                                  a message the dispatcher must read (`deliver`): first one
 *                                  consistent BatchGetItem of the SQS batch's deliveries and
 *                                  its partner's webhook endpoint
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { performance } from 'node:perf_hooks';
import {
  BatchGetCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { webhookKeys } from '../functions/adapters/dynamodb/delivery-repository';
import { identityKeys } from '../functions/adapters/dynamodb/identity-directory';
import { organizationKeys } from '../functions/adapters/dynamodb/organization-repository';
import { partnerKeys } from '../functions/adapters/dynamodb/partner-repository';
import { sessionKeys } from '../functions/adapters/dynamodb/session-repository';
import type Stripe from 'stripe';
import { cartKeys } from '../functions/adapters/dynamodb/cart-repository';
import { catalogKeys } from '../functions/adapters/dynamodb/catalog-repository';
import { orderKeys } from '../functions/adapters/dynamodb/order-repository';
import type { Product, ProductId } from '../functions/domain/catalog/product';
import { priceCart } from '../functions/domain/orders/cart-service';
import { type Order, type OrderId, type OrderItem, PAYMENT_METHOD } from '../functions/domain/orders/order';
import { latestOrderEvent, orderEventFor } from '../functions/domain/orders/order-event';
import { applyTransition } from '../functions/domain/orders/order-lifecycle';
import { OUTBOX_RETENTION_SECONDS } from '../functions/domain/orders/order-outbox';
import type { OrganizationAggregate } from '../functions/domain/organizations/organization';
import type { OrderEventMessage } from '../functions/webhooks/order-event-message';
import { paymentCustomerIdempotencyKey } from '../functions/domain/payments/payment-provider';
import type { PartnerId } from '../functions/domain/partners/partner';
import { USER_AGENT } from '../functions/webhooks/webhook-dispatcher';
import { signWebhookBody, standardSignatureHeader } from '../functions/webhooks/webhook-signature';
import { tableName, type TableName } from '../functions/resources/resource-definitions';

const TOKEN_LIFETIME_MS = 5 * 60 * 1000;
const TOKEN_RETENTION_S = 7 * 24 * 3600;
const DELIVERY_RETENTION_S = 30 * 24 * 3600;

export interface BareHandshakeResult {
  readonly sessionKey: string;
  readonly partnerId: string;
  readonly profile: Record<string, unknown>;
  readonly expiresAt: string;
}

export interface BareSetupBody {
  readonly internalOrgId: string;
  readonly organizationName: string;
  readonly internalUserId: string;
  readonly user: { readonly firstName: string; readonly lastName: string; readonly email: string };
  readonly shippingLocations?: readonly {
    readonly internalShippingLocationId: string;
    readonly name: string;
    readonly address: Record<string, string>;
    readonly isDefault?: boolean;
  }[];
}

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

export interface PostResult {
  readonly status: number;
  /** The first KiB of the answer. */
  readonly body: string;
}

/**
 * A webhook POST as the dispatcher sends it (the same headers, both signatures: the
 * contract's HMAC-SHA256 of the body and the Standard Webhooks one): with fetch and its
 * keep-alive connections, or with node:http on a new connection, the way the dispatcher's
 * transport sends every attempt.
 */
export async function signedPost(url: string, secret: string, body: string, connection: 'keep-alive' | 'new'): Promise<PostResult> {
  const deliveryId = randomUUID();
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    'X-Service-Event': 'order.created',
    'X-Service-Signature': signWebhookBody(body, secret),
    'X-Service-Delivery-ID': deliveryId,
    'X-Service-Timestamp': String(timestamp),
    'webhook-id': deliveryId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standardSignatureHeader(deliveryId, timestamp, body, [secret]),
  };
  if (connection === 'keep-alive') {
    const response = await fetch(url, { method: 'POST', headers, body });
    return { status: response.status, body: (await response.text()).slice(0, 1024) };
  }
  return new Promise((resolve, reject) => {
    const outgoing = { ...headers, 'Content-Length': String(Buffer.byteLength(body)) };
    const req = httpRequest(url, { method: 'POST', headers: outgoing, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).subarray(0, 1024).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const mustBeNew = (TableName: string, Item: Record<string, unknown>) => ({
  Put: { TableName, Item, ConditionExpression: 'attribute_not_exists(pk)' },
});

const EMBEDDED_SESSION_IDLE_MS = 30 * 60 * 1000;

/** An order's item, as the order repository writes it. */
export const orderItem = (order: Order) => ({
  ...orderKeys.order(order.id),
  gsi1pk: orderKeys.ordersOfOrganization(order.organizationId),
  gsi1sk: `${order.createdAt}#${order.id}`,
  sequence: order.sequence,
  order,
});
const orderPut = (TableName: string, order: Order) => ({ TableName, Item: orderItem(order) });
const outboxPut = (TableName: string, event: OrderEventMessage) => ({
  Put: {
    TableName,
    Item: { ...orderKeys.outbox(event.eventId), message: JSON.stringify(event), ttl: Math.floor(Date.now() / 1000) + OUTBOX_RETENTION_SECONDS },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

export interface BareOrderBody {
  readonly profile_id: string;
  readonly items: readonly { readonly product_id: string; readonly quantity: number }[];
}

export interface BareSettings {
  readonly resourcePrefix: string;
  /** `sandbox` in the bench: part of the Stripe customer's identity. */
  readonly stage: string;
  /** The Stripe client, built as the service builds its own (adapters/stripe-client.ts), against the same stand-in. */
  readonly stripe: () => Promise<Stripe>;
}

export class BareCalls {
  private readonly table: (name: TableName) => string;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly settings: BareSettings,
  ) {
    this.table = (name) => tableName(settings.resourcePrefix, name);
  }

  async handshake(apiKey: string, profileId: string): Promise<BareHandshakeResult> {
    const partnerId = await this.authenticate(apiKey, 'handshake');
    const { Item: profile } = await this.db.send(
      new GetCommand({ TableName: this.table('organizations'), Key: organizationKeys.profileById(profileId) }),
    );
    // A linked profile has an active user (both change in one transaction), so the profile is the last read.
    if (!profile || profile.partnerId !== partnerId || !profile.userId) throw new Error('profile not found or not linked');

    const now = new Date();
    const expiresAtMs = now.getTime() + TOKEN_LIFETIME_MS;
    const secret = randomBytes(32).toString('hex');
    const id = randomUUID();
    const token = {
      id,
      partnerId,
      profileId,
      internalOrgId: profile.internalOrgId,
      createdAt: now.toISOString(),
      expiresAt: new Date(expiresAtMs).toISOString(),
      state: 'issued',
    };
    await this.db.send(
      new PutCommand({
        TableName: this.table('sessions'),
        Item: {
          ...sessionKeys.token(sha256(secret)),
          gsi1pk: sessionKeys.tokensOfPartner(partnerId),
          gsi1sk: `${token.createdAt}#${id}`,
          entity: 'token',
          ...token,
          expiresAtMs,
          ttl: Math.floor(expiresAtMs / 1000) + TOKEN_RETENTION_S,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return { sessionKey: secret, partnerId, profile, expiresAt: token.expiresAt };
  }

  /** Adds the user to the organization, or creates the organization when the Query finds none. */
  async setup(apiKey: string, body: BareSetupBody): Promise<{ profileId: string; isNewOrganization: boolean }> {
    const partnerId = await this.authenticate(apiKey, 'setup');
    const organizationTable = this.table('organizations');
    const items: Record<string, unknown>[] = [];
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await this.db.send(
        new QueryCommand({
          TableName: organizationTable,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': organizationKeys.partition(partnerId, body.internalOrgId) },
          ConsistentRead: true,
          ExclusiveStartKey,
        }),
      );
      items.push(...((page.Items ?? []) as Record<string, unknown>[]));
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);

    const now = new Date().toISOString();
    const existing = items.find((item) => item.entity === 'organization');
    const organization = existing ?? {
      id: randomUUID(),
      partnerId,
      internalOrgId: body.internalOrgId,
      name: body.organizationName,
      // Only a new organization gets here: the payment customer comes before its transaction, as in the service.
      paymentCustomerId: await this.stripeCustomer(partnerId, body),
      createdAt: now,
    };
    const profile = {
      id: randomUUID(),
      partnerId,
      organizationId: organization.id,
      internalOrgId: body.internalOrgId,
      internalUserId: body.internalUserId,
      userId: randomUUID(),
      ...body.user,
      createdAt: now,
    };
    const profileWrites = [
      mustBeNew(organizationTable, {
        ...organizationKeys.profile(partnerId, body.internalOrgId, body.internalUserId),
        gsi1pk: organizationKeys.usersOfPartner(partnerId, body.internalUserId),
        gsi1sk: body.internalOrgId,
        entity: 'profile',
        ...profile,
      }),
      mustBeNew(organizationTable, { ...organizationKeys.profileById(profile.id), entity: 'profile-by-id', ...profile }),
      mustBeNew(this.table('identityUsers'), {
        ...identityKeys.user(profile.userId),
        id: profile.userId,
        partnerId,
        profileId: profile.id,
        email: body.user.email,
        status: 'active',
        createdAt: now,
      }),
    ];

    if (existing) {
      // The requests repeat the organization's known location: nothing new to write for it.
      await this.db.send(new TransactWriteCommand({ TransactItems: profileWrites }));
      return { profileId: profile.id, isNewOrganization: false };
    }
    const locations = (body.shippingLocations ?? []).map((location) => ({
      id: randomUUID(),
      organizationId: organization.id,
      internalShippingLocationId: location.internalShippingLocationId,
      name: location.name,
      address: { ...location.address, province: 'Texas', country: 'United States' },
      isDefault: location.isDefault ?? false,
      isActive: true,
      createdAt: now,
    }));
    const defaultLocation = locations.find((location) => location.isDefault);
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          mustBeNew(organizationTable, {
            ...organizationKeys.organization(partnerId, body.internalOrgId),
            gsi1pk: organizationKeys.organizationsOfPartner(partnerId),
            gsi1sk: body.internalOrgId,
            entity: 'organization',
            ...organization,
          }),
          ...profileWrites,
          ...locations.map((location) =>
            mustBeNew(organizationTable, {
              ...organizationKeys.location(partnerId, body.internalOrgId, location.internalShippingLocationId),
              entity: 'location',
              ...location,
            }),
          ),
          ...(defaultLocation
            ? [
                mustBeNew(organizationTable, {
                  ...organizationKeys.defaultLocation(partnerId, body.internalOrgId),
                  entity: 'default-location',
                  locationId: defaultLocation.id,
                  internalShippingLocationId: defaultLocation.internalShippingLocationId,
                }),
              ]
            : []),
        ],
      }),
    );
    return { profileId: profile.id, isNewOrganization: true };
  }

  /** The organization's Stripe customer, by the payments adapter's two calls (adapters/stripe-payments.ts). */
  private async stripeCustomer(partnerId: string, body: BareSetupBody): Promise<string> {
    const stripe = await this.settings.stripe();
    const owner = { partnerId: partnerId as PartnerId, stage: this.settings.stage, internalOrgId: body.internalOrgId };
    const customer = await stripe.customers.create(
      { metadata: { partnerId: owner.partnerId, environment: owner.stage, internalOrgId: owner.internalOrgId } },
      { idempotencyKey: paymentCustomerIdempotencyKey(owner) },
    );
    await stripe.customers.update(customer.id, { name: body.organizationName, email: '', phone: '', address: '' });
    return customer.id;
  }

  /** An order of the profile's organization from the given lines, to its default location. */
  async placeOrder(apiKey: string, body: BareOrderBody): Promise<Order> {
    const partnerId = await this.authenticate(apiKey, 'sandbox-order-create');
    const { Item: profile } = await this.db.send(
      new GetCommand({ TableName: this.table('organizations'), Key: organizationKeys.profileById(body.profile_id) }),
    );
    if (!profile || profile.partnerId !== partnerId || !profile.userId) throw new Error('profile not found or not linked');
    const { Items: organizationItems = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.table('organizations'),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': organizationKeys.partition(partnerId, profile.internalOrgId as string) },
        ConsistentRead: true,
      }),
    );
    const location = organizationItems.find((item) => item.entity === 'location' && item.isDefault) as
      | OrganizationAggregate['locations'][number]
      | undefined;
    if (!location) throw new Error('no default location');
    const catalogTable = this.table('catalog');
    const { Responses } = await this.db.send(
      new BatchGetCommand({
        RequestItems: { [catalogTable]: { Keys: body.items.map((item) => catalogKeys.product(item.product_id)), ConsistentRead: true } },
      }),
    );
    const products = new Map((Responses?.[catalogTable] ?? []).map((item) => [item.productId as ProductId, item as unknown as Product]));
    const lines = body.items.map((item) => ({ productId: item.product_id as ProductId, quantity: item.quantity, addedAt: '' }));
    const priced = priceCart({ profileId: profile.id, lines }, products, location.address.province);
    if (!priced.pricing || priced.unavailable.length > 0) throw new Error('products unavailable');
    const items: OrderItem[] = priced.lines.map(({ product, quantity }) => ({
      productId: product.productId,
      name: product.name,
      unit: product.unit,
      unitPriceCents: product.priceCents,
      quantity,
    }));
    const now = new Date().toISOString();
    const order: Order = {
      id: randomUUID() as OrderId,
      partnerId: partnerId as PartnerId,
      organizationId: profile.organizationId,
      internalOrgId: profile.internalOrgId,
      profileId: profile.id,
      userEmail: profile.email,
      items,
      shippingAddress: {
        locationId: location.id,
        locationName: location.name,
        line1: location.address.line1,
        city: location.address.city,
        state: location.address.province,
        zip: location.address.postalCode,
      },
      ...priced.pricing,
      paymentMethod: PAYMENT_METHOD,
      status: 'pending',
      createdAt: now,
      updatedAt: now,
      sequence: 1,
      statusHistory: [{ status: 'pending', sequence: 1, at: now }],
    };
    const ordersTable = this.table('orders');
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { ...orderPut(ordersTable, order), ConditionExpression: 'attribute_not_exists(pk)' } },
          outboxPut(ordersTable, latestOrderEvent(order)),
        ],
      }),
    );
    return order;
  }

  /** Confirms a pending order of the key's partner. */
  async confirmOrder(apiKey: string, orderId: string): Promise<Order> {
    const partnerId = await this.authenticate(apiKey, 'sandbox-order-transition');
    const ordersTable = this.table('orders');
    const { Item } = await this.db.send(new GetCommand({ TableName: ordersTable, Key: orderKeys.order(orderId), ConsistentRead: true }));
    const order = Item?.order as Order | undefined;
    if (!order || order.partnerId !== partnerId) throw new Error('order not found');
    const applied = applyTransition(order, { action: 'confirm', input: {} }, new Date());
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              ...orderPut(ordersTable, applied.order),
              ConditionExpression: '#sequence = :expected',
              ExpressionAttributeNames: { '#sequence': 'sequence' },
              ExpressionAttributeValues: { ':expected': order.sequence },
            },
          },
          outboxPut(ordersTable, orderEventFor(applied.order, applied.change)),
        ],
      }),
    );
    return applied.order;
  }

  /**
   * What the module's catalog page reads, for the session behind `cookieValue`: the
   * products and the number of units in the user's cart.
   */
  async moduleCatalog(partnerId: string, cookieValue: string): Promise<{ products: number; cartUnits: number }> {
    await this.db.send(new GetCommand({ TableName: this.table('partners'), Key: partnerKeys.partner(partnerId) }));
    const now = Date.now();
    const idle = now + EMBEDDED_SESSION_IDLE_MS;
    const { Attributes: session } = await this.db.send(
      new UpdateCommand({
        TableName: this.table('sessions'),
        Key: sessionKeys.embeddedSession(sha256(cookieValue)),
        UpdateExpression: 'SET lastSeenAt = :now, idleExpiresAt = :idle, idleExpiresAtMs = :idleMs',
        ConditionExpression: '#state = :active AND partnerId = :partner AND idleExpiresAtMs > :nowMs AND absoluteExpiresAtMs > :nowMs',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':active': 'active',
          ':partner': partnerId,
          ':now': new Date(now).toISOString(),
          ':nowMs': now,
          ':idle': new Date(idle).toISOString(),
          ':idleMs': idle,
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    if (!session) throw new Error('no live session');
    const { Item: profile } = await this.db.send(
      new GetCommand({ TableName: this.table('organizations'), Key: organizationKeys.profileById(session.profileId as string) }),
    );
    if (!profile?.userId) throw new Error('profile not found or not linked');
    await this.db.send(
      new QueryCommand({
        TableName: this.table('organizations'),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': organizationKeys.partition(partnerId, session.internalOrgId as string) },
        ConsistentRead: true,
      }),
    );
    const { Items: products = [] } = await this.db.send(
      new QueryCommand({ TableName: this.table('catalog'), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': catalogKeys.partition } }),
    );
    const { Items: cart = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.table('carts'),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': cartKeys.partition(session.profileId as string) },
        ConsistentRead: true,
      }),
    );
    return { products: products.filter((p) => p.active).length, cartUnits: cart.reduce((sum, line) => sum + (line.quantity as number), 0) };
  }

  /**
   * One successful first attempt of each pending delivery of an SQS batch, read first as
   * the dispatcher reads a message that does not carry its delivery (a retry, a replay, a
   * redelivery), with the partner's signing secret already at hand: the statuses answered.
   */
  async deliver(batch: readonly { deliveryId: string; partnerId: string }[], secret: string): Promise<number[]> {
    const [webhooks, partners] = [this.table('webhooks'), this.table('partners')];
    const { Responses } = await this.db.send(
      new BatchGetCommand({
        RequestItems: {
          [webhooks]: { Keys: batch.map(({ deliveryId }) => webhookKeys.delivery(deliveryId)), ConsistentRead: true },
          [partners]: { Keys: [...new Set(batch.map(({ partnerId }) => partnerId))].map(partnerKeys.webhookEndpoint), ConsistentRead: true },
        },
      }),
    );
    const deliveries = Responses?.[webhooks] ?? [];
    if (deliveries.length !== batch.length) throw new Error('deliveries missing');
    const endpoints = new Map((Responses?.[partners] ?? []).map((endpoint) => [endpoint.partnerId as string, endpoint]));
    return Promise.all(
      deliveries.map((delivery) => {
        const endpoint = endpoints.get(delivery.partnerId as string);
        if (!endpoint) throw new Error('no webhook endpoint');
        return this.postAndRecord(delivery.deliveryId as string, delivery.chain as number, endpoint.url as string, delivery.body as string, secret);
      }),
    );
  }

  /**
   * The least any dispatcher that records each attempt must do: the signed POST, then the
   * conditional write of its outcome (first attempt, delivered). Returns the status answered.
   */
  async postAndRecord(deliveryId: string, chain: number, url: string, body: string, secret: string): Promise<number> {
    const attemptedAt = new Date();
    const started = performance.now();
    const answer = await signedPost(url, secret, body, 'new');
    const at = new Date();
    const attempt = 1;
    await this.db.send(
      new UpdateCommand({
        TableName: this.table('webhooks'),
        Key: webhookKeys.delivery(deliveryId),
        UpdateExpression:
          'SET #status = :status, attemptCount = :count, updatedAt = :at, #ttl = :ttl, attempts = list_append(if_not_exists(attempts, :none), :attempt) REMOVE nextAttemptAt',
        ConditionExpression: '#status = :pending AND chain = :chain AND attemptCount = :previous',
        ExpressionAttributeNames: { '#status': 'status', '#ttl': 'ttl' },
        ExpressionAttributeValues: {
          ':status': 'delivered',
          ':count': attempt,
          ':previous': attempt - 1,
          ':pending': 'pending',
          ':chain': chain,
          ':at': at.toISOString(),
          ':ttl': Math.floor(at.getTime() / 1000) + DELIVERY_RETENTION_S,
          ':none': [],
          ':attempt': [
            {
              chain,
              attempt,
              attemptedAt: attemptedAt.toISOString(),
              url,
              succeeded: true,
              latencyMs: Math.round(performance.now() - started),
              statusCode: answer.status,
              responseBody: answer.body,
            },
          ],
        },
      }),
    );
    return answer.status;
  }

  /** The key-hash lookup and the rate-limit counter every API request starts with. */
  private async authenticate(apiKey: string, endpoint: 'setup' | 'handshake' | 'sandbox-order-create' | 'sandbox-order-transition'): Promise<string> {
    const { Item: key } = await this.db.send(
      new GetCommand({ TableName: this.table('partners'), Key: partnerKeys.keyLookup(sha256(apiKey)), ConsistentRead: true }),
    );
    if (!key || key.status !== 'active') throw new Error('unknown API key');
    const partnerId = key.partnerId as string;
    const nowSeconds = Date.now() / 1000;
    const windowStart = Math.floor(nowSeconds / 60) * 60;
    // Its own counters (same table, same item shape), so the baseline never spends the service's limits.
    await this.db.send(
      new UpdateCommand({
        TableName: this.table('rateLimits'),
        Key: { pk: `baseline#${partnerId}#${endpoint}#${windowStart}` },
        UpdateExpression: 'ADD #count :one SET #ttl = if_not_exists(#ttl, :ttl)',
        ExpressionAttributeNames: { '#count': 'count', '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':one': 1, ':ttl': windowStart + 120 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return partnerId;
  }
}
