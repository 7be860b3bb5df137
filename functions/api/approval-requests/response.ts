/**
 * An approval request as the partner API answers it (docs/orders-api.md, "Approval
 * requests"): snake_case, money and items as an order has them (a request is the order
 * it would place), and the decision's fields always present, `null` until it is decided,
 * so a reader tells "not yet" from "not this outcome" without knowing the statuses. The
 * webhooks' names where they overlap. Strict, so the document and the contract tests hold
 * real responses to it; the builders return its types.
 */
// zod/mini: the orders Lambda builds these schemas at cold start.
import * as z from 'zod/mini';
import type { ApprovalPage } from '../../domain/approvals/approval-repository';
import { APPROVAL_STATUSES, type ApprovalRequest } from '../../domain/approvals/approval-request';
import { fromCents } from '../../domain/money';
import { LIMIT_REASONS } from '../../domain/spending/monthly-spend';
import {
  Dollars,
  OrderItemBody,
  ShippingAddressBody,
  toOrderItemBody,
  toShippingAddressBody,
} from '../orders/order-response';

/** Who decided it: your id of the approver and its e-mail, as `approval.decided` names them. */
const DeciderBody = z.strictObject({ internal_user_id: z.string(), email: z.string() });

export const ApprovalRequestBody = z.strictObject({
  id: z.uuid(),
  object: z.literal('approval_request'),
  /** As of now: a `pending` request past `expires_at` is `expired`, whether or not the sweep has recorded it. */
  status: z.enum(APPROVAL_STATUSES),
  /** Your `internalOrgId` of the organization. */
  partner_org_id: z.string(),
  /** The requester: your `internalUserId` and the user's e-mail. */
  internal_user_id: z.string(),
  user_email: z.string(),
  po_number: z.nullable(z.string()),
  notes: z.nullable(z.string()),
  /** As priced at submission: approving orders exactly these, at these prices. */
  items: z.array(OrderItemBody),
  subtotal: Dollars,
  tax: Dollars,
  shipping: Dollars,
  total: Dollars,
  shipping_address: ShippingAddressBody,
  created_at: z.iso.datetime(),
  /** `created_at` + 7 days: undecided by then, the request expires. */
  expires_at: z.iso.datetime(),
  /** When it was approved, rejected, withdrawn or expired (an expiry at `expires_at`); null while pending. */
  decided_at: z.nullable(z.iso.datetime()),
  /** The approver, on approved and rejected requests; null otherwise. */
  decided_by: z.nullable(DeciderBody),
  /** Which limit sent it to approval: `order_limit` (its total) or `monthly_limit` (the month's orders with it). */
  limit_reason: z.enum(LIMIT_REASONS),
  /** The approver's reason, on rejected requests; null otherwise. */
  reason: z.nullable(z.string()),
  /** The approver's comment, on approved requests when one was given; null otherwise. */
  comment: z.nullable(z.string()),
  /** The order placed, on approved requests; null otherwise. */
  order_id: z.nullable(z.uuid()),
  /** The rejected or expired request this one resubmits (its requester's `Edit and resubmit` in the module); null otherwise. */
  resubmitted_from: z.nullable(z.uuid()),
});
export type ApprovalRequestBody = z.infer<typeof ApprovalRequestBody>;

/** One page, newest first; `has_more` asks for the next with `starting_after` = the last `id`. */
export const ApprovalRequestListBody = z.strictObject({ data: z.array(ApprovalRequestBody), has_more: z.boolean() });
export type ApprovalRequestListBody = z.infer<typeof ApprovalRequestListBody>;

/** What the sandbox routes answer: the request as it is after the change (or, from a sandbox order, as submitted). */
export const ApprovalRequestChangeBody = z.strictObject({
  success: z.literal(true),
  approval_request: ApprovalRequestBody,
});
export type ApprovalRequestChangeBody = z.infer<typeof ApprovalRequestChangeBody>;

export const toApprovalRequestResponse = (request: ApprovalRequest): ApprovalRequestBody => ({
  id: request.id,
  object: 'approval_request',
  status: request.status,
  partner_org_id: request.internalOrgId,
  internal_user_id: request.internalUserId,
  user_email: request.email,
  po_number: request.poNumber ?? null,
  notes: request.notes ?? null,
  items: request.items.map(toOrderItemBody),
  subtotal: fromCents(request.subtotalCents),
  tax: fromCents(request.taxCents),
  shipping: fromCents(request.shippingCents),
  total: fromCents(request.totalCents),
  shipping_address: toShippingAddressBody(request.shippingAddress),
  created_at: request.createdAt,
  expires_at: request.expiresAt,
  decided_at: request.decidedAt ?? null,
  decided_by: request.decidedBy
    ? { internal_user_id: request.decidedBy.internalUserId, email: request.decidedBy.email }
    : null,
  limit_reason: request.limitReason ?? 'order_limit',
  reason: request.reason ?? null,
  comment: request.comment ?? null,
  order_id: request.orderId ?? null,
  resubmitted_from: request.resubmittedFrom ?? null,
});

export const toApprovalRequestListResponse = (page: ApprovalPage): ApprovalRequestListBody => ({
  data: page.requests.map(toApprovalRequestResponse),
  has_more: page.nextCursor !== undefined,
});

export const toApprovalRequestChangeResponse = (request: ApprovalRequest): ApprovalRequestChangeBody => ({
  success: true,
  approval_request: toApprovalRequestResponse(request),
});
