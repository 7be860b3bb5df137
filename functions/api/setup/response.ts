/**
 * The 200 body of POST /v1/organizations/setup, exactly as the contract's tables have it.
 * Input-only fields (contact, deliveryInstructions, billingAddress, organizationEmail,
 * organizationPhone, userAddress) are stored but never echoed. The schema is strict so
 * tests can hold real responses to it; the type derives from it.
 */
// zod/mini: the setup Lambda builds this schema at cold start, and the classic API alone is ~440 KB bundled.
import * as z from 'zod/mini';
import type { Address } from '../../domain/addresses/address';
import { PAYMENT_TERMS } from '../../domain/billing/payment-terms';
import { paymentTermsOf, type Profile, type ShippingLocation } from '../../domain/organizations/organization';
import type { SetupResult } from '../../domain/organizations/organization-setup';

export const AddressBody = z.strictObject({
  line1: z.string(),
  line2: z.optional(z.string()),
  city: z.string(),
  province: z.string(),
  postalCode: z.string(),
  country: z.string(),
});

export const ShippingLocationBody = z.strictObject({
  id: z.uuid(),
  name: z.string(),
  nickname: z.optional(z.string()),
  internalShippingLocationId: z.string(),
  address: AddressBody,
  isDefault: z.boolean(),
  isActive: z.boolean(),
});

export const ProfileBody = z.strictObject({
  id: z.uuid(),
  partner: z.uuid(),
  organization: z.uuid(),
  internal_user_id: z.string(),
  user: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone_number: z.optional(z.string()),
  created_at: z.iso.datetime(),
});

export const SetupResponseBody = z.strictObject({
  success: z.literal(true),
  data: z.strictObject({
    organization: z.strictObject({
      id: z.uuid(),
      name: z.string(),
      internalOrgId: z.string(),
      paymentCustomerId: z.string(),
      paymentTerms: z.enum(PAYMENT_TERMS),
    }),
    profile: ProfileBody,
    shippingLocations: z.array(ShippingLocationBody),
    isNewOrganization: z.boolean(),
  }),
});
export type SetupResponseBody = z.infer<typeof SetupResponseBody>;

export function toSetupResponse(result: SetupResult): SetupResponseBody {
  const { organization } = result;
  return {
    success: true,
    data: {
      organization: {
        id: organization.id,
        name: organization.name,
        internalOrgId: organization.internalOrgId,
        paymentCustomerId: organization.paymentCustomerId,
        paymentTerms: paymentTermsOf(organization),
      },
      profile: toProfileBody(result.profile),
      shippingLocations: result.locations.map(toShippingLocationBody),
      isNewOrganization: result.isNewOrganization,
    },
  };
}

export function toProfileBody(profile: Profile): z.infer<typeof ProfileBody> {
  return {
    id: profile.id,
    partner: profile.partnerId,
    organization: profile.organizationId,
    internal_user_id: profile.internalUserId,
    // A profile setup answers for was created by this very request, so it is linked.
    user: profile.userId ?? '',
    first_name: profile.firstName,
    last_name: profile.lastName,
    email: profile.email,
    ...(profile.phoneNumber ? { phone_number: profile.phoneNumber } : {}),
    created_at: profile.createdAt,
  };
}

export function toShippingLocationBody(location: ShippingLocation): z.infer<typeof ShippingLocationBody> {
  return {
    id: location.id,
    name: location.name,
    ...(location.nickname ? { nickname: location.nickname } : {}),
    internalShippingLocationId: location.internalShippingLocationId,
    address: toAddressBody(location.address),
    isDefault: location.isDefault,
    isActive: location.isActive,
  };
}

export const toAddressBody = (address: Address): z.infer<typeof AddressBody> => ({
  line1: address.line1,
  ...(address.line2 ? { line2: address.line2 } : {}),
  city: address.city,
  province: address.province,
  postalCode: address.postalCode,
  country: address.country,
});
