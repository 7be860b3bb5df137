/**
 * How long any one AWS SDK call may wait, retries included. Without these the SDK waits
 * forever on a dependency that accepts the connection and never answers, so a stalled
 * DynamoDB held every request (even a 401) until Lambda or API Gateway cut it off with a
 * body that is not the contract's.
 *
 * Sized for the shortest function (handshake and embed, 10 s): one call gives up after
 * at most 2 attempts x 3 s plus the SDK's jittered backoff (well under 1 s), about 6.5 s,
 * leaving the handler time to answer the endpoint's 500. A stalled dependency fails the
 * first call that reaches it, so the request never waits on a second one.
 */
export const AWS_REQUEST_BOUNDS = {
  /** TCP (and TLS) connect; AWS endpoints connect in milliseconds. */
  connectionTimeoutMs: 1_000,
  /** The whole request and response of one attempt. */
  requestTimeoutMs: 3_000,
  /** The first try plus one retry (the SDK's default is 3 attempts). */
  maxAttempts: 2,
} as const;

/** SDK client options that apply AWS_REQUEST_BOUNDS. */
export const boundedRequests = () => ({
  maxAttempts: AWS_REQUEST_BOUNDS.maxAttempts,
  requestHandler: {
    connectionTimeout: AWS_REQUEST_BOUNDS.connectionTimeoutMs,
    requestTimeout: AWS_REQUEST_BOUNDS.requestTimeoutMs,
    // Newer SDKs only warn on requestTimeout unless told to throw; older ones treat it as a socket idle timeout, which throws as well.
    throwOnRequestTimeout: true,
  },
});
