import { Authenticator } from '../domain/access/authenticator';
import { RateLimiter } from '../domain/access/rate-limiter';
import type { BaseDependencies } from './base';
import type { DynamoRepositories } from './repositories';

/** What the partner API pipeline needs before any handler runs. */
export interface ApiDependencies extends BaseDependencies {
  readonly authenticator: Authenticator;
  readonly rateLimiter: RateLimiter;
}

export function composeApiAccess(base: BaseDependencies, repositories: DynamoRepositories): ApiDependencies {
  return {
    ...base,
    authenticator: new Authenticator(repositories.partners(), base.config.API_KEY_PREFIX),
    rateLimiter: new RateLimiter(repositories.rateLimits(), base.clock, base.config.STAGE),
  };
}
