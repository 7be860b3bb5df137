import type { WebhooksApiDependencies } from '../../composition/webhooks-api-dependencies';
import { apiHandler } from '../pipeline/api-handler';
import { json } from '../../http/responses';
import { parseDeliveryListQuery } from './delivery-list-query';
import { toDeliveryListResponse, toDeliveryResponse, toWebhookEndpointResponse } from './response';

type GetDependencies = () => Promise<WebhooksApiDependencies>;

/** API Gateway sets the path parameters of the matched route; their absence is a route defined wrongly. */
const deliveryIdOf = (pathParameters: Record<string, string | undefined> | undefined): string =>
  pathParameters?.delivery_id ?? '';

/** A partner's own webhooks (docs/webhooks.md, "Inspecting and retrying deliveries"): deliveries, a retry, the endpoint. */
export const webhookDeliveryRoutes = (getDependencies: GetDependencies) => ({
  'webhook-delivery-list': apiHandler('webhook-delivery-list', getDependencies, async ({ event, caller, deps }) => {
    const query = parseDeliveryListQuery(event.queryStringParameters);
    const page = await deps.partnerWebhooks.listDeliveries(
      caller.partnerId,
      {
        ...(query.status === undefined ? {} : { status: query.status }),
        ...(query.event === undefined ? {} : { event: query.event }),
        // Order ids are UUIDs, stored in lower case: any case names the same order.
        ...(query.order_id === undefined ? {} : { orderId: query.order_id.toLowerCase() }),
        ...(query.since === undefined ? {} : { since: new Date(query.since).toISOString() }),
      },
      {
        ...(query.limit === undefined ? {} : { limit: query.limit }),
        ...(query.starting_after === undefined ? {} : { startingAfter: query.starting_after }),
      },
    );
    return json(200, toDeliveryListResponse(page));
  }),

  'webhook-delivery-get': apiHandler('webhook-delivery-get', getDependencies, async ({ event, caller, deps }) => {
    const delivery = await deps.partnerWebhooks.getDelivery(caller.partnerId, deliveryIdOf(event.pathParameters));
    return json(200, toDeliveryResponse(delivery));
  }),

  'webhook-delivery-retry': apiHandler('webhook-delivery-retry', getDependencies, async ({ event, caller, deps }) => {
    const delivery = await deps.partnerWebhooks.retry(caller.partnerId, deliveryIdOf(event.pathParameters));
    return json(202, toDeliveryResponse(delivery));
  }),

  'webhook-endpoint-get': apiHandler('webhook-endpoint-get', getDependencies, async ({ caller, deps }) => {
    const endpoint = await deps.partnerWebhooks.endpoint(caller.partnerId);
    return json(200, toWebhookEndpointResponse(endpoint));
  }),
});
