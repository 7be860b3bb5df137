import * as z from 'zod/mini';

/** The six order event kinds of the contract (Events). */
export const ORDER_EVENT_KINDS = [
  'order.created',
  'order.confirmed',
  'order.shipped',
  'order.delivered',
  'order.cancelled',
  'order.refunded',
] as const;
export const OrderEventKind = z.enum(ORDER_EVENT_KINDS);
export type OrderEventKind = z.infer<typeof OrderEventKind>;

/**
 * The approval flow's kinds (docs/module.md, "Approvals"): delivered only to endpoints
 * that list them, so an endpoint set up before them (or without `--events`) keeps
 * receiving exactly the order kinds.
 */
const APPROVAL_EVENT_KINDS = ['approval.requested', 'approval.decided'] as const;
export const ApprovalEventKind = z.enum(APPROVAL_EVENT_KINDS);
export type ApprovalEventKind = z.infer<typeof ApprovalEventKind>;

/**
 * The billing kinds (docs/billing.md): an order's invoice issued, paid, overdue or
 * credited. Opt-in per endpoint like the approval kinds, for the same reason.
 */
const INVOICE_EVENT_KINDS = ['invoice.issued', 'invoice.paid', 'invoice.overdue', 'invoice.credited'] as const;
export const InvoiceEventKind = z.enum(INVOICE_EVENT_KINDS);
export type InvoiceEventKind = z.infer<typeof InvoiceEventKind>;

/** Every kind a partner's endpoint can subscribe to and the order-events queue carries. */
export const WEBHOOK_EVENT_KINDS = [...ORDER_EVENT_KINDS, ...APPROVAL_EVENT_KINDS, ...INVOICE_EVENT_KINDS] as const;
export const WebhookEventKind = z.enum(WEBHOOK_EVENT_KINDS);
export type WebhookEventKind = z.infer<typeof WebhookEventKind>;
