/** Setup, the handshake's profiles and the partner's changes after setup (docs/setup.md). */
import {
  DefaultLocationInactive,
  OrganizationNotFound,
  ProfileNotFound,
  ProfileNotLinked,
  ShippingLocationAlreadyExists,
  ShippingLocationNotFound,
  UserAlreadyExists,
} from '../domain/errors';
import { type Entry, entry, general, HANDSHAKE_TITLES } from './outcome-kit';

export const ORGANIZATION_OUTCOMES: readonly Entry[] = [
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
];
