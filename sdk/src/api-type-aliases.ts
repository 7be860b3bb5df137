/**
 * Names for parts of the generated body types (api-types.ts) that a partner handles on
 * their own, e.g. one product of the catalog or one line of an order. Derived, never
 * written out, so they follow docs/openapi.json.
 */
import type {
  ApprovalDecidedEvent,
  ApprovalRequest,
  CatalogProductList,
  Invoice,
  Order,
  WebhookDelivery,
  WebhookDeliveryList,
} from './api-types.js';

export type CatalogProduct = CatalogProductList['data'][number];
export type OrderStatus = Order['status'];
export type OrderItem = Order['items'][number];
export type WebhookDeliverySummary = WebhookDeliveryList['data'][number];
export type WebhookDeliveryAttempt = WebhookDelivery['attempts'][number];
export type WebhookDeliveryStatus = WebhookDelivery['status'];
export type ApprovalRequestStatus = ApprovalRequest['status'];
export type ApprovalDecision = ApprovalDecidedEvent['data']['decision'];
export type InvoiceStatus = Invoice['status'];
