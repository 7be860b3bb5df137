import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { RateLimitCounter } from '../../domain/access/rate-limiter';

/** One atomic `ADD` per request; the TTL attribute cleans old windows up. */
export class DynamoRateLimitCounter implements RateLimitCounter {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async increment(key: string, expiresAtEpochSeconds: number): Promise<number> {
    const { Attributes } = await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: { pk: key },
        UpdateExpression: 'ADD #count :one SET #ttl = if_not_exists(#ttl, :ttl)',
        ExpressionAttributeNames: { '#count': 'count', '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':one': 1, ':ttl': expiresAtEpochSeconds },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(Attributes?.count ?? 0);
  }
}
