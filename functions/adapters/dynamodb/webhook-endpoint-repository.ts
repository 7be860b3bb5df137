import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { PartnerId } from '../../domain/partners/partner';
import type { WebhookEndpoint, WebhookEndpointRepository } from '../../domain/webhooks/webhook-endpoint';
import { partnerKeys } from './partner-repository';

/** The partner's webhook endpoint, one item next to the partner in the partners table. */
export class DynamoWebhookEndpointRepository implements WebhookEndpointRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(partnerId: PartnerId): Promise<WebhookEndpoint | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.table, Key: partnerKeys.webhookEndpoint(partnerId), ConsistentRead: true }),
    );
    if (!Item) return undefined;
    const { pk: _pk, sk: _sk, ...endpoint } = Item;
    return endpoint as WebhookEndpoint;
  }

  async put(endpoint: WebhookEndpoint): Promise<void> {
    await this.db.send(
      new PutCommand({ TableName: this.table, Item: { ...partnerKeys.webhookEndpoint(endpoint.partnerId), ...endpoint } }),
    );
  }
}
