/**
 * Every error body the partner API answers, as strict schemas: the document
 * (docs/openapi.json) is generated from them and the contract tests hold every real
 * error response to them, so a field added in `functions/error-outcomes/` without a line here
 * fails the suite. Nothing on a Lambda's path imports this file.
 */
import * as z from 'zod/mini';
import { APPROVAL_STATUSES } from '../../domain/approvals/approval-request';
import { OrderStatus } from '../../domain/orders/order';
import { serverErrorOutcome } from '../../error-outcomes';
import {
  type GeneralCode,
  type GeneralStatus,
  HANDSHAKE_TITLES,
  STATUS_TITLES,
} from '../../error-outcomes/outcome-kit';
import type { ApiRoute } from '../../routes';
import type { NamedSchema } from '../openapi/route-document';

/** One problem of an invalid request (`validation-issues.ts`); array indexes in `path` are strings. */
const ValidationIssueBody = z.strictObject({
  code: z.string().check(z.regex(/^[A-Z][A-Z0-9_]*$/)),
  message: z.string(),
  path: z.array(z.string()),
});

/**
 * The general error body with the codes a route answers at one status: the codes and the
 * title are the error table's (functions/error-outcomes/outcome-kit.ts), so a code the table
 * does not answer at that status does not compile.
 */
const generalError = <S extends GeneralStatus, const C extends readonly [GeneralCode<S>, ...GeneralCode<S>[]]>(
  status: S,
  codes: C,
) =>
  z.strictObject({
    error: z.literal(STATUS_TITLES[status]),
    message: z.string(),
    code: z.enum(codes),
    details: z.array(ValidationIssueBody),
  });

export const UnauthorizedBody = generalError(401, ['UNAUTHORIZED']);
export const ForbiddenBody = generalError(403, ['FORBIDDEN']);

export const RateLimitExceededBody = z.strictObject({
  error: z.literal(STATUS_TITLES[429]),
  message: z.string(),
  code: z.literal('RATE_LIMIT_EXCEEDED' satisfies GeneralCode<429>),
  details: z.array(ValidationIssueBody).check(z.maxLength(0)),
  /** Seconds until the window resets; the same value as the Retry-After header. */
  retry_after: z.int().check(z.minimum(1)),
});

export const SetupBadRequestBody = generalError(400, ['VALIDATION_ERROR', 'IDEMPOTENCY_KEY_REUSED']);

const UserAlreadyExistsBody = z.strictObject({
  error: z.literal(STATUS_TITLES[409]),
  message: z.string(),
  code: z.literal('USER_ALREADY_EXISTS' satisfies GeneralCode<409>),
  details: z.array(ValidationIssueBody),
  data: z.strictObject({ profileId: z.uuid(), email: z.string() }),
});
export const IdempotencyKeyInUseBody = generalError(409, ['IDEMPOTENCY_KEY_IN_USE']);
export const SetupConflictBody = z.union([UserAlreadyExistsBody, IdempotencyKeyInUseBody]);

/** The handshake's own errors are `{ error, details }` (contract: Handshake endpoint). */
const HandshakeInvalidBody = z.strictObject({
  error: z.literal(HANDSHAKE_TITLES.invalid),
  details: z.array(ValidationIssueBody).check(z.minLength(1)),
});
const ProfileNotLinkedBody = z.strictObject({
  error: z.literal(HANDSHAKE_TITLES.profileNotLinked),
  details: z.string(),
});
export const HandshakeBadRequestBody = z.union([HandshakeInvalidBody, ProfileNotLinkedBody]);
export const ProfileNotFoundBody = z.strictObject({
  error: z.literal(HANDSHAKE_TITLES.profileNotFound),
  details: z.string(),
});

/** The order API's errors (docs/orders-api.md) are all in the general shape; each route names the codes it can answer. */
export const ValidationErrorBody = generalError(400, ['VALIDATION_ERROR']);
export const SandboxOrderBadRequestBody = generalError(400, [
  'VALIDATION_ERROR',
  'PRODUCT_UNAVAILABLE',
  'SHIPPING_LOCATION_UNAVAILABLE',
  'PROFILE_NOT_LINKED',
]);
export const OrderNotFoundBody = generalError(404, ['ORDER_NOT_FOUND']);
export const OrganizationNotFoundBody = generalError(404, ['ORGANIZATION_NOT_FOUND']);
export const OrderingProfileNotFoundBody = generalError(404, ['PROFILE_NOT_FOUND']);

const InvalidOrderTransitionBody = z.strictObject({
  error: z.literal(STATUS_TITLES[409]),
  message: z.string(),
  code: z.literal('INVALID_ORDER_TRANSITION' satisfies GeneralCode<409>),
  details: z.array(ValidationIssueBody).check(z.length(1)),
  /** `status` equal to `requested_status` means an earlier try of this very change already happened. */
  data: z.strictObject({ order_id: z.string(), status: OrderStatus, requested_status: OrderStatus }),
});
const ConcurrentModificationBody = generalError(409, ['CONCURRENT_MODIFICATION']);
export const OrderTransitionConflictBody = z.union([InvalidOrderTransitionBody, ConcurrentModificationBody]);

/** POST /v1/webhooks/test. */
export const WebhookTestBadRequestBody = generalError(400, ['VALIDATION_ERROR']);
export const WebhookTestConflictBody = generalError(409, [
  'WEBHOOK_ENDPOINT_NOT_CONFIGURED',
  'WEBHOOK_EVENT_NOT_SUBSCRIBED',
]);

// ---- The partner's users and shipping locations after setup (docs/setup.md).
export const StripeUnavailableBody = generalError(503, ['STRIPE_UNAVAILABLE']);
export const OrganizationChangeBadRequestBody = generalError(400, ['VALIDATION_ERROR', 'IDEMPOTENCY_KEY_REUSED']);
export const OrganizationUserNotFoundBody = generalError(404, ['ORGANIZATION_NOT_FOUND', 'PROFILE_NOT_FOUND']);
export const ShippingLocationNotFoundBody = generalError(404, [
  'ORGANIZATION_NOT_FOUND',
  'SHIPPING_LOCATION_NOT_FOUND',
]);
export const ShippingLocationCreateConflictBody = generalError(409, [
  'SHIPPING_LOCATION_ALREADY_EXISTS',
  'IDEMPOTENCY_KEY_IN_USE',
]);
export const ShippingLocationUpdateConflictBody = generalError(409, [
  'DEFAULT_LOCATION_INACTIVE',
  'IDEMPOTENCY_KEY_IN_USE',
]);
// ---- end of the partner's users and shipping locations

/** The partner's deliveries and endpoint (GET/POST /v1/webhooks/deliveries…, GET /v1/webhooks/endpoint). */
export const DeliveryNotFoundBody = generalError(404, ['DELIVERY_NOT_FOUND']);
export const DeliveryRetryConflictBody = generalError(409, ['DELIVERY_IN_FLIGHT', 'WEBHOOK_ENDPOINT_NOT_CONFIGURED']);
export const WebhookEndpointNotFoundBody = generalError(404, ['WEBHOOK_ENDPOINT_NOT_CONFIGURED']);

/** Approval requests (docs/orders-api.md, "Approval requests"). */
export const ApprovalRequestNotFoundBody = generalError(404, ['APPROVAL_REQUEST_NOT_FOUND']);
export const SandboxDecisionBadRequestBody = generalError(400, [
  'VALIDATION_ERROR',
  'IDEMPOTENCY_KEY_REUSED',
  'PROFILE_NOT_LINKED',
]);
export const SandboxDecisionForbiddenBody = generalError(403, [
  'FORBIDDEN',
  'APPROVAL_FORBIDDEN',
  'SELF_APPROVAL_FORBIDDEN',
]);
export const SandboxDecisionNotFoundBody = generalError(404, ['APPROVAL_REQUEST_NOT_FOUND', 'PROFILE_NOT_FOUND']);
const ApprovalNotPendingBody = z.strictObject({
  error: z.literal(STATUS_TITLES[409]),
  message: z.string(),
  code: z.literal('APPROVAL_NOT_PENDING' satisfies GeneralCode<409>),
  details: z.array(ValidationIssueBody),
  /** What became of the request: a retried decision that already happened sees its own outcome here. */
  data: z.strictObject({
    approval_request_id: z.string(),
    status: z.enum(
      APPROVAL_STATUSES.filter((status) => status !== 'pending') as ['approved', 'rejected', 'expired', 'withdrawn'],
    ),
  }),
});
const ApprovalCannotBePlacedBody = z.strictObject({
  error: z.literal(STATUS_TITLES[409]),
  message: z.string(),
  code: z.literal('APPROVAL_CANNOT_BE_PLACED' satisfies GeneralCode<409>),
  details: z
    .array(z.extend(ValidationIssueBody, { code: z.enum(['SHIPPING_LOCATION_UNAVAILABLE', 'REQUESTER_INACTIVE']) }))
    .check(z.length(1)),
});
export const ApproveConflictBody = z.union([
  ApprovalNotPendingBody,
  ApprovalCannotBePlacedBody,
  IdempotencyKeyInUseBody,
  ConcurrentModificationBody,
]);
export const RejectConflictBody = z.union([
  ApprovalNotPendingBody,
  IdempotencyKeyInUseBody,
  ConcurrentModificationBody,
]);

/**
 * The route's 500 body, as its row's error shape says (functions/routes.ts): the same
 * schema object for every route with the same one, so the document defines each once.
 */
const SERVER_ERROR_BODIES = {
  INTERNAL_ERROR: { name: 'InternalError', schema: generalError(500, ['INTERNAL_ERROR']) },
  SETUP_ERROR: { name: 'SetupFailedError', schema: generalError(500, ['SETUP_ERROR']) },
} as const satisfies Record<GeneralCode<500>, NamedSchema>;
const handshakeFailedBodies = new Map<string, NamedSchema>();

export function serverErrorBody(route: Pick<ApiRoute, 'errors'>): NamedSchema {
  if (route.errors.shape === 'general') return SERVER_ERROR_BODIES[route.errors.serverError.code];
  const { error } = route.errors.serverError;
  const body = handshakeFailedBodies.get(error) ?? {
    name: 'HandshakeFailedError',
    schema: z.strictObject({ error: z.literal(error), details: z.string() }),
  };
  handshakeFailedBodies.set(error, body);
  return body;
}

/** What the route answers for a failure of ours (the error table's `serverErrorOutcome`). */
export const serverErrorExample = (route: Pick<ApiRoute, 'errors'>): Readonly<Record<string, unknown>> =>
  serverErrorOutcome(route.errors).body;

/** Invoices (docs/billing.md): another partner's invoice is no invoice. */
export const InvoiceNotFoundBody = generalError(404, ['INVOICE_NOT_FOUND']);

/** The sandbox's invoice actions (docs/billing.md, "Sandbox"). */
export const SandboxInvoiceBadRequestBody = generalError(400, ['VALIDATION_ERROR', 'IDEMPOTENCY_KEY_REUSED']);
export const SandboxInvoiceConflictBody = generalError(409, [
  'INVOICE_NOT_OPEN',
  'INVOICE_NOT_AT_STRIPE',
  'IDEMPOTENCY_KEY_IN_USE',
]);
export const SandboxInvoiceUnsupportedBody = generalError(501, ['NOT_SUPPORTED_BY_PROVIDER']);

/** Stripe's route (docs/billing.md, "How the service hears from Stripe"). */
export const StripeEventRefusedBody = generalError(400, ['VALIDATION_ERROR']);
export const InvoiceNotRecordedYetBody = generalError(503, ['INVOICE_NOT_RECORDED_YET']);

/** Stripe Tax did not answer: nothing is placed with a guessed tax (docs/billing.md, "Sales tax"). */
export const SalesTaxUnavailableBody = generalError(503, ['SALES_TAX_UNAVAILABLE']);
