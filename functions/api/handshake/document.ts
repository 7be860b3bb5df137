/**
 * POST /v1/partner/handshake in the partner API document: the request schema the
 * handler parses with (`HandshakeRequest`), the response it answers with
 * (`HandshakeResponseBody`) and the error bodies `functions/error-outcomes/` makes for it.
 */
import { HandshakeRequest } from '../../domain/sessions/handshake-request';
import { apiRoute } from '../../routes';
import { HandshakeBadRequestBody, ProfileNotFoundBody } from '../pipeline/error-bodies';
import { HandshakeResponseBody } from './response';
import type { RouteDocument } from '../openapi/route-document';
import {
  AUTHENTICATED_HEADERS,
  forbiddenResponse,
  rateLimitedResponse,
  unauthorizedResponse,
  serverErrorResponse,
} from '../openapi/standard-responses';

const HANDSHAKE_ROUTE_ROW = apiRoute('handshake');

const SESSION_KEY = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';
const PARTNER_ID = 'edeba35a-c0e1-4d5e-934f-5bc73ad2c424';

export const HANDSHAKE_ROUTE: RouteDocument = {
  operationId: 'handshake',
  tag: 'Embedding',
  summary: 'Open an embedded session for a user',
  description: [
    'Returns a fresh single-use session token (64 hex characters, valid 5 minutes) and the complete `iframe_embed_url` that signs the user in once. Call it from your backend each time a user opens the module; never cache or reuse a token.',
    '',
    'Send exactly one of `internal_user_id` (recommended) and `profile_id`; `internal_org_id` is needed only when the same `internal_user_id` exists in several of your organizations (it also narrows a `profile_id`). Unknown fields are ignored.',
  ].join('\n'),
  requestBody: {
    name: 'HandshakeRequest',
    schema: HandshakeRequest,
    example: { internal_user_id: 'u-1', internal_org_id: 'acme-1' },
  },
  responses: {
    200: {
      description:
        'A new session token and the iframe URL (`{embed_host}/embedded/<partner_id>?session_key=<session_key>`).',
      body: { name: 'HandshakeResponse', schema: HandshakeResponseBody },
      examples: {
        session: {
          summary: 'A session for Ada',
          value: {
            success: true,
            session_key: SESSION_KEY,
            iframe_embed_url: `https://embed.example-procurement.com/embedded/${PARTNER_ID}?session_key=${SESSION_KEY}`,
            expires_at: '2026-11-22T12:05:00.000Z',
            profile: {
              id: '52c48e1d-a6eb-4854-91e2-22d60c516cb6',
              first_name: 'Ada',
              last_name: 'Lovelace',
              email: 'ada@acme.test',
            },
          },
        },
      },
      headers: AUTHENTICATED_HEADERS,
    },
    400: {
      description:
        'The body is invalid (`Invalid request body`, `details` lists the problems: `IDENTIFIER_REQUIRED`, `CONFLICTING_FIELDS`, `INVALID_UUID`, `AMBIGUOUS_USER`, wrong types, and the body checks `UNSUPPORTED_CONTENT_TYPE`, `BODY_REQUIRED`, `MALFORMED_JSON`, `INVALID_UTF8` (not UTF-8), `INVALID_BODY`, `BODY_TOO_LARGE`, `NESTING_TOO_DEEP`), or the profile cannot sign in (`Profile not set up for authentication`: no identity user, or it is disabled; `details` is a sentence).',
      body: { name: 'HandshakeBadRequestError', schema: HandshakeBadRequestBody },
      examples: {
        invalidBody: {
          summary: 'Neither identifier',
          value: {
            error: 'Invalid request body',
            details: [
              {
                code: 'IDENTIFIER_REQUIRED',
                message: 'request body must contain internal_user_id or profile_id',
                path: [],
              },
            ],
          },
        },
        profileNotLinked: {
          summary: 'The profile cannot sign in',
          value: {
            error: 'Profile not set up for authentication',
            details: "The profile's identity-provider user is disabled",
          },
        },
      },
      headers: AUTHENTICATED_HEADERS,
    },
    401: unauthorizedResponse('X-API-Key: <API_KEY>'),
    403: forbiddenResponse(HANDSHAKE_ROUTE_ROW.scope, 'profile'),
    404: {
      description:
        'No such profile of yours (an `internal_user_id` is only looked up among your own; a `profile_id` outside the given `internal_org_id` is not found either).',
      body: { name: 'ProfileNotFoundError', schema: ProfileNotFoundBody },
      examples: {
        notFound: {
          summary: 'Unknown user',
          value: { error: 'Profile not found', details: 'No profile with internal_user_id u-9' },
        },
      },
      headers: AUTHENTICATED_HEADERS,
    },
    429: rateLimitedResponse(HANDSHAKE_ROUTE_ROW.limitPerMinute),
    500: serverErrorResponse(HANDSHAKE_ROUTE_ROW, 'The session could not be created; retry with exponential backoff.'),
  },
};
