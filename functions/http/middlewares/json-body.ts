import type { MiddlewareObj } from '@middy/core';
import { ValidationFailed } from '../../domain/errors';
import { type ApiContext, type ApiEvent, type ApiResult, header } from '../api-context';
import { type ApiEndpoint, MAX_BODY_BYTES } from '../endpoints';

const invalid = (code: string, message: string) => new ValidationFailed([{ code, message, path: [] }], message);

/**
 * Parses the body as a JSON object, refusing anything else with a 400 in the endpoint's
 * shape. GET routes never read one (`ignored`: whatever was sent is not looked at); an
 * `optional` body may be empty, which reads as `{}`.
 */
export const jsonBody = <D>(mode: NonNullable<ApiEndpoint['body']> = 'required'): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext<D>> => ({
  before: (request) => {
    const { event } = request;
    if (mode === 'ignored') {
      request.context.body = {};
      return;
    }
    const contentType = header(event, 'content-type');
    if (contentType !== undefined && !/^application\/(.+\+)?json\s*(;|$)/i.test(contentType)) {
      throw invalid('UNSUPPORTED_CONTENT_TYPE', 'Content-Type must be application/json');
    }
    const raw = event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64') : Buffer.from(event.body ?? '', 'utf8');
    if (raw.byteLength > MAX_BODY_BYTES) {
      throw invalid('BODY_TOO_LARGE', `The request body must not exceed ${MAX_BODY_BYTES} bytes`);
    }
    if (raw.byteLength === 0) {
      if (mode === 'optional') {
        request.context.body = {};
        return;
      }
      throw invalid('BODY_REQUIRED', 'A JSON object body is required');
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch {
      throw invalid('MALFORMED_JSON', 'The request body is not valid JSON');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw invalid('INVALID_BODY', 'The request body must be a JSON object');
    }
    request.context.body = parsed as Record<string, unknown>;
  },
});
