export { PartnerClient, type PartnerClientOptions } from './partner-client.js';
export * from './errors.js';
export type * from './api-types.js';
export type * from './api-type-aliases.js';
export type { ChangeOptions, SetupOptions } from './resources/organizations.js';
export type { HandshakeInput } from './resources/sessions.js';
export type { OrderListParams } from './resources/orders.js';
export type { InvoiceListParams } from './resources/invoices.js';
export type { WebhookDeliveryListParams } from './resources/webhook-deliveries.js';
export type {
  SandboxOrderInput,
  SandboxOrderOutcome,
  ShipInput,
  DeliverInput,
  CancelInput,
  RefundInput,
} from './resources/sandbox-orders.js';
export type { ApprovalRequestListParams, ApproveInput, RejectInput } from './resources/approval-requests.js';
export { webhooks, verify as verifyWebhook, constructEvent } from './webhooks/webhooks.js';
export { verifyWebhookSignature } from './webhooks/verify-webhook-signature.js';
export { verifyStandardWebhook } from './webhooks/verify-standard-webhook.js';
