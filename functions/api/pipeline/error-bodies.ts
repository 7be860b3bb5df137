/**
 * Every error body the partner API answers, as strict schemas: the document
 * (docs/openapi.json) is generated from them and the contract tests hold every real
 * error response to them, so a field added in `functions/error-outcomes.ts` without a line here
 * fails the suite. Nothing on a Lambda's path imports this file.
 */
import * as z from 'zod/mini';
import { APPROVAL_STATUSES } from '../../domain/approvals/approval-request';
import { OrderStatus } from '../../domain/orders/order';

/** One problem of an invalid request (`validation-issues.ts`); array indexes in `path` are strings. */
const ValidationIssueBody = z.strictObject({
  code: z.string().check(z.regex(/^[A-Z][A-Z0-9_]*$/)),
  message: z.string(),
  path: z.array(z.string()),
});

/** The general error body: setup's errors and every authentication, permission and rate-limit failure. */
const generalError = <E extends string, C extends readonly [string, ...string[]]>(error: E, codes: C) =>
  z.strictObject({
    error: z.literal(error),
    message: z.string(),
    code: z.enum(codes),
    details: z.array(ValidationIssueBody),
  });

export const UnauthorizedBody = generalError('Unauthorized', ['UNAUTHORIZED']);
export const ForbiddenBody = generalError('Forbidden', ['FORBIDDEN']);

export const RateLimitExceededBody = z.strictObject({
  error: z.literal('Too Many Requests'),
  message: z.string(),
  code: z.literal('RATE_LIMIT_EXCEEDED'),
  details: z.array(ValidationIssueBody).check(z.maxLength(0)),
  /** Seconds until the window resets; the same value as the Retry-After header. */
  retry_after: z.int().check(z.minimum(1)),
});

export const SetupBadRequestBody = generalError('Validation Error', ['VALIDATION_ERROR', 'IDEMPOTENCY_KEY_REUSED']);

const UserAlreadyExistsBody = z.strictObject({
  error: z.literal('Conflict'),
  message: z.string(),
  code: z.literal('USER_ALREADY_EXISTS'),
  details: z.array(ValidationIssueBody),
  data: z.strictObject({ profileId: z.uuid(), email: z.string() }),
});
export const IdempotencyKeyInUseBody = generalError('Conflict', ['IDEMPOTENCY_KEY_IN_USE']);
export const SetupConflictBody = z.union([UserAlreadyExistsBody, IdempotencyKeyInUseBody]);

export const SetupFailedBody = generalError('Internal Server Error', ['SETUP_ERROR']);

/** The handshake's own errors are `{ error, details }` (contract: Handshake endpoint). */
const HandshakeInvalidBody = z.strictObject({
  error: z.literal('Invalid request body'),
  details: z.array(ValidationIssueBody).check(z.minLength(1)),
});
const ProfileNotLinkedBody = z.strictObject({
  error: z.literal('Profile not set up for authentication'),
  details: z.string(),
});
export const HandshakeBadRequestBody = z.union([HandshakeInvalidBody, ProfileNotLinkedBody]);
export const ProfileNotFoundBody = z.strictObject({ error: z.literal('Profile not found'), details: z.string() });
export const HandshakeFailedBody = z.strictObject({
  error: z.literal('Failed to create authentication session'),
  details: z.string(),
});

/** The order API's errors (docs/orders-api.md) are all in the general shape; each route names the codes it can answer. */
export const ValidationErrorBody = generalError('Validation Error', ['VALIDATION_ERROR']);
export const SandboxOrderBadRequestBody = generalError('Validation Error', [
  'VALIDATION_ERROR',
  'PRODUCT_UNAVAILABLE',
  'SHIPPING_LOCATION_UNAVAILABLE',
  'PROFILE_NOT_LINKED',
]);
export const OrderNotFoundBody = generalError('Not Found', ['ORDER_NOT_FOUND']);
export const OrganizationNotFoundBody = generalError('Not Found', ['ORGANIZATION_NOT_FOUND']);
export const OrderingProfileNotFoundBody = generalError('Not Found', ['PROFILE_NOT_FOUND']);

const InvalidOrderTransitionBody = z.strictObject({
  error: z.literal('Conflict'),
  message: z.string(),
  code: z.literal('INVALID_ORDER_TRANSITION'),
  details: z.array(ValidationIssueBody).check(z.length(1)),
  /** `status` equal to `requested_status` means an earlier try of this very change already happened. */
  data: z.strictObject({ order_id: z.string(), status: OrderStatus, requested_status: OrderStatus }),
});
const ConcurrentModificationBody = generalError('Conflict', ['CONCURRENT_MODIFICATION']);
export const OrderTransitionConflictBody = z.union([InvalidOrderTransitionBody, ConcurrentModificationBody]);

/** POST /v1/webhooks/test. */
export const WebhookTestBadRequestBody = generalError('Validation Error', ['VALIDATION_ERROR']);
export const WebhookTestConflictBody = generalError('Conflict', [
  'WEBHOOK_ENDPOINT_NOT_CONFIGURED',
  'WEBHOOK_EVENT_NOT_SUBSCRIBED',
]);
export const InternalErrorBody = generalError('Internal Server Error', ['INTERNAL_ERROR']);

// ---- The partner's users and shipping locations after setup (docs/setup.md).
export const OrganizationChangeBadRequestBody = generalError('Validation Error', [
  'VALIDATION_ERROR',
  'IDEMPOTENCY_KEY_REUSED',
]);
export const OrganizationUserNotFoundBody = generalError('Not Found', ['ORGANIZATION_NOT_FOUND', 'PROFILE_NOT_FOUND']);
export const ShippingLocationNotFoundBody = generalError('Not Found', [
  'ORGANIZATION_NOT_FOUND',
  'SHIPPING_LOCATION_NOT_FOUND',
]);
export const ShippingLocationCreateConflictBody = generalError('Conflict', [
  'SHIPPING_LOCATION_ALREADY_EXISTS',
  'IDEMPOTENCY_KEY_IN_USE',
]);
export const ShippingLocationUpdateConflictBody = generalError('Conflict', [
  'DEFAULT_LOCATION_INACTIVE',
  'IDEMPOTENCY_KEY_IN_USE',
]);
// ---- end of the partner's users and shipping locations

/** The partner's deliveries and endpoint (GET/POST /v1/webhooks/deliveries…, GET /v1/webhooks/endpoint). */
export const DeliveryNotFoundBody = generalError('Not Found', ['DELIVERY_NOT_FOUND']);
export const DeliveryRetryConflictBody = generalError('Conflict', [
  'DELIVERY_IN_FLIGHT',
  'WEBHOOK_ENDPOINT_NOT_CONFIGURED',
]);
export const WebhookEndpointNotFoundBody = generalError('Not Found', ['WEBHOOK_ENDPOINT_NOT_CONFIGURED']);

/** Approval requests (docs/orders-api.md, "Approval requests"). */
export const ApprovalRequestNotFoundBody = generalError('Not Found', ['APPROVAL_REQUEST_NOT_FOUND']);
export const SandboxDecisionBadRequestBody = generalError('Validation Error', [
  'VALIDATION_ERROR',
  'IDEMPOTENCY_KEY_REUSED',
  'PROFILE_NOT_LINKED',
]);
export const SandboxDecisionForbiddenBody = generalError('Forbidden', [
  'FORBIDDEN',
  'APPROVAL_FORBIDDEN',
  'SELF_APPROVAL_FORBIDDEN',
]);
export const SandboxDecisionNotFoundBody = generalError('Not Found', [
  'APPROVAL_REQUEST_NOT_FOUND',
  'PROFILE_NOT_FOUND',
]);
const ApprovalNotPendingBody = z.strictObject({
  error: z.literal('Conflict'),
  message: z.string(),
  code: z.literal('APPROVAL_NOT_PENDING'),
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
  error: z.literal('Conflict'),
  message: z.string(),
  code: z.literal('APPROVAL_CANNOT_BE_PLACED'),
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
