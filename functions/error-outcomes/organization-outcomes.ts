/** Setup, the handshake's profiles and the partner's changes after setup (docs/setup.md). */
import {
  DefaultLocationInactive,
  OrganizationNotFound,
  PaymentCustomerNotUpdated,
  ProfileNotFound,
  ProfileNotLinked,
  ShippingLocationAlreadyExists,
  ShippingLocationNotFound,
  SpendingForbidden,
  UserAlreadyExists,
} from '../domain/errors';
import { type Entry, entry, general, HANDSHAKE_TITLES, toOrders } from './outcome-kit';

export const ORGANIZATION_OUTCOMES: readonly Entry[] = [
  // Only the module refuses it: the partner API's spend route is the partner's, by its key's scope.
  entry(SpendingForbidden, {
    module: (_, places) => ({
      status: 403,
      title: 'Only approvers see spending',
      message:
        "The Spending page shows what everyone in your organization spent, so it is for your organization's approvers.",
      links: [toOrders(places)],
    }),
  }),
  entry(ProfileNotLinked, {
    api: {
      general: general(400, 'PROFILE_NOT_LINKED'),
      handshake: (error) => ({
        status: 400,
        body: { error: HANDSHAKE_TITLES.profileNotLinked, details: error.message },
      }),
    },
  }),
  entry(ProfileNotFound, {
    api: {
      general: general(404, 'PROFILE_NOT_FOUND'),
      handshake: (error) => ({
        status: 404,
        body: { error: HANDSHAKE_TITLES.profileNotFound, details: error.message },
      }),
    },
  }),
  entry(UserAlreadyExists, {
    api: {
      general: general(409, 'USER_ALREADY_EXISTS', (error) => ({
        data: { profileId: error.profileId, email: error.email },
      })),
    },
  }),
  entry(OrganizationNotFound, {
    // The domain's message names the partner; the partner is told only its own identifier.
    api: {
      general: general(404, 'ORGANIZATION_NOT_FOUND', (error) => ({
        message: `No organization with internal_org_id "${error.internalOrgId}"`,
      })),
    },
  }),
  // The partner's shipping locations after setup (docs/setup.md).
  entry(ShippingLocationNotFound, { api: { general: general(404, 'SHIPPING_LOCATION_NOT_FOUND') } }),
  entry(DefaultLocationInactive, { api: { general: general(409, 'DEFAULT_LOCATION_INACTIVE') } }),
  entry(ShippingLocationAlreadyExists, {
    api: { general: general(409, 'SHIPPING_LOCATION_ALREADY_EXISTS') },
  }),
  // Stripe first, so its failure leaves everything as it was: a 503 the partner retries, never a 500 after a write.
  entry(PaymentCustomerNotUpdated, {
    api: {
      general: (error) => ({
        ...general(503, 'STRIPE_UNAVAILABLE')(error),
        headers: { 'Retry-After': '5' },
      }),
    },
  }),
];
