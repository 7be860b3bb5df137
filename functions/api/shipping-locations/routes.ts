import type { SetupDependencies } from '../../composition/setup-dependencies';
import {
  ShippingLocationCreateRequest,
  ShippingLocationUpdateRequest,
} from '../../domain/organizations/change-requests';
import { idempotentApiHandler } from '../pipeline/api-handler';
import { parseBody } from '../pipeline/parse-body';
import { json } from '../../http/responses';
import { toShippingLocationResponse } from './response';

type GetDependencies = () => Promise<SetupDependencies>;

/** POST .../shipping-locations and PATCH .../shipping-locations/{internalShippingLocationId}, served by the setup function. */
export const shippingLocationRoutes = (getDependencies: GetDependencies) => ({
  'shipping-location-create': idempotentApiHandler(
    'shipping-location-create',
    getDependencies,
    async ({ event, body, caller, deps }) => {
      const input = parseBody(ShippingLocationCreateRequest, body);
      const location = await deps.partnerShippingLocations.create(
        caller.partnerId,
        event.pathParameters?.internalOrgId ?? '',
        input,
      );
      return json(201, toShippingLocationResponse(location));
    },
  ),

  'shipping-location-update': idempotentApiHandler(
    'shipping-location-update',
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
