import type { MiddlewareObj } from '@middy/core';
import { ValidationFailed } from '../../domain/errors';
import { type HttpEvent, type HttpResult, header } from '../../http/http-context';
import type { ApiContext } from './api-context';
import type { ApiRoute } from '../../routes';

/** Request bodies above this are refused before parsing (docs/architecture.md, "Size limits"). */
export const MAX_BODY_BYTES = 64 * 1024;

const invalid = (code: string, message: string) => new ValidationFailed([{ code, message, path: [] }], message);

/**
 * Our bodies nest 3 levels (setup: shippingLocations[].address); anything far deeper is
 * hostile, and every recursive walk of it (canonical JSON for Idempotency-Key, zod, the
 * DynamoDB marshaller) could run out of stack and answer 500.
 */
export const MAX_JSON_DEPTH = 32;

/** The deepest nesting of `{`/`[` outside strings, in one pass without recursion (before JSON.parse builds anything). */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

/**
 * The first key an object of the (already valid) JSON text names twice. JSON.parse keeps
 * the last; a proxy or audit log may read the first, so such a body is refused. One pass
 * with a set of keys per open object; a key is compared as JSON.parse reads it (escapes decoded).
 */
function repeatedKey(text: string): string | undefined {
  const open: (Set<string> | undefined)[] = []; // undefined for an array
  let atKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const keys = open.at(-1);
      if (atKey && keys) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (keys.has(key)) return key;
        keys.add(key);
      }
      atKey = false;
      i = end;
    } else if (c === '{') {
      open.push(new Set());
      atKey = true;
    } else if (c === '[') open.push(undefined);
    else if (c === '}' || c === ']') open.pop();
    else if (c === ',') atKey = open.at(-1) !== undefined;
  }
  return undefined;
}

/**
 * Strict UTF-8 (RFC 8259 requires it): a byte sequence that is not UTF-8 is refused, not
 * carried on as U+FFFD into names and addresses. A BOM is kept, so it stays malformed JSON.
 */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The body's text; INVALID_UTF8 when its bytes (or, already a string, its code units) are not well-formed Unicode. */
function utf8Text(body: Buffer | string): string {
  if (typeof body === 'string') {
    // With the u flag a surrogate pair is one code point: only a lone surrogate is \p{Cs}.
    if (/\p{Cs}/u.test(body)) throw invalid('INVALID_UTF8', 'The request body is not valid UTF-8');
    return body;
  }
  try {
    return STRICT_UTF8.decode(body);
  } catch {
    throw invalid('INVALID_UTF8', 'The request body is not valid UTF-8');
  }
}

/**
 * Parses the body as a JSON object, refusing anything else with a 400 in the endpoint's
 * shape. GET routes never read one (`ignored`: whatever was sent is not looked at); an
 * `optional` body may be empty, which reads as `{}`.
 */
export const jsonBody = <D>(mode: ApiRoute['body']): MiddlewareObj<HttpEvent, HttpResult, Error, ApiContext<D>> => ({
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
    const text = utf8Text(event.isBase64Encoded ? raw : (event.body ?? ''));
    if (nestingDepth(text) > MAX_JSON_DEPTH) {
      throw invalid(
        'NESTING_TOO_DEEP',
        `The request body must not nest objects and arrays more than ${MAX_JSON_DEPTH} levels deep`,
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw invalid('MALFORMED_JSON', 'The request body is not valid JSON');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw invalid('INVALID_BODY', 'The request body must be a JSON object');
    }
    const repeated = repeatedKey(text);
    if (repeated !== undefined) {
      throw invalid('DUPLICATE_KEY', `The request body names the key "${repeated}" more than once in one object`);
    }
    request.context.body = parsed as Record<string, unknown>;
  },
});
