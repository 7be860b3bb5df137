import { Authenticator } from '../domain/access/authenticator';
import { RateLimiter } from '../domain/access/rate-limiter';
import type { BaseDependencies } from './base';
import { type DynamoTables, partnerRepository, rateLimitCounter } from './repositories';

/** What the partner API pipeline needs before any handler runs. */
export interface ApiDependencies extends BaseDependencies {
  readonly authenticator: Authenticator;
  readonly rateLimiter: RateLimiter;
}

export function composeApiAccess(base: BaseDependencies, tables: DynamoTables): ApiDependencies {
  return {
    ...base,
    authenticator: new Authenticator(partnerRepository(tables), base.config.API_KEY_PREFIX),
    rateLimiter: new RateLimiter(rateLimitCounter(tables), base.clock, base.config.STAGE),
  };
}
