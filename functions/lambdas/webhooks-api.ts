import { type WebhooksApiDependencies, webhooksApiFromEnvironment } from '../composition/webhooks-api-dependencies';
import { routedHandler } from '../api/pipeline/routed-handler';
import { webhookDeliveryRoutes } from '../api/webhook-deliveries/routes';

/** The webhooks API Lambda (docs/webhooks.md, "Inspecting and retrying deliveries"): deliveries, a retry, the endpoint. */
export const createWebhooksApiHandler = (getDependencies: () => Promise<WebhooksApiDependencies>) =>
  routedHandler('webhooksApi', webhookDeliveryRoutes(getDependencies));

export const handler = createWebhooksApiHandler(webhooksApiFromEnvironment);
