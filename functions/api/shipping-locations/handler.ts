import type { SetupDependencies } from '../../composition/setup';
import { ShippingLocationCreateRequest, ShippingLocationUpdateRequest } from '../../domain/organizations/change-requests';
import type { HttpLambda } from '../pipeline/api-context';
import { idempotentApiHandler } from '../pipeline/api-handler';
import { SHIPPING_LOCATION_CREATE_ENDPOINT, SHIPPING_LOCATION_UPDATE_ENDPOINT } from '../pipeline/endpoints';
import { parseBody } from '../pipeline/parse-body';
import { json } from '../pipeline/responses';
import { toShippingLocationResponse } from './response';

type GetDependencies = () => Promise<SetupDependencies>;

/** POST .../shipping-locations and PATCH .../shipping-locations/{internalShippingLocationId}, served by the setup function. */
export const shippingLocationRoutes = (getDependencies: GetDependencies): Record<string, HttpLambda> => ({
  'POST /v1/organizations/{internalOrgId}/shipping-locations': idempotentApiHandler(
    SHIPPING_LOCATION_CREATE_ENDPOINT,
    getDependencies,
    async ({ event, body, caller, deps }) => {
      const input = parseBody(ShippingLocationCreateRequest, body);
      const location = await deps.partnerShippingLocations.create(caller.partnerId, event.pathParameters?.internalOrgId ?? '', input);
      return json(201, toShippingLocationResponse(location));
    },
  ),

  'PATCH /v1/organizations/{internalOrgId}/shipping-locations/{internalShippingLocationId}': idempotentApiHandler(
    SHIPPING_LOCATION_UPDATE_ENDPOINT,
    getDependencies,
    async ({ event, body, caller, deps }) => {
      const update = parseBody(ShippingLocationUpdateRequest, body);
      const location = await deps.partnerShippingLocations.update(
        caller.partnerId,
        event.pathParameters?.internalOrgId ?? '',
        event.pathParameters?.internalShippingLocationId ?? '',
        update,
      );
      return json(200, toShippingLocationResponse(location));
    },
  ),
});
