import type { MiddlewareObj } from '@middy/core';
import { Unauthorized } from '../domain/errors';
import { METRIC, statusClass } from '../domain/metrics';
import type { HttpContext, HttpEvent, HttpResult } from './http-context';
import type { HttpDependencies } from './http-dependencies';

/**
 * One structured line per request (contract: Authentication 7). It holds what an
 * operator needs and nothing secret: no headers, no body, no key. The request's metrics
 * (count by route and status class, latency, 429s) are recorded and flushed here, last.
 */
export const requestLog = <D extends HttpDependencies>(
  endpoint: string,
): MiddlewareObj<HttpEvent, HttpResult, Error, HttpContext<D>> => {
  const write = (request: {
    event: HttpEvent;
    context: HttpContext<D>;
    response: HttpResult | null;
    error: Error | null;
  }) => {
    const { context, event, response, error } = request;
    const { deps, startedAt = Date.now() } = context;
    // Without dependencies there is no logger: the failure reaches Lambda's own log.
    if (!deps) return;
    const entry = {
      msg: 'api_request',
      timestamp: new Date(startedAt).toISOString(),
      requestId: context.requestId,
      // On the embed host the partner is the one named in the path (there is no API key).
      partnerId: context.caller?.partnerId ?? event.pathParameters?.partnerId ?? null,
      endpoint,
      method: event.requestContext?.http?.method,
      status: response?.statusCode ?? 500,
      ip: event.requestContext?.http?.sourceIp,
      latencyMs: Date.now() - startedAt,
      // A 401's reason says which check failed; its message (told to the caller) may not.
      ...(error ? { failure: error.name, reason: error instanceof Unauthorized ? error.reason : error.message } : {}),
    };
    // The error responder ran first: a 4xx is the caller's failure, a 5xx ours and worth an alarm.
    if (error && entry.status >= 500) {
      deps.logger.error({ ...entry, stack: error.stack });
    } else {
      deps.logger.info(entry);
    }
    if (!deps.metrics) return;
    deps.metrics.count(METRIC.requests, { route: endpoint, statusClass: statusClass(entry.status) });
    deps.metrics.observe(METRIC.requestLatency, entry.latencyMs, { route: endpoint });
    if (entry.status === 429) deps.metrics.count(METRIC.rateLimited, { route: endpoint });
    deps.metrics.flush();
  };
  return { after: write, onError: write };
};
