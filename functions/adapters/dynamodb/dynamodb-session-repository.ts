import { type DynamoDBDocumentClient, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds } from '../../domain/clock';
import type { ProfileId } from '../../domain/organizations/organization';
import type { PartnerId } from '../../domain/partners/partner';
import type {
  EmbeddedSessionEndReason,
  EmbeddedSessionRecord,
  SessionTokenRecord,
} from '../../domain/sessions/session-records';
import type { SessionRepository } from '../../domain/sessions/session-repository';

/**
 * Key shapes of the sessions table. Items are addressed by the SHA-256 of their secret,
 * so the secret itself is needed to find one; gsi1 serves the operator's listings.
 */
export const sessionKeys = {
  token: (tokenHash: string) => ({ pk: `TOKEN#${tokenHash}`, sk: 'TOKEN' }),
  tokensOfPartner: (partnerId: string) => `TOKENS#${partnerId}`,
  embeddedSession: (sessionHash: string) => ({ pk: `EMBED#${sessionHash}`, sk: 'EMBED' }),
  embeddedSessionsOfProfile: (partnerId: string, profileId: string) => `EMBEDS#${partnerId}#${profileId}`,
};

/** How long records stay for the operator's listings after they stop being usable. */
const RETENTION_SECONDS = 7 * 24 * 60 * 60;

// `state` is a DynamoDB reserved word.
const STATE_NAME = { '#state': 'state' } as const;

const isConditionFailure = (error: unknown): boolean => (error as Error).name === 'ConditionalCheckFailedException';

/** Item attributes that exist for keys, conditions and TTL, not for the domain. */
function strip<T>(item: Record<string, unknown>): T {
  const {
    pk: _pk,
    sk: _sk,
    gsi1pk: _g1,
    gsi1sk: _g2,
    entity: _e,
    ttl: _ttl,
    expiresAtMs: _x,
    idleExpiresAtMs: _i,
    absoluteExpiresAtMs: _a,
    ...rest
  } = item;
  return rest as T;
}

export class DynamoSessionRepository implements SessionRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async saveToken(token: SessionTokenRecord, tokenHash: string): Promise<void> {
    const expiresAtMs = Date.parse(token.expiresAt);
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          ...sessionKeys.token(tokenHash),
          gsi1pk: sessionKeys.tokensOfPartner(token.partnerId),
          gsi1sk: `${token.createdAt}#${token.id}`,
          entity: 'token',
          ...token,
          expiresAtMs,
          ttl: epochSeconds(new Date(expiresAtMs)) + RETENTION_SECONDS,
        },
        // 256 random bits never collide; the condition makes sure a write can never revive a token.
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async redeemToken(tokenHash: string, partnerId: PartnerId, now: Date): Promise<SessionTokenRecord | undefined> {
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: sessionKeys.token(tokenHash),
          UpdateExpression: 'SET #state = :used, usedAt = :now',
          // Single use, expiry and partner binding are all decided here, atomically.
          ConditionExpression: '#state = :issued AND expiresAtMs > :nowMs AND partnerId = :partner',
          ExpressionAttributeNames: STATE_NAME,
          ExpressionAttributeValues: {
            ':used': 'used',
            ':issued': 'issued',
            ':now': now.toISOString(),
            ':nowMs': now.getTime(),
            ':partner': partnerId,
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes ? strip<SessionTokenRecord>(Attributes) : undefined;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }

  async listTokens(partnerId: PartnerId, limit: number): Promise<SessionTokenRecord[]> {
    const { Items } = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :p',
        ExpressionAttributeValues: { ':p': sessionKeys.tokensOfPartner(partnerId) },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return (Items ?? []).map((item) => strip<SessionTokenRecord>(item));
  }

  async saveEmbeddedSession(session: EmbeddedSessionRecord, sessionHash: string): Promise<void> {
    const absoluteExpiresAtMs = Date.parse(session.absoluteExpiresAt);
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          ...sessionKeys.embeddedSession(sessionHash),
          gsi1pk: sessionKeys.embeddedSessionsOfProfile(session.partnerId, session.profileId),
          gsi1sk: `${session.createdAt}#${session.id}`,
          entity: 'embedded-session',
          ...session,
          idleExpiresAtMs: Date.parse(session.idleExpiresAt),
          absoluteExpiresAtMs,
          ttl: epochSeconds(new Date(absoluteExpiresAtMs)) + RETENTION_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async touchEmbeddedSession(
    sessionHash: string,
    partnerId: PartnerId,
    now: Date,
    idleExpiresAt: Date,
  ): Promise<EmbeddedSessionRecord | undefined> {
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: sessionKeys.embeddedSession(sessionHash),
          UpdateExpression: 'SET lastSeenAt = :now, idleExpiresAt = :idle, idleExpiresAtMs = :idleMs',
          // TTL deletion is lazy (and absent locally): expiry is checked here, not left to TTL.
          ConditionExpression:
            '#state = :active AND partnerId = :partner AND idleExpiresAtMs > :nowMs AND absoluteExpiresAtMs > :nowMs',
          ExpressionAttributeNames: STATE_NAME,
          ExpressionAttributeValues: {
            ':active': 'active',
            ':partner': partnerId,
            ':now': now.toISOString(),
            ':nowMs': now.getTime(),
            ':idle': idleExpiresAt.toISOString(),
            ':idleMs': idleExpiresAt.getTime(),
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes ? strip<EmbeddedSessionRecord>(Attributes) : undefined;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }

  async endEmbeddedSession(
    sessionHash: string,
    partnerId: PartnerId,
    at: Date,
    reason: EmbeddedSessionEndReason,
  ): Promise<boolean> {
    return (await this.end(sessionKeys.embeddedSession(sessionHash), partnerId, at, reason)) !== undefined;
  }

  async endEmbeddedSessionsOfProfile(
    partnerId: PartnerId,
    profileId: ProfileId,
    at: Date,
    reason: EmbeddedSessionEndReason,
  ): Promise<EmbeddedSessionRecord[]> {
    const ended: EmbeddedSessionRecord[] = [];
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await this.db.send(
        new QueryCommand({
          TableName: this.table,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :p',
          FilterExpression: '#state = :active',
          ExpressionAttributeNames: STATE_NAME,
          ExpressionAttributeValues: {
            ':p': sessionKeys.embeddedSessionsOfProfile(partnerId, profileId),
            ':active': 'active',
          },
          ExclusiveStartKey,
        }),
      );
      for (const item of page.Items ?? []) {
        const session = await this.end({ pk: item.pk as string, sk: item.sk as string }, partnerId, at, reason);
        if (session) ended.push(session);
      }
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    return ended;
  }

  private async end(
    Key: { pk: string; sk: string },
    partnerId: PartnerId,
    at: Date,
    reason: EmbeddedSessionEndReason,
  ): Promise<EmbeddedSessionRecord | undefined> {
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key,
          UpdateExpression: 'SET #state = :ended, endedAt = :at, endReason = :reason',
          ConditionExpression: '#state = :active AND partnerId = :partner',
          ExpressionAttributeNames: STATE_NAME,
          ExpressionAttributeValues: {
            ':ended': 'ended',
            ':active': 'active',
            ':partner': partnerId,
            ':at': at.toISOString(),
            ':reason': reason,
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes ? strip<EmbeddedSessionRecord>(Attributes) : undefined;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }
}
