/**
 * The baseline of the HTTP benchmark: only the DynamoDB calls each endpoint must make,
 * mirrored call for call from the real adapters (same tables, keys, consistency, condition
 * expressions and item attributes), with nothing around them: no middy pipeline, no
 * validation, no domain objects, no request log, no Stripe.
 *
 * handshake (by profile_id)        GetItem key hash (consistent), UpdateItem rate-limit counter,
 *                                  GetItem profile by id, GetItem identity user, PutItem session token
 * setup, existing organization     GetItem key hash (consistent), UpdateItem rate-limit counter,
 *                                  Query the organization's partition (consistent),
 *                                  TransactWriteItems: profile + profile-by-id + identity user
 * setup, new organization          the same reads (the Query finds nothing), then
 *                                  TransactWriteItems: organization + profile + profile-by-id +
 *                                  identity user + location + default-location claim
 * webhook delivery attempts        per SQS batch: BatchGetItem of its deliveries (consistent),
 *                                  GetItem of each partner's webhook endpoint (consistent); per
 *                                  delivery: the signed POST, UpdateItem of the delivery state
 *                                  and attempt log (conditional; the signing secret is cached)
 */
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
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
import { USER_AGENT } from '../functions/domain/webhooks/webhook-dispatcher';
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
 * A webhook POST signed like the dispatcher's (HMAC-SHA256 of the body, the same headers):
 * with fetch and its keep-alive connections, or with node:http on a new connection, the
 * way the dispatcher's transport sends every attempt.
 */
export async function signedPost(url: string, secret: string, body: string, connection: 'keep-alive' | 'new'): Promise<PostResult> {
  const headers = {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    'X-Service-Event': 'order.created',
    'X-Service-Signature': `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`,
    'X-Service-Delivery-ID': randomUUID(),
    'X-Service-Timestamp': String(Math.floor(Date.now() / 1000)),
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

export class BareCalls {
  private readonly table: (name: TableName) => string;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    resourcePrefix: string,
  ) {
    this.table = (name) => tableName(resourcePrefix, name);
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
      paymentCustomerId: `cus_${randomBytes(7).toString('hex')}`,
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

  /**
   * One successful first attempt of each pending delivery of an SQS batch, with the
   * partner's signing secret already at hand: the statuses the receiver answered.
   */
  async deliver(deliveryIds: readonly string[], secret: string): Promise<number[]> {
    const table = this.table('webhooks');
    const { Responses } = await this.db.send(
      new BatchGetCommand({ RequestItems: { [table]: { Keys: deliveryIds.map((id) => webhookKeys.delivery(id)), ConsistentRead: true } } }),
    );
    const deliveries = Responses?.[table] ?? [];
    if (deliveries.length !== deliveryIds.length) throw new Error('deliveries missing');
    const endpoints = new Map<string, Promise<Record<string, unknown> | undefined>>();
    const endpointOf = (partnerId: string) => {
      if (!endpoints.has(partnerId)) {
        const key = partnerKeys.webhookEndpoint(partnerId);
        endpoints.set(partnerId, this.db.send(new GetCommand({ TableName: this.table('partners'), Key: key, ConsistentRead: true })).then((r) => r.Item));
      }
      return endpoints.get(partnerId) as Promise<Record<string, unknown> | undefined>;
    };
    return Promise.all(
      deliveries.map(async (delivery) => {
        const endpoint = await endpointOf(delivery.partnerId as string);
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
  private async authenticate(apiKey: string, endpoint: 'setup' | 'handshake'): Promise<string> {
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
