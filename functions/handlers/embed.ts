import type { ApiEvent, ApiResult } from '../http/api-context';
import type { Dependencies } from '../container';
import { dependenciesFromEnvironment } from '../container';

// Replaced by the embed host (handshake issue); until then the route exists and says so.
export const createEmbedHandler =
  (_getDependencies: () => Promise<Dependencies>) =>
  async (_event: ApiEvent): Promise<ApiResult> => ({
    statusCode: 501,
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    body: 'The embedded module is not available yet.',
  });

export const handler = createEmbedHandler(dependenciesFromEnvironment);
