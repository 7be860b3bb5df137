import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoPartnerRepository } from '../adapters/dynamodb/partner-repository';
import { DynamoRateLimitCounter } from '../adapters/dynamodb/rate-limit-counter';
import { Authenticator } from '../domain/access/authenticator';
import { RateLimiter } from '../domain/access/rate-limiter';
import { type BaseDependencies, tablesOf } from './base';

/** What the partner API pipeline needs before any handler runs. */
export interface ApiDependencies extends BaseDependencies {
  readonly authenticator: Authenticator;
  readonly rateLimiter: RateLimiter;
}

export function composeApiAccess(base: BaseDependencies, db: DynamoDBDocumentClient): ApiDependencies {
  const table = tablesOf(base.config);
  return {
    ...base,
    authenticator: new Authenticator(new DynamoPartnerRepository(db, table('partners')), base.config.API_KEY_PREFIX),
    rateLimiter: new RateLimiter(new DynamoRateLimitCounter(db, table('rateLimits')), base.clock, base.config.STAGE),
  };
}
