import { webhookSlowDispatchFromEnvironment } from '../composition/webhook-slow-dispatch-dependencies';
import { createWebhookDispatchHandler } from './webhook-dispatch';

/** webhook-slow-deliveries → the attempts the fast path handed over, each with the full 30 s (docs/webhooks.md, "Fast and slow paths"). */
export const handler = createWebhookDispatchHandler(webhookSlowDispatchFromEnvironment);
