import { randomUUID } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { HttpLambda } from '../../functions/http/http-context';

export interface LocalRoute {
  readonly method: string;
  /** API Gateway route path, with `{name}` parameters. */
  readonly path: string;
  readonly handler: HttpLambda;
  /** The function's Lambda timeout: past it, the local gateway answers as API Gateway does for a timed-out Lambda. */
  readonly timeoutSeconds: number;
}

/** A plain request handler for local-only pages (health, demo); returns false when it did not answer. */
export type LocalPage = (req: IncomingMessage, res: ServerResponse, body: Buffer) => boolean | Promise<boolean>;

// API Gateway HTTP APIs refuse payloads above 10 MB before any Lambda runs.
const GATEWAY_MAX_PAYLOAD = 10 * 1024 * 1024;

/**
 * Headers on every response of the local server, whoever answers (a Lambda route, a local
 * page such as /health or the demo, or the gateway's own 404): a `Request-Id` to quote,
 * no MIME sniffing, and no framing. A response that sets its own
 * `Content-Security-Policy` (the embedded module, which partners frame) replaces the
 * default one; the Lambda routes' `Request-Id` is this same id (the event's request id).
 */
function setCommonHeaders(res: ServerResponse, requestId: string): void {
  res.setHeader('Request-Id', requestId);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "frame-ancestors 'none'");
}

/**
 * The general error body for a path no route or page serves. Deployed, API Gateway
 * answers such a request itself (404 `{"message":"Not Found"}`, see docs/operations.md).
 */
const notFound = (method: string, path: string): APIGatewayProxyStructuredResultV2 => ({
  statusCode: 404,
  headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
  body: JSON.stringify({
    error: 'Not Found',
    message: `No route for ${method} ${path}`,
    code: 'NOT_FOUND',
    details: [],
  }),
});

/**
 * Serves Lambda handlers the way API Gateway HTTP APIs (payload format 2.0) invoke them,
 * so locally the very same handler code runs behind the same event shape.
 */
export function apiGatewayListener(routes: readonly LocalRoute[], pages: readonly LocalPage[] = []): RequestListener {
  const compiled = [...routes].sort(bySpecificity).map((route) => ({ ...route, pattern: compile(route.path) }));
  return (req, res) => {
    const requestId = randomUUID();
    setCommonHeaders(res, requestId);
    void (async () => {
      const body = await readBody(req);
      if (body === undefined)
        return send(res, { statusCode: 413, body: JSON.stringify({ message: 'Request Entity Too Large' }) });
      const url = new URL(req.url ?? '/', 'http://localhost');
      for (const route of compiled) {
        const match = route.pattern.exec(url.pathname);
        if (!match || route.method !== req.method) continue;
        const pathParameters = decodePathParameters(match.groups ?? {});
        // API Gateway refuses a malformed percent-escape before any Lambda runs.
        if (!pathParameters)
          return send(res, {
            statusCode: 400,
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ message: 'Bad Request' }),
          });
        const event = toEvent(req, url, body, `${route.method} ${route.path}`, pathParameters, requestId);
        return send(res, await invokeWithTimeout(route, event));
      }
      for (const page of pages) if (await page(req, res, body)) return;
      // No route and no page (preflights included: no CORS).
      send(res, notFound(req.method ?? 'GET', url.pathname));
    })().catch((error: unknown) => {
      // API Gateway's answer when the integration itself fails.
      process.stderr.write(`local gateway: ${(error as Error).stack}\n`);
      if (!res.headersSent) send(res, { statusCode: 500, body: JSON.stringify({ message: 'Internal Server Error' }) });
    });
  };
}

/**
 * API Gateway picks the most specific route whatever their order: segment by segment, a
 * literal beats a `{parameter}` (`/embedded/assets/products/{imageKey}` before
 * `/embedded/{partnerId}/products/{productId}`). The sort is stable, so routes of equal
 * specificity keep their order.
 */
function bySpecificity(a: { path: string }, b: { path: string }): number {
  const shape = (path: string) => path.split('/').map((segment) => (segment.startsWith('{') ? 1 : 0));
  const [left, right] = [shape(a.path), shape(b.path)];
  for (let i = 0; i < Math.min(left.length, right.length); i += 1)
    if (left[i] !== right[i]) return (left[i] as number) - (right[i] as number);
  return 0;
}

function decodePathParameters(raw: Record<string, string>): Record<string, string> | undefined {
  try {
    return Object.fromEntries(Object.entries(raw).map(([name, value]) => [name, decodeURIComponent(value)]));
  } catch {
    return undefined;
  }
}

const compile = (path: string): RegExp =>
  new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, '(?<$1>[^/]+)')}$`);

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > GATEWAY_MAX_PAYLOAD) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function toEvent(
  req: IncomingMessage,
  url: URL,
  body: Buffer,
  routeKey: string,
  pathParameters: Record<string, string>,
  requestId: string,
): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  // headersDistinct: Node keeps only the first of some repeated headers (Authorization among
  // them), API Gateway joins every repeat with a comma; the service must see what AWS shows it.
  for (const [name, values] of Object.entries(req.headersDistinct)) {
    if (values === undefined) continue;
    if (name === 'cookie')
      cookies.push(
        ...values
          .join(';')
          .split(';')
          .map((c) => c.trim())
          .filter(Boolean),
      );
    else headers[name] = values.join(',');
  }
  const queryStringParameters = url.search ? Object.fromEntries(url.searchParams) : undefined;
  const now = new Date();
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    ...(cookies.length ? { cookies } : {}),
    ...(queryStringParameters ? { queryStringParameters } : {}),
    ...(Object.keys(pathParameters).length ? { pathParameters } : {}),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method: req.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length ? { body: body.toString('base64'), isBase64Encoded: true } : { isBase64Encoded: false }),
  };
}

/** Lambda stops a handler at its timeout and API Gateway answers a bare 500; locally the handler is abandoned the same way. */
async function invokeWithTimeout(
  route: LocalRoute,
  event: APIGatewayProxyEventV2,
): Promise<APIGatewayProxyStructuredResultV2> {
  const deadline = Date.now() + route.timeoutSeconds * 1000;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<APIGatewayProxyStructuredResultV2>((resolve) => {
    timer = setTimeout(() => {
      process.stderr.write(`local gateway: ${route.method} ${route.path} timed out after ${route.timeoutSeconds} s\n`);
      resolve({
        statusCode: 500,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ message: 'Internal Server Error' }),
      });
    }, route.timeoutSeconds * 1000);
  });
  try {
    return await Promise.race([route.handler(event, lambdaContext(deadline)), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

function lambdaContext(deadline: number): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'local',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:local:000000000000:function:local',
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: 'local',
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

function send(res: ServerResponse, result: APIGatewayProxyStructuredResultV2): void {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  if (result.cookies?.length) headers['Set-Cookie'] = result.cookies;
  res.writeHead(result.statusCode ?? 200, headers);
  res.end(result.body === undefined || !result.isBase64Encoded ? result.body : Buffer.from(result.body, 'base64'));
}
