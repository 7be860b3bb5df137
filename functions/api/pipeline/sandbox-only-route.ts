import type { RuntimeConfig } from '../../config';
import type { HttpLambda } from '../../http/http-context';
import { routeNotFound } from './routed-handler';

/**
 * Defence in depth behind the stage's route list (production's API has no sandbox-only
 * routes, functions/routes.ts): such a route's function refuses it on any stage but
 * sandbox, as API Gateway would answer for a route it does not have.
 */
export const sandboxOnlyRoute =
  (
    getDependencies: () => Promise<{ readonly config: Pick<RuntimeConfig, 'STAGE'> }>,
    handler: HttpLambda,
  ): HttpLambda =>
  async (event, context) =>
    (await getDependencies()).config.STAGE === 'sandbox' ? handler(event, context) : routeNotFound();
