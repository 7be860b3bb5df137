import {
  type DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { NotFound } from '../../domain/errors';
import { queryAll } from './query-all';
import type { TransactItem } from './transactions';
import type { ApiKeyId, ApiKeyRecord, Partner, PartnerId } from '../../domain/partners/partner';
import type { PartnerRepository } from '../../domain/partners/partner-repository';

/** Key shapes of the partners table, written once. */
export const partnerKeys = {
  partner: (id: string) => ({ pk: `PARTNER#${id}`, sk: 'PARTNER' }),
  apiKey: (partnerId: string, keyId: string) => ({ pk: `PARTNER#${partnerId}`, sk: `KEY#${keyId}` }),
  keyLookup: (keyHash: string) => ({ pk: `KEYHASH#${keyHash}`, sk: 'KEYHASH' }),
  webhookEndpoint: (partnerId: string) => ({ pk: `PARTNER#${partnerId}`, sk: 'WEBHOOK' }),
  allPartnersIndex: 'PARTNERS',
};

type PartnerItem = Partner & { pk: string; sk: string; gsi1pk: string; gsi1sk: string };
type KeyItem = ApiKeyRecord & { pk: string; sk: string };

const toPartner = ({ id, name, alertEmail, allowedOrigins, createdAt }: PartnerItem): Partner => ({
  id,
  name,
  ...(alertEmail ? { alertEmail } : {}),
  allowedOrigins: allowedOrigins ?? [],
  createdAt,
});

const toKey = (item: KeyItem): ApiKeyRecord => {
  const { pk: _pk, sk: _sk, ...record } = item;
  return record;
};

export class DynamoPartnerRepository implements PartnerRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async createPartner(partner: Partner, firstKey: ApiKeyRecord): Promise<void> {
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: this.table,
              Item: {
                ...partnerKeys.partner(partner.id),
                gsi1pk: partnerKeys.allPartnersIndex,
                gsi1sk: `${partner.createdAt}#${partner.id}`,
                ...partner,
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          ...this.keyPuts(firstKey),
        ],
      }),
    );
  }

  async getPartner(partnerId: PartnerId): Promise<Partner | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: partnerKeys.partner(partnerId) }));
    return Item ? toPartner(Item as PartnerItem) : undefined;
  }

  async listPartners(): Promise<Partner[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :p',
      ExpressionAttributeValues: { ':p': partnerKeys.allPartnersIndex },
    });
    return items.map((i) => toPartner(i as unknown as PartnerItem));
  }

  async setAllowedOrigins(partnerId: PartnerId, origins: readonly string[]): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: partnerKeys.partner(partnerId),
          UpdateExpression: 'SET allowedOrigins = :o',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':o': [...origins] },
        }),
      );
    } catch (error) {
      if ((error as Error).name === 'ConditionalCheckFailedException')
        throw new NotFound(`No partner ${partnerId}`, { cause: error });
      throw error;
    }
  }

  async addKey(key: ApiKeyRecord): Promise<void> {
    await this.db.send(new TransactWriteCommand({ TransactItems: this.keyPuts(key) }));
  }

  async listKeys(partnerId: PartnerId): Promise<ApiKeyRecord[]> {
    const { Items } = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :key)',
        ExpressionAttributeValues: { ':pk': partnerKeys.partner(partnerId).pk, ':key': 'KEY#' },
        ConsistentRead: true,
      }),
    );
    return (Items ?? []).map((i) => toKey(i as KeyItem));
  }

  async findKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.table, Key: partnerKeys.keyLookup(keyHash), ConsistentRead: true }),
    );
    return Item ? toKey(Item as KeyItem) : undefined;
  }

  async rotateKey(partnerId: PartnerId, oldKeyId: ApiKeyId, newKey: ApiKeyRecord, revokedAt: Date): Promise<void> {
    const old = await this.requireKey(partnerId, oldKeyId);
    await this.transact([...this.keyRevocations(old, revokedAt), ...this.keyPuts(newKey)], partnerId, oldKeyId);
  }

  async revokeKey(partnerId: PartnerId, keyId: ApiKeyId, revokedAt: Date): Promise<void> {
    const key = await this.requireKey(partnerId, keyId);
    await this.transact(this.keyRevocations(key, revokedAt), partnerId, keyId);
  }

  private async requireKey(partnerId: PartnerId, keyId: ApiKeyId): Promise<ApiKeyRecord> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.table, Key: partnerKeys.apiKey(partnerId, keyId), ConsistentRead: true }),
    );
    if (!Item) throw new NotFound(`No key ${keyId} for partner ${partnerId}`);
    return toKey(Item as KeyItem);
  }

  private async transact(items: TransactItem[], partnerId: string, keyId: string): Promise<void> {
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: items }));
    } catch (error) {
      if (error instanceof TransactionCanceledException)
        throw new NotFound(`No active key ${keyId} for partner ${partnerId}`);
      throw error;
    }
  }

  /** The key item (for listing) and its hash lookup item (for authentication), written together. */
  private keyPuts(key: ApiKeyRecord): TransactItem[] {
    return [
      {
        Put: {
          TableName: this.table,
          Item: { ...partnerKeys.apiKey(key.partnerId, key.keyId), ...key },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: this.table,
          Item: { ...partnerKeys.keyLookup(key.keyHash), ...key },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ];
  }

  private keyRevocations(key: ApiKeyRecord, revokedAt: Date): TransactItem[] {
    const update = (Key: Record<string, string>): TransactItem => ({
      Update: {
        TableName: this.table,
        Key,
        UpdateExpression: 'SET #status = :revoked, revokedAt = :at',
        ConditionExpression: '#status = :active',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':revoked': 'revoked', ':active': 'active', ':at': revokedAt.toISOString() },
      },
    });
    return [update(partnerKeys.apiKey(key.partnerId, key.keyId)), update(partnerKeys.keyLookup(key.keyHash))];
  }
}
