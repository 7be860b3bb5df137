import middy from '@middy/core';
import { type HttpEvent, type HttpLambda, type HttpResult, filledIn, header } from '../../http/http-context';
import type { HttpDependencies } from '../../http/http-dependencies';
import { inRequestScope, requestContext } from '../../http/request-context';
import { requestLog } from '../../http/request-log';
import type { HttpResponse } from '../../http/responses';
import type { SignedRouteName } from '../../route-names';
import { signedRoute } from '../../routes';
import type { ApiContext } from './api-context';
import { errorResponder } from './error-responder';

interface SignedRequest<D> {
  /** The body's exact bytes: the signature is over them, so nothing parses or re-encodes them first. */
  readonly rawBody: Buffer;
  readonly signature: string | undefined;
  readonly requestId: string;
  readonly deps: D;
}

/**
 * The pipeline of a route whose caller signs the body instead of presenting a key
 * (functions/routes.ts, `credential: 'stripe-signature'`): the request id, the log line
 * (never the body) and the error shape as on every API route; no key, scope or per-partner
 * limit (there is no partner). The handler verifies the signature before it reads anything.
 */
export function signedEventHandler<D extends HttpDependencies>(
  name: SignedRouteName,
  getDependencies: () => Promise<D>,
  handle: (request: SignedRequest<D>) => Promise<HttpResponse>,
): HttpLambda {
  const route = signedRoute(name);
  const lambda = middy<HttpEvent, HttpResult, Error, ApiContext<D>>()
    .use([requestContext(getDependencies), requestLog(route.endpoint), errorResponder(route.errors)])
    .handler(async (event, context) =>
      handle({
        rawBody: Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8'),
        signature: header(event, 'stripe-signature'),
        requestId: filledIn(context.requestId, 'requestId'),
        deps: filledIn(context.deps, 'deps'),
      }),
    );
  return inRequestScope(lambda);
}
