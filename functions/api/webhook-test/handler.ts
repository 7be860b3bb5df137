import { type WebhookTestDependencies, webhookTestFromEnvironment } from '../../composition/webhook-test';
import { parseWebhookTestRequest } from '../../webhooks/webhook-test-request';
import { apiHandler } from '../pipeline/api-handler';
import { WEBHOOK_TEST_ENDPOINT } from '../pipeline/endpoints';
import { json } from '../pipeline/responses';
import { routedHandler } from '../pipeline/routed-handler';
import { sandboxOnlyRoute } from '../pipeline/sandbox-only-route';
import { toWebhookTestResponse } from './response';

type GetDependencies = () => Promise<WebhookTestDependencies>;

/** `POST /v1/webhooks/test` (sandbox only): a sample event of one kind through the real webhook pipeline. */
export const createWebhookTestHandler = (getDependencies: GetDependencies) =>
  routedHandler({
    'POST /v1/webhooks/test': sandboxOnlyRoute(
      getDependencies,
      apiHandler(WEBHOOK_TEST_ENDPOINT, getDependencies, async ({ body, caller, deps }) => {
        const { deliveryId } = await deps.webhookTestEvents.send(caller.partnerId, parseWebhookTestRequest(body));
        return json(202, toWebhookTestResponse(deliveryId));
      }),
    ),
  });

export const handler = createWebhookTestHandler(webhookTestFromEnvironment);
