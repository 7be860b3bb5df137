/** The 202 of POST /v1/webhooks/test: the id the partner's receiver will get as `webhook-id` and `X-Service-Delivery-ID`. */
import * as z from 'zod/mini';
import type { DeliveryId } from '../../webhooks/delivery';

export const WebhookTestResponseBody = z.strictObject({ delivery_id: z.uuid() });
export type WebhookTestResponseBody = z.infer<typeof WebhookTestResponseBody>;

export const toWebhookTestResponse = (deliveryId: DeliveryId): WebhookTestResponseBody => ({ delivery_id: deliveryId });
