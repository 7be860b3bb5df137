import { type WebhookTestDependencies, webhookTestFromEnvironment } from '../../composition/webhook-test';
import { parseWebhookTestRequest } from '../../webhooks/webhook-test-request';
import { apiHandler } from '../pipeline/api-handler';
import { json } from '../../http/responses';
import { routedHandler } from '../pipeline/routed-handler';
import { toWebhookTestResponse } from './response';

/** `POST /v1/webhooks/test` (sandbox only): a sample event of one kind through the real webhook pipeline. */
export const createWebhookTestHandler = (getDependencies: () => Promise<WebhookTestDependencies>) =>
  routedHandler('webhookTest', {
    'POST /v1/webhooks/test': apiHandler('POST /v1/webhooks/test', getDependencies, async ({ body, caller, deps }) => {
      const { deliveryId } = await deps.webhookTestEvents.send(caller.partnerId, parseWebhookTestRequest(body));
      return json(202, toWebhookTestResponse(deliveryId));
    }),
  });

export const handler = createWebhookTestHandler(webhookTestFromEnvironment);
