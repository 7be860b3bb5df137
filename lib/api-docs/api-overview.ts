/**
 * The document's `info.description`: what a partner needs before the routes (environments,
 * authentication, errors, limits, lifecycles, webhooks), written for partners. Numbers
 * come from the code that enforces them, so the tables cannot disagree with it.
 */
import { ORDER_TRANSITIONS } from '../../functions/domain/orders/order-lifecycle';
import { MAX_SHIPPING_LOCATIONS } from '../../functions/domain/organizations/setup-request';
import { MAX_LOCATIONS_PER_ORGANIZATION } from '../../functions/domain/organizations/organization-setup';
import { EMBEDDED_SESSION_IDLE_MS, EMBEDDED_SESSION_MAX_MS } from '../../functions/domain/sessions/embedded-sessions';
import { SESSION_TOKEN_LIFETIME_MS } from '../../functions/domain/sessions/session-token';
import { MAX_EMAIL_LENGTH, MAX_TEXT_LENGTH } from '../../functions/domain/validation-issues';
import { MAX_BODY_BYTES, MAX_JSON_DEPTH } from '../../functions/api/pipeline/json-body';
import { WEBHOOKS } from '../../functions/api/openapi/partner-api';
import { APPROVAL_TTL_MS } from '../../functions/domain/approvals/approval-request';
import type { DocumentedRoute } from '../../functions/api/openapi/route-document';
import { ENVIRONMENTS } from '../../functions/resources/stages';
import { INVALID_API_KEY_MESSAGE } from '../../functions/domain/errors';

const minutes = (ms: number) => `${ms / 60_000} minutes`;
const SECURITY_HEADER = {
  bearerApiKey: '`Authorization: Bearer <API_KEY>`',
  headerApiKey: '`X-API-Key: <API_KEY>`',
  stripeSignature: '`Stripe-Signature`',
} as const;

/** The routes a partner calls (a key, a scope, a budget): Stripe's own route is not one. */
const partnerRoutes = (routes: readonly DocumentedRoute[]) => routes.filter((route) => route.scope !== null);

const routeRows = (routes: readonly DocumentedRoute[]) =>
  partnerRoutes(routes)
    .map(
      (route) =>
        `| \`${route.method.toUpperCase()} ${route.path}\` | ${SECURITY_HEADER[route.security]} | \`${route.scope}\` | ${route.limitPerMinute} per minute${route.sandboxOnly ? ' (sandbox only)' : ''} |`,
    )
    .join('\n');

const orderStatusRows = Object.entries(ORDER_TRANSITIONS)
  .map(
    ([action, { from, to }]) =>
      `| ${from.map((status) => `\`${status}\``).join(' or ')} | ${action} | \`${to}\` | \`order.${to}\` |`,
  )
  .join('\n');

const eventRows = WEBHOOKS.map(
  (webhook) =>
    `| \`${webhook.kind}\` | ${webhook.summary}${webhook.kind.startsWith('order.') ? '' : ' (only to endpoints subscribed to it)'} |`,
).join('\n');

/** Built from the document's routes, so its tables of scopes and limits list exactly the routes it describes. */
export const apiOverview = (
  routes: readonly DocumentedRoute[],
): string => `The HTTPS JSON API a software vendor (a partner) uses to embed our procurement module in its own product: provision customer businesses (organizations), their users (profiles) and shipping locations; open a single-use session that signs a user into the embedded module; read the catalog and your organizations' orders and approval requests (and, on sandbox, place and advance orders and decide approval requests so your CI sees every webhook); receive signed order, approval and invoice webhooks, and inspect and retry their deliveries.

All paths start with \`/v1\` and are appended to the environment's address (without \`/v1\`). Requests and responses are JSON: send \`Content-Type: application/json\` with a JSON object body. Every response carries \`Request-Id\`; quote it when asking us about a request. The API sends no CORS headers: keys belong on servers, never in browsers.

## Environments

| Environment | Address | Key prefix |
|---|---|---|
| Production | \`{base_url}/v1\` (\`https://${ENVIRONMENTS.production.apiDomainName}\`) | \`${ENVIRONMENTS.production.apiKeyPrefix}\` |
| Sandbox | \`{sandbox_base_url}/v1\` (\`https://${ENVIRONMENTS.sandbox.apiDomainName}\`) | \`${ENVIRONMENTS.sandbox.apiKeyPrefix}\` |
| Local sandbox (\`npm start\`) | \`http://localhost:3000/v1\` | \`${ENVIRONMENTS.sandbox.apiKeyPrefix}\` |

The two environments share nothing: a production key is refused (401) by the sandbox and the other way round, and sandbox data never reaches production.

## Authentication

The operator issues your partner id and API keys (there is no API for them). Keys do not expire; a rotated or revoked key is refused at once. New keys have every scope; a key keeps exactly the scopes it was issued with, so keys issued before a scope existed (e.g. \`webhooks:read\`, \`webhooks:write\`) get 403 on its routes until you get a new key. Each route reads the key from one header; the key in the other header, both headers, or one header twice is a 401.

| Route | Key header | Scope | Rate limit (per partner) |
|---|---|---|---|
${routeRows(routes)}

| | API key | Session token |
|---|---|---|
| Used for | server-to-server API calls | signing one user into the embedded module |
| Lifetime | until rotated or revoked | ${minutes(SESSION_TOKEN_LIFETIME_MS)} |
| Usage | unlimited, within the rate limits | once |
| Obtained from | the service operator | \`POST /v1/partner/handshake\` |

## Errors

| Status | Meaning |
|---|---|
| 200 | Success (201 for a sandbox order created; 202 for a sandbox order above the user's order limit, submitted for approval instead) |
| 400 | The request is invalid; \`details\` lists every problem |
| 401 | No usable API key. A missing, malformed, unknown, revoked or other-environment key always answers \`message\` \`${INVALID_API_KEY_MESSAGE}\` (which of these it was is never told); a key in the wrong header, in both headers or in one header twice answers a message that says what to send instead |
| 403 | The key lacks the route's scope, or the resource is another partner's |
| 404 | No such resource of yours (locally, also a path nothing serves: \`code\` \`NOT_FOUND\`; deployed, API Gateway answers an unknown path with \`{"message":"Not Found"}\`) |
| 409 | Conflict with the current state (a user that exists, an \`Idempotency-Key\` in flight, an order change its status does not allow, an approval request decided before) |
| 429 | Over the route's rate limit: wait \`retry_after\` seconds (also \`Retry-After\`) |
| 500 | Our failure: retry with exponential backoff; nothing was half-written |

The general error body (setup, the order routes, and every authentication, permission and rate-limit failure on every route) always has the same four fields (an order change its status does not allow, and a decision of an approval request no longer pending, add \`data\`):

| Field | Type | Notes |
|---|---|---|
| \`error\` | string | Error type, e.g. \`Validation Error\` |
| \`message\` | string | For people |
| \`code\` | string | For programs: \`VALIDATION_ERROR\`, \`UNAUTHORIZED\`, \`FORBIDDEN\`, \`USER_ALREADY_EXISTS\`, \`RATE_LIMIT_EXCEEDED\`, … |
| \`details\` | array | \`[]\` when there is nothing to list; else each problem's \`code\`, \`message\` and \`path\` (array of strings, indexes as strings) |

The handshake's own errors (400, 404, 500) are \`{ error, details }\`, with \`details\` a list of problems for an invalid body and a sentence otherwise. Each route below lists every status it answers with, its exact body and an example.

Problem codes in \`details\` are stable, so you may branch on them: \`REQUIRED\`, \`INVALID_TYPE\`, \`INVALID_EMAIL\`, \`INVALID_UUID\`, \`INVALID_FORMAT\`, \`TOO_LONG\`, \`TOO_MANY_ITEMS\`, \`INVALID_TEXT\`, \`CONTROL_CHARACTER\`, \`INVALID_US_STATE\`, \`INVALID_POSTAL_CODE\`, \`UNSUPPORTED_COUNTRY\`, \`MULTIPLE_DEFAULT_LOCATIONS\`, \`DUPLICATE_ID\`, \`IDENTIFIER_REQUIRED\`, \`CONFLICTING_FIELDS\`, \`AMBIGUOUS_USER\`, \`INVALID_VALUE\`, and for the body itself \`UNSUPPORTED_CONTENT_TYPE\`, \`BODY_REQUIRED\`, \`MALFORMED_JSON\`, \`INVALID_UTF8\`, \`INVALID_BODY\`, \`BODY_TOO_LARGE\`, \`NESTING_TOO_DEEP\`.

## Limits

| Limit | Value |
|---|---|
${partnerRoutes(routes)
  .map(
    (route) =>
      `| Rate, \`${route.method.toUpperCase()} ${route.path}\` | ${route.limitPerMinute} requests per minute per partner account (all keys together) |`,
  )
  .join('\n')}
| Request body | ${MAX_BODY_BYTES / 1024} KiB, nested at most ${MAX_JSON_DEPTH} levels |
| Text fields | ${MAX_TEXT_LENGTH} characters (emails ${MAX_EMAIL_LENGTH}); no control or bidi-override characters |
| Shipping locations | ${MAX_SHIPPING_LOCATIONS} per setup request, ${MAX_LOCATIONS_PER_ORGANIZATION} per organization |
| Supported country | United States only (50 states and DC) |
| \`Idempotency-Key\` | 1-255 printable ASCII characters, remembered 24 hours |
| Session token | 64 hexadecimal characters, ${minutes(SESSION_TOKEN_LIFETIME_MS)}, single-use |
| Embedded session | ${minutes(EMBEDDED_SESSION_IDLE_MS)} without a request, ${EMBEDDED_SESSION_MAX_MS / 3_600_000} hours at most |
| Webhook receiver response time | 30 seconds |
| Webhook retries | 6, at 1 min, 5 min, 15 min, 1 h, 6 h and 24 h |

## Lifecycles

Session token (from the handshake):

| State | Moved by | Condition | Next state |
|---|---|---|---|
| (none) | handshake | the profile is yours and can sign in | issued: \`session_key\`, \`iframe_embed_url\`, \`expires_at\` returned |
| issued | first use of \`iframe_embed_url\` | before \`expires_at\` | used: a second use shows the "link expired or already used" page |
| issued | time | ${minutes(SESSION_TOKEN_LIFETIME_MS)} after the handshake | expired |

Every handshake makes a fresh token: never cache or reuse one.

Order status (each change sends one webhook):

| From | Action | To | Webhook |
|---|---|---|---|
| (new) | placed | \`pending\` | \`order.created\` |
${orderStatusRows}

Any other change is refused. Organizations are created once per \`internalOrgId\`; a later setup with the same \`internalOrgId\` adds a user to it.

Approval request status (a cart above its user's \`orderLimit\`, submitted instead of ordered; each request has exactly one outcome, whichever comes first):

| From | Moved by | To | Webhook |
|---|---|---|---|
| (new) | the user submits it (module checkout), or a sandbox order above the limit | \`pending\` | \`approval.requested\` |
| \`pending\` | an approver of the organization, not the requester, approves it | \`approved\`: the order is placed as submitted | \`approval.decided\`, then \`order.created\` with \`approved_by\` |
| \`pending\` | an approver rejects it with a reason | \`rejected\` | \`approval.decided\` |
| \`pending\` | the requester withdraws it (module) | \`withdrawn\` | \`approval.decided\` |
| \`pending\` | no decision within ${APPROVAL_TTL_MS / 86_400_000} days | \`expired\` | \`approval.decided\` |

## Webhooks

Configured by the operator (your HTTPS URL, the event kinds you want, optionally your own signing secret); no API changes it. An endpoint gets the order kinds unless its kinds are listed; the approval and invoice kinds only when listed. \`GET /v1/webhooks/endpoint\` shows it (never the secret), \`GET /v1/webhooks/deliveries[/{delivery_id}]\` lists your deliveries with every attempt and the exact body, and \`POST /v1/webhooks/deliveries/{delivery_id}/retry\` sends one again now.

| Event | Sent when |
|---|---|
${eventRows}

Each delivery is a \`POST\` of \`{ event, timestamp, data }\` signed with \`X-Service-Signature\` (see the \`webhooks\` section for every kind's exact body and headers). Answer 2xx within 30 seconds; anything else is retried:

| Attempt | When |
|---|---|
| 1 | at once |
| 2 | 1 minute after attempt 1 failed |
| 3 | 5 minutes after attempt 2 |
| 4 | 15 minutes after attempt 3 |
| 5 | 1 hour after attempt 4 |
| 6 | 6 hours after attempt 5 |
| 7 | 24 hours after attempt 6; if it fails too, the delivery is marked failed and your alert address gets one e-mail |

Delivery is at least once: de-duplicate by \`X-Service-Delivery-ID\`, and do not rely on the order of deliveries.

## Versioning

Every route lives under \`/v1\`, in production and sandbox alike.`;
