/**
 * The body of POST /v1/organizations/{internalOrgId}/shipping-locations (201) and PATCH
 * .../shipping-locations/{internalShippingLocationId} (200): the location as setup lists
 * it (input-only fields, `contact` and `deliveryInstructions`, are stored but not echoed).
 */
// zod/mini: the setup Lambda serves these routes and builds this schema at cold start.
import * as z from 'zod/mini';
import type { ShippingLocation } from '../../domain/organizations/organization';
import { ShippingLocationBody, toShippingLocationBody } from '../setup/response';

export const ShippingLocationResponseBody = z.strictObject({
  success: z.literal(true),
  data: z.strictObject({ shippingLocation: ShippingLocationBody }),
});
export type ShippingLocationResponseBody = z.infer<typeof ShippingLocationResponseBody>;

export const toShippingLocationResponse = (location: ShippingLocation): ShippingLocationResponseBody => ({
  success: true,
  data: { shippingLocation: toShippingLocationBody(location) },
});
