import { boundedRequests } from './request-bounds';

/**
 * Where an SDK client points: nowhere special in AWS (the SDK's defaults, including the
 * standard `AWS_ENDPOINT_URL_<SERVICE>` variables), or a local stand-in. The stand-ins
 * accept any credentials; fixed ones keep a developer's real AWS profile out of it.
 * Every client, in AWS or not, waits a bounded time (request-bounds.ts).
 */
export const clientOptions = (endpoint?: string) => ({
  ...boundedRequests(),
  ...(endpoint
    ? { endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
    : {}),
});
