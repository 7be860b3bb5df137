/** `@partner-embed/sdk/webhooks`: verifying deliveries, without the API client. */
export { constructEvent, verify, webhooks, type WebhookHeaders } from './webhooks.js';
export { verifyWebhookSignature, type WebhookSecrets } from './verify-webhook-signature.js';
export {
  verifyStandardWebhook,
  type StandardWebhookHeaders,
  type StandardWebhookOptions,
} from './verify-standard-webhook.js';
export type {
  ApprovalEvent,
  ApprovalEventKind,
  OrderEvent,
  OrderEventKind,
  WebhookEvent,
  WebhookEventKind,
} from '../api-types.js';
