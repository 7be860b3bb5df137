import { type WebhookTestDependencies, webhookTestFromEnvironment } from '../composition/webhook-test-dependencies';
import { routedHandler } from '../api/pipeline/routed-handler';
import { webhookTestRoutes } from '../api/webhook-test/routes';

/** The test-event Lambda: `POST /v1/webhooks/test` (sandbox only), a sample event of one kind through the real webhook pipeline. */
export const createWebhookTestHandler = (getDependencies: () => Promise<WebhookTestDependencies>) =>
  routedHandler('webhookTest', webhookTestRoutes(getDependencies));

export const handler = createWebhookTestHandler(webhookTestFromEnvironment);
