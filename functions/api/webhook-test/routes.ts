import type { WebhookTestDependencies } from '../../composition/webhook-test-dependencies';
import { parseWebhookTestRequest } from '../../webhooks/webhook-test-request';
import { apiHandler } from '../pipeline/api-handler';
import { json } from '../../http/responses';
import { toWebhookTestResponse } from './response';

/** `POST /v1/webhooks/test` (sandbox only): a sample event of one kind through the real webhook pipeline. */
export const webhookTestRoutes = (getDependencies: () => Promise<WebhookTestDependencies>) => ({
  'webhook-test': apiHandler('webhook-test', getDependencies, async ({ body, caller, deps }) => {
    const { deliveryId } = await deps.webhookTestEvents.send(caller.partnerId, parseWebhookTestRequest(body));
    return json(202, toWebhookTestResponse(deliveryId));
  }),
});
