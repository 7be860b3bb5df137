/**
 * The floors the service is judged against: for each endpoint, only the calls it cannot do
 * without, made directly with the SDK one after another behind a plain node:http server;
 * for the dispatcher, a batch's one read, then for each attempt the claim and release of an
 * in-flight slot around the signed POST, and the conditional write of its outcome. Each
 * call is minimal: the same table, operation, key and consistency as the service's, and an
 * item with what the call needs (keys, index keys, the attributes a condition tests) and
 * the record it stores, nothing more. No validation, no domain rules,
 * no request log, no HTML. The keys come from the adapters' key functions; nothing else of
 * the adapters is copied here, and the capacity table checks that the floor still makes the
 * same calls as the service.
 *
 * handshake            GetItem key hash (consistent), UpdateItem rate-limit counter, GetItem profile, PutItem token
 * setup                GetItem key hash (consistent), UpdateItem counter, Query the organization (consistent), then
 *                      TransactWriteItems of profile, profile by id and identity user; a new organization first makes
 *                      its Stripe customer (create, update: the real SDK) and adds organization, location and default claim
 * place order          GetItem key hash, UpdateItem counter, GetItem profile, Query the organization (consistent),
 *                      BatchGetItem the products (consistent), TransactWriteItems of the order and its outbox item
 * move order           GetItem key hash, UpdateItem counter, GetItem the order (consistent), TransactWriteItems of the
 *                      order (conditional on its sequence) and its outbox item
 * module catalog page  GetItem partner, UpdateItem the embedded session (conditional, ALL_NEW), GetItem profile,
 *                      Query the organization (consistent), Query the catalog, Query the cart (consistent)
 * webhook attempts     per SQS batch: BatchGetItem of its deliveries and their partners' endpoints (consistent); per
 *                      delivery: a conditional UpdateItem claiming an in-flight slot on the endpoint (the per-endpoint
 *                      cap), the signed POST on a new connection, a conditional UpdateItem releasing the slot and
 *                      counting the success in the circuit, then a conditional UpdateItem of its outcome
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, request as httpRequest, type Server } from 'node:http';
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
import type Stripe from 'stripe';
import { type AwsClients, createAwsClients } from '../functions/adapters/aws-clients';
import { cartKeys } from '../functions/adapters/dynamodb/cart-repository';
import { catalogKeys } from '../functions/adapters/dynamodb/dynamodb-catalog-repository';
import { webhookKeys } from '../functions/adapters/dynamodb/dynamodb-delivery-items';
import { identityKeys } from '../functions/adapters/dynamodb/identity-directory';
import { orderKeys } from '../functions/adapters/dynamodb/dynamodb-order-items';
import { organizationKeys } from '../functions/adapters/dynamodb/organization-items';
import { partnerKeys } from '../functions/adapters/dynamodb/dynamodb-partner-repository';
import { sessionKeys } from '../functions/adapters/dynamodb/dynamodb-session-repository';
import { stripeClientSource } from '../functions/adapters/stripe-client';
import { hashApiKey } from '../functions/domain/partners/api-keys';
import { hashSecret } from '../functions/domain/sessions/session-token';
import { EMBED_SESSION_COOKIE } from '../functions/embed-host/session-cookie';
import { tableName, type TableName } from '../functions/resources/resource-definitions';
import { USER_AGENT } from '../functions/webhooks/dispatch/signed-post';
import { signWebhookBody, standardSignatureHeader } from '../functions/webhooks/webhook-signature';
import type { BenchStack } from './bench-stack';
import { CONFIRM_ORDER_PATH, HANDSHAKE_PATH, MODULE_PAGE_PATH, PLACE_ORDER_PATH, SETUP_PATH } from './workloads';

type Item = Record<string, unknown>;
type StoredOrder = Item & {
  id: string;
  partnerId: string;
  organizationId: unknown;
  sequence: number;
  createdAt: unknown;
};

const notThere = { ConditionExpression: 'attribute_not_exists(pk)' };
const put = (TableName: string, Item: Item) => ({ Put: { TableName, Item, ...notThere } });
const ttlIn = (days: number) => Math.floor(Date.now() / 1000) + days * 24 * 3600;

/** A webhook POST with the dispatcher's headers and both its signatures, on a new connection as its transport sends each attempt. */
function signedPost(
  url: string,
  secret: string,
  delivery: { deliveryId: string; event: string; body: string },
): Promise<{ status: number; body: string }> {
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(delivery.body)),
    'User-Agent': USER_AGENT,
    'X-Service-Event': delivery.event,
    'X-Service-Signature': signWebhookBody(delivery.body, secret),
    'X-Service-Delivery-ID': delivery.deliveryId,
    'X-Service-Timestamp': String(timestamp),
    'webhook-id': delivery.deliveryId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standardSignatureHeader(delivery.deliveryId, timestamp, delivery.body, [secret]),
  };
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).subarray(0, 1024).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.end(delivery.body);
  });
}

class Floors {
  private readonly table: (name: TableName) => string;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    resourcePrefix: string,
    private readonly stripe: () => Promise<Stripe>,
  ) {
    this.table = (name) => tableName(resourcePrefix, name);
  }

  private get(table: TableName, Key: Item, ConsistentRead = false): Promise<Item | undefined> {
    return this.db
      .send(new GetCommand({ TableName: this.table(table), Key, ConsistentRead }))
      .then((read) => read.Item);
  }

  private async query(table: TableName, pk: string, ConsistentRead = false): Promise<Item[]> {
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.table(table),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ConsistentRead,
      }),
    );
    return Items;
  }

  /** The key's partner, after the key lookup and the rate-limit count every API request makes (counters of the floor's own). */
  private async admit(apiKey: string, route: string): Promise<string> {
    const key = await this.get('partners', partnerKeys.keyLookup(hashApiKey(apiKey)), true);
    if (key?.status !== 'active') throw new Error('unknown API key');
    const partnerId = key.partnerId as string;
    const window = Math.floor(Date.now() / 60_000) * 60;
    await this.db.send(
      new UpdateCommand({
        TableName: this.table('rateLimits'),
        Key: { pk: `floor#${partnerId}#${route}#${window}` },
        UpdateExpression: 'ADD #count :one SET #ttl = if_not_exists(#ttl, :ttl)',
        ExpressionAttributeNames: { '#count': 'count', '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':one': 1, ':ttl': window + 120 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return partnerId;
  }

  async handshake(apiKey: string, profileId: string) {
    const partnerId = await this.admit(apiKey, 'handshake');
    const profile = await this.get('organizations', organizationKeys.profileById(profileId));
    if (profile?.partnerId !== partnerId) throw new Error('no such profile');
    const secret = randomBytes(32).toString('hex');
    const now = new Date();
    const expiresAtMs = now.getTime() + 5 * 60_000;
    const token = {
      id: randomUUID(),
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
          ...sessionKeys.token(hashSecret(secret)),
          gsi1pk: sessionKeys.tokensOfPartner(partnerId),
          gsi1sk: `${token.createdAt}#${token.id}`,
          ...token,
          expiresAtMs,
          ttl: ttlIn(7),
        },
        ...notThere,
      }),
    );
    return { session_key: secret, expires_at: token.expiresAt, profile: { id: profileId, email: profile.email } };
  }

  async setup(
    apiKey: string,
    body: { internalOrgId: string; organizationName: string; internalUserId: string; user: Item },
  ) {
    const partnerId = await this.admit(apiKey, 'setup');
    const { internalOrgId, internalUserId } = body;
    const items = await this.query('organizations', organizationKeys.partition(partnerId, internalOrgId), true);
    const existing = items.find((item) => item.sk === organizationKeys.organization(partnerId, internalOrgId).sk);
    const organizationId = (existing?.id as string | undefined) ?? randomUUID();
    const now = new Date().toISOString();
    const profile = {
      id: randomUUID(),
      partnerId,
      organizationId,
      internalOrgId,
      internalUserId,
      userId: randomUUID(),
      ...body.user,
      createdAt: now,
    };
    const organizations = this.table('organizations');
    const writes = [
      put(organizations, {
        ...organizationKeys.profile(partnerId, internalOrgId, internalUserId),
        gsi1pk: organizationKeys.usersOfPartner(partnerId, internalUserId),
        gsi1sk: internalOrgId,
        ...profile,
      }),
      put(organizations, { ...organizationKeys.profileById(profile.id), ...profile }),
      put(this.table('identityUsers'), {
        ...identityKeys.user(profile.userId),
        partnerId,
        profileId: profile.id,
        email: body.user.email,
        status: 'active',
      }),
    ];
    if (!existing) {
      const stripe = await this.stripe();
      const customer = await stripe.customers.create(
        { metadata: { partnerId, internalOrgId } },
        { idempotencyKey: `floor-${organizationId}` },
      );
      await stripe.customers.update(customer.id, { name: body.organizationName });
      const locationId = randomUUID();
      writes.push(
        put(organizations, {
          ...organizationKeys.organization(partnerId, internalOrgId),
          gsi1pk: organizationKeys.organizationsOfPartner(partnerId),
          gsi1sk: internalOrgId,
          id: organizationId,
          name: body.organizationName,
          paymentCustomerId: customer.id,
          createdAt: now,
        }),
        put(organizations, {
          ...organizationKeys.location(partnerId, internalOrgId, 'loc-main'),
          id: locationId,
          name: 'Main office',
          isDefault: true,
        }),
        put(organizations, { ...organizationKeys.defaultLocation(partnerId, internalOrgId), locationId }),
      );
    }
    await this.db.send(new TransactWriteCommand({ TransactItems: writes }));
    return { profile_id: profile.id, organization_id: organizationId };
  }

  async placeOrder(apiKey: string, body: { profile_id: string; items: { product_id: string; quantity: number }[] }) {
    const partnerId = await this.admit(apiKey, 'order-create');
    const profile = await this.get('organizations', organizationKeys.profileById(body.profile_id));
    if (profile?.partnerId !== partnerId) throw new Error('no such profile');
    const internalOrgId = profile.internalOrgId as string;
    const organization = await this.query('organizations', organizationKeys.partition(partnerId, internalOrgId), true);
    const location = organization.find((item) => item.isDefault === true);
    const catalog = this.table('catalog');
    const { Responses } = await this.db.send(
      new BatchGetCommand({
        RequestItems: {
          [catalog]: { Keys: body.items.map((item) => catalogKeys.product(item.product_id)), ConsistentRead: true },
        },
      }),
    );
    const products = new Map((Responses?.[catalog] ?? []).map((product) => [product.productId as string, product]));
    const lines = body.items.map(({ product_id, quantity }) => ({
      productId: product_id,
      name: products.get(product_id)?.name,
      unitPriceCents: products.get(product_id)?.priceCents,
      quantity,
    }));
    const now = new Date().toISOString();
    const order = {
      id: randomUUID(),
      partnerId,
      organizationId: profile.organizationId,
      profileId: profile.id,
      items: lines,
      shippingAddress: location,
      status: 'pending',
      sequence: 1,
      createdAt: now,
    };
    await this.writeOrder(order, 'order.created', { ConditionExpression: 'attribute_not_exists(pk)' });
    return { id: order.id, status: order.status };
  }

  async confirmOrder(apiKey: string, orderId: string) {
    const partnerId = await this.admit(apiKey, 'order-transition');
    const stored = await this.get('orders', orderKeys.order(orderId), true);
    const order = stored?.order as StoredOrder | undefined;
    if (order?.partnerId !== partnerId) throw new Error('no such order');
    const confirmed = {
      ...order,
      status: 'confirmed',
      sequence: order.sequence + 1,
      updatedAt: new Date().toISOString(),
    };
    await this.writeOrder(confirmed, 'order.confirmed', {
      ConditionExpression: '#sequence = :expected',
      ExpressionAttributeNames: { '#sequence': 'sequence' },
      ExpressionAttributeValues: { ':expected': order.sequence },
    });
    return { id: orderId, status: confirmed.status };
  }

  /** The order's item and its event's outbox item, in one transaction. */
  private async writeOrder(order: StoredOrder, event: string, condition: Item) {
    const orders = this.table('orders');
    const eventId = randomUUID();
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: orders,
              Item: {
                ...orderKeys.order(order.id),
                gsi1pk: orderKeys.ordersOfOrganization(String(order.organizationId)),
                gsi1sk: `${String(order.createdAt)}#${order.id}`,
                sequence: order.sequence,
                order,
              },
              ...condition,
            },
          },
          put(orders, {
            ...orderKeys.outbox(eventId),
            message: JSON.stringify({ eventId, partnerId: order.partnerId, event, data: order }),
            ttl: ttlIn(1),
          }),
        ],
      }),
    );
  }

  async moduleCatalog(partnerId: string, cookieValue: string) {
    await this.get('partners', partnerKeys.partner(partnerId));
    const now = Date.now();
    const { Attributes: session } = await this.db.send(
      new UpdateCommand({
        TableName: this.table('sessions'),
        Key: sessionKeys.embeddedSession(hashSecret(cookieValue)),
        UpdateExpression: 'SET lastSeenAt = :now, idleExpiresAtMs = :idle',
        ConditionExpression: '#state = :active AND partnerId = :partner AND idleExpiresAtMs > :now',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':active': 'active',
          ':partner': partnerId,
          ':now': now,
          ':idle': now + 30 * 60_000,
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    if (!session) throw new Error('no live session');
    const profileId = session.profileId as string;
    await this.get('organizations', organizationKeys.profileById(profileId));
    await this.query('organizations', organizationKeys.partition(partnerId, session.internalOrgId as string), true);
    const products = await this.query('catalog', catalogKeys.partition);
    const cart = await this.query('carts', cartKeys.partition(profileId), true);
    return { products: products.length, cart_units: cart.reduce((sum, line) => sum + Number(line.quantity), 0) };
  }

  /** Per endpoint, the in-flight slots this process holds, so its claims need no read to pick a free one. */
  private readonly heldSlots = new Map<string, Set<number>>();

  /**
   * One SQS batch of first attempts: its deliveries and their partners' endpoints in one
   * consistent read, then for each delivery the claim of an in-flight slot (a conditional
   * UpdateItem of a lease on the endpoint), the signed POST, the slot's release with the
   * success counted in the circuit (a conditional UpdateItem), and the conditional write of
   * its outcome. Returns the statuses answered (0: no slot was free).
   */
  async deliverBatch(
    deliveries: readonly { deliveryId: string; partnerId: string }[],
    secrets: ReadonlyMap<string, string>,
    maxInFlight: number,
  ): Promise<number[]> {
    const [webhooks, partners] = [this.table('webhooks'), this.table('partners')];
    const partnerIds = [...new Set(deliveries.map((d) => d.partnerId))];
    const { Responses } = await this.db.send(
      new BatchGetCommand({
        RequestItems: {
          [webhooks]: { Keys: deliveries.map((d) => webhookKeys.delivery(d.deliveryId)), ConsistentRead: true },
          [partners]: { Keys: partnerIds.map((id) => partnerKeys.webhookEndpoint(id)), ConsistentRead: true },
        },
      }),
    );
    const urls = new Map(
      (Responses?.[partners] ?? []).map((endpoint) => [String(endpoint.partnerId), String(endpoint.url)]),
    );
    const partnerOf = new Map(deliveries.map((d) => [d.deliveryId, d.partnerId]));
    return Promise.all(
      (Responses?.[webhooks] ?? []).map(async (delivery) => {
        const partnerId = partnerOf.get(String(delivery.deliveryId)) as string;
        const url = urls.get(partnerId) as string;
        const held = this.heldSlots.get(partnerId) ?? new Set<number>();
        this.heldSlots.set(partnerId, held);
        const slot = Array.from({ length: maxInFlight }, (_, i) => i).find((i) => !held.has(i));
        if (slot === undefined) return 0;
        held.add(slot);
        const endpointKey = partnerKeys.webhookEndpoint(partnerId);
        const lease = `${new Date(Date.now() + 60_000).toISOString()}|${randomUUID()}`;
        try {
          await this.db.send(
            new UpdateCommand({
              TableName: partners,
              Key: endpointKey,
              UpdateExpression: 'SET #slot = :lease',
              ConditionExpression: 'attribute_not_exists(#slot) OR #slot < :now',
              ExpressionAttributeNames: { '#slot': `inFlight${slot}` },
              ExpressionAttributeValues: { ':lease': lease, ':now': new Date().toISOString() },
            }),
          );
          const attemptedAt = new Date().toISOString();
          const started = performance.now();
          const answer = await signedPost(
            url,
            secrets.get(partnerId) as string,
            delivery as { deliveryId: string; event: string; body: string },
          );
          await this.db.send(
            new UpdateCommand({
              TableName: partners,
              Key: endpointKey,
              UpdateExpression: 'SET circuitFailures = :zero REMOVE #slot',
              ConditionExpression: '#slot = :lease',
              ExpressionAttributeNames: { '#slot': `inFlight${slot}` },
              ExpressionAttributeValues: { ':zero': 0, ':lease': lease },
            }),
          );
          const attempt = {
            chain: delivery.chain,
            attempt: 1,
            attemptedAt,
            url,
            succeeded: true,
            latencyMs: Math.round(performance.now() - started),
            statusCode: answer.status,
            responseBody: answer.body,
          };
          await this.db.send(
            new UpdateCommand({
              TableName: webhooks,
              Key: webhookKeys.delivery(delivery.deliveryId as string),
              UpdateExpression:
                'SET #status = :delivered, attemptCount = :one, attempts = list_append(if_not_exists(attempts, :none), :attempt)',
              ConditionExpression: '#status = :pending AND chain = :chain AND attemptCount = :zero',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: {
                ':delivered': 'delivered',
                ':pending': 'pending',
                ':chain': delivery.chain,
                ':one': 1,
                ':zero': 0,
                ':none': [],
                ':attempt': [attempt],
              },
            }),
          );
          return answer.status;
        } finally {
          held.delete(slot);
        }
      }),
    );
  }
}

export interface FloorServer {
  readonly url: string;
  readonly floors: Floors;
  /** The floor's own DynamoDB client, for the capacity meter. */
  readonly clients: AwsClients;
  close(): Promise<void>;
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
}

const bearer = (req: IncomingMessage) => String(req.headers.authorization).replace(/^Bearer /, '');
const sessionCookie = (req: IncomingMessage) =>
  String(req.headers.cookie ?? '')
    .split(/;\s*/)
    .find((pair) => pair.startsWith(`${EMBED_SESSION_COOKIE}=`))
    ?.slice(EMBED_SESSION_COOKIE.length + 1) ?? '';

/** The floors behind a plain node:http server on loopback, on the benchmarked routes, with SDK clients of their own. */
export async function startFloorServer(bench: BenchStack): Promise<FloorServer> {
  const clients = createAwsClients(bench.standIns.endpoints);
  const floors = new Floors(clients.db, bench.resourcePrefix, stripeClientSource(bench.stack.config, clients.secrets));
  const server: Server = createServer((req, res) => {
    const answer = (status: number, body: unknown) =>
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    void (async () => {
      const url = req.url ?? '';
      const page = MODULE_PAGE_PATH.exec(url);
      if (req.method === 'GET' && page)
        return answer(200, await floors.moduleCatalog(page[1] as string, sessionCookie(req)));
      const body = await readJson(req);
      if (url === HANDSHAKE_PATH)
        return answer(200, await floors.handshake(String(req.headers['x-api-key']), String(body.profile_id)));
      if (url === SETUP_PATH)
        return answer(200, await floors.setup(bearer(req), body as unknown as Parameters<Floors['setup']>[1]));
      if (url === PLACE_ORDER_PATH)
        return answer(
          201,
          await floors.placeOrder(bearer(req), body as unknown as Parameters<Floors['placeOrder']>[1]),
        );
      const confirm = CONFIRM_ORDER_PATH.exec(url);
      if (confirm) return answer(200, await floors.confirmOrder(bearer(req), confirm[1] as string));
      answer(404, { message: 'Not Found' });
    })().catch((error: unknown) => answer(500, { message: String(error) }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    floors,
    clients,
    close: async () => {
      await new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      });
      clients.db.destroy();
    },
  };
}
