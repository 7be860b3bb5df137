import { type WebhookTestDependencies, webhookTestFromEnvironment } from '../composition/webhook-test';
import { parseWebhookTestRequest } from '../domain/webhooks/webhook-test-request';
import { apiHandler } from '../http/api-handler';
import { WEBHOOK_TEST_ENDPOINT } from '../http/endpoints';
import { json } from '../http/responses';
import { routedHandler } from '../http/routed-handler';
import { sandboxOnlyRoute } from '../http/sandbox-only-route';
import { toWebhookTestResponse } from '../http/webhook-test-response';

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
