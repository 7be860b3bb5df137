import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { PartnerId } from '../../domain/partners/partner';
import type {
  EndpointStatus,
  EndpointStatusChange,
  WebhookEndpoint,
  WebhookEndpointRepository,
} from '../../webhooks/webhook-endpoint';
import { partnerKeys } from './dynamodb-partner-repository';
import { circuitItem, endpointFromItem, isConditionFailure } from './dynamodb-webhook-endpoint-items';

/**
 * The partner's webhook endpoint, one item next to the partner in the partners table. Its
 * circuit and in-flight leases live on the same item and are claimed by DynamoEndpointGate.
 */
export class DynamoWebhookEndpointRepository implements WebhookEndpointRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(partnerId: PartnerId): Promise<WebhookEndpoint | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.table, Key: partnerKeys.webhookEndpoint(partnerId), ConsistentRead: true }),
    );
    return Item ? endpointFromItem(Item) : undefined;
  }

  async put(endpoint: WebhookEndpoint): Promise<void> {
    const { circuit, ...stored } = endpoint;
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: { ...partnerKeys.webhookEndpoint(endpoint.partnerId), ...stored, ...circuitItem(circuit) },
      }),
    );
  }

  async remove(partnerId: PartnerId): Promise<boolean> {
    const { Attributes } = await this.db.send(
      new DeleteCommand({
        TableName: this.table,
        Key: partnerKeys.webhookEndpoint(partnerId),
        ReturnValues: 'ALL_OLD',
      }),
    );
    return Attributes !== undefined;
  }

  async changeStatus(
    partnerId: PartnerId,
    change: EndpointStatusChange,
    from: readonly EndpointStatus[],
  ): Promise<boolean> {
    const allowed = from.map((_, index) => `:from${index}`);
    const values: Record<string, unknown> = Object.fromEntries(from.map((status, index) => [`:from${index}`, status]));
    const unset = from.includes('enabled') ? ' OR attribute_not_exists(#status)' : '';
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: partnerKeys.webhookEndpoint(partnerId),
          UpdateExpression: `SET #status = :status, statusSince = :since, updatedAt = :since${change.reason ? ', statusReason = :reason' : ''} REMOVE failingSince${change.reason ? '' : ', statusReason'}`,
          ConditionExpression: `attribute_exists(pk) AND (#status IN (${allowed.join(', ')})${unset})`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ...values,
            ':status': change.status,
            ':since': change.since,
            ...(change.reason ? { ':reason': change.reason } : {}),
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async markFailing(partnerId: PartnerId, since: Date): Promise<void> {
    await this.conditionally(
      new UpdateCommand({
        TableName: this.table,
        Key: partnerKeys.webhookEndpoint(partnerId),
        UpdateExpression: 'SET failingSince = :since',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(failingSince)',
        ExpressionAttributeValues: { ':since': since.toISOString() },
      }),
    );
  }

  async markHealthy(partnerId: PartnerId): Promise<void> {
    await this.conditionally(
      new UpdateCommand({
        TableName: this.table,
        Key: partnerKeys.webhookEndpoint(partnerId),
        UpdateExpression: 'REMOVE failingSince',
        ConditionExpression: 'attribute_exists(failingSince)',
      }),
    );
  }

  async markSlowPath(partnerId: PartnerId, since: Date, reason: string): Promise<boolean> {
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: partnerKeys.webhookEndpoint(partnerId),
          UpdateExpression: 'SET slowPathSince = if_not_exists(slowPathSince, :since), slowPathReason = :reason',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':since': since.toISOString(), ':reason': reason },
          // The old value says whether this write moved the endpoint (operators count endpoints moving, not attempts).
          ReturnValues: 'UPDATED_OLD',
        }),
      );
      return Attributes?.slowPathSince === undefined;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return false;
    }
  }

  async markFastPath(partnerId: PartnerId): Promise<boolean> {
    return this.conditionally(
      new UpdateCommand({
        TableName: this.table,
        Key: partnerKeys.webhookEndpoint(partnerId),
        UpdateExpression: 'REMOVE slowPathSince, slowPathReason',
        ConditionExpression: 'attribute_exists(slowPathSince)',
      }),
    );
  }

  /** A streak another handler already noted (or ended) is the same outcome; false when it was. */
  private async conditionally(command: UpdateCommand): Promise<boolean> {
    try {
      await this.db.send(command);
      return true;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return false;
    }
  }
}
