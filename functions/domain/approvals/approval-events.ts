import { createHash } from 'node:crypto';
import { fromCents } from '../money';
import type { ApprovalEventKind } from '../events/order-event-kinds';
import type { OrderEventMessage } from '../events/order-event-message';
// Types only: the classic zod schemas stay out of the embed Lambda's bundle. The tests
// parse every event produced here with them.
import type { ApprovalEventData } from '../events/order-events';
import type { ApprovalRequest } from './approval-request';

/**
 * The id of a request's event of one kind: `evt_` + the first 40 hex digits of
 * SHA-256(`<requestId>:<kind>`), as order events are named. A request is requested once
 * and decided once, so a re-read or a retry gives the same id and the fan-out's
 * de-duplication makes it one delivery.
 */
export function approvalEventId(requestId: string, kind: ApprovalEventKind): string {
  return `evt_${createHash('sha256').update(`${requestId}:${kind}`).digest('hex').slice(0, 40)}`;
}

const items = (request: ApprovalRequest): ApprovalEventData<'approval.requested'>['items'] =>
  request.items.map((item) => ({
    product_id: item.productId,
    name: item.name,
    quantity: item.quantity,
    price: fromCents(item.unitPriceCents),
  }));

/** approval.requested, at the request's creation. */
export function approvalRequestedEvent(request: ApprovalRequest): OrderEventMessage {
  const data = {
    approval_request_id: request.id,
    partner_org_id: request.internalOrgId,
    internal_user_id: request.internalUserId,
    user_email: request.email,
    items: items(request),
    subtotal: fromCents(request.subtotalCents),
    tax: fromCents(request.taxCents),
    shipping: fromCents(request.shippingCents),
    total: fromCents(request.totalCents),
    po_number: request.poNumber ?? null,
    notes: request.notes ?? null,
    limit_reason: request.limitReason ?? 'order_limit',
    created_at: request.createdAt,
    expires_at: request.expiresAt,
  } satisfies ApprovalEventData<'approval.requested'>;
  return {
    eventId: approvalEventId(request.id, 'approval.requested'),
    partnerId: request.partnerId,
    event: 'approval.requested',
    timestamp: request.createdAt,
    data,
    organizationId: request.organizationId,
  };
}

/** approval.decided, for a request that has just reached its outcome. */
export function approvalDecidedEvent(request: ApprovalRequest): OrderEventMessage {
  if (request.status === 'pending' || request.decidedAt === undefined)
    throw new RangeError(`Approval request ${request.id} is not decided`);
  const data = {
    approval_request_id: request.id,
    partner_org_id: request.internalOrgId,
    decision: request.status,
    ...(request.decidedBy
      ? { decided_by: { internal_user_id: request.decidedBy.internalUserId, email: request.decidedBy.email } }
      : {}),
    ...(request.orderId === undefined ? {} : { order_id: request.orderId }),
    ...(request.reason === undefined ? {} : { reason: request.reason }),
    ...(request.comment === undefined ? {} : { comment: request.comment }),
    decided_at: request.decidedAt,
  } satisfies ApprovalEventData<'approval.decided'>;
  return {
    eventId: approvalEventId(request.id, 'approval.decided'),
    partnerId: request.partnerId,
    event: 'approval.decided',
    timestamp: request.decidedAt,
    data,
    ...(request.orderId === undefined ? {} : { orderId: request.orderId }),
    organizationId: request.organizationId,
  };
}
