/**
 * The bodies of the partner's changes to an organization after setup (docs/setup.md,
 * "Changing users and locations"): PATCH of a user, POST and PATCH of a shipping
 * location. Fields follow setup's rules (trimmed, normalized, the same limits); in a
 * PATCH an absent field stays as it is, and so does a blank optional string (setup's
 * "blank counts as absent"), while `null` removes an optional field. Unknown fields are
 * ignored, as at setup.
 */
// zod/mini: parsed by the setup Lambda, whose cold start avoids the classic API.
import * as z from 'zod/mini';
import { AddressInput } from '../addresses/address';
import { documented, requiredTextRules } from '../documented-rules';
import {
  MAX_TEXT_LENGTH,
  optionalEmail,
  optionalText,
  requiredEmail,
  requiredField,
  requiredText,
  rule,
} from '../validation';
import { OrderLimitInput, RoleInput } from './profile-fields';
import { Contact, OrganizationTimeZone, PaymentTermsInput, ShippingLocationInput } from './setup-request';

/** A field given, or an object field with at least one field given (`{ "user": {} }` changes nothing). */
const namesAChange = (value: unknown): boolean =>
  isPlainObject(value) &&
  Object.values(value).some(
    (field) =>
      field !== undefined && !(isPlainObject(field) && Object.values(field).every((inner) => inner === undefined)),
  );

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const atLeastOneChange = (what: string) =>
  z.refine(namesAChange, { ...rule('NO_CHANGES', `must name at least one field of the ${what} to change`) });

/**
 * An optional text a PATCH may also remove with `null`. The document asks for a non-blank
 * text: a blank one changes nothing, so a body of blanks alone is NO_CHANGES.
 */
const removableText = () => z.optional(z.nullable(documented(optionalText(), requiredTextRules(MAX_TEXT_LENGTH))));

/**
 * The document's form of "at least one of these fields" (unknown fields are ignored, so
 * `minProperties` would not say it); a blank text alone still changes nothing (see `removableText`).
 */
const atLeastOneOf = (...fields: readonly string[]) => ({
  anyOf: fields.map((field) => ({ required: [field], properties: { [field]: {} } })),
});

export const ProfileUpdateRequest = z
  .object(
    {
      user: z.optional(
        z
          .object(
            {
              firstName: z.optional(requiredText()),
              lastName: z.optional(requiredText()),
              email: z.optional(requiredEmail()),
              phoneNumber: removableText(),
            },
            { error: requiredField },
          )
          .register(z.globalRegistry, atLeastOneOf('firstName', 'lastName', 'email', 'phoneNumber')),
      ),
      role: z.optional(RoleInput),
      /** `null` removes the limit. */
      orderLimit: z.optional(z.nullable(OrderLimitInput)),
      /** `null` removes the limit. */
      monthlyLimit: z.optional(z.nullable(OrderLimitInput)),
      active: z.optional(z.boolean({ error: requiredField })),
    },
    { error: requiredField },
  )
  .check(atLeastOneChange('user'))
  .register(z.globalRegistry, atLeastOneOf('user', 'role', 'orderLimit', 'monthlyLimit', 'active'));
export type ProfileUpdate = z.output<typeof ProfileUpdateRequest>;

/** POST /v1/organizations/{internalOrgId}/shipping-locations: one location, as in setup's `shippingLocations`. */
export const ShippingLocationCreateRequest = ShippingLocationInput;
export type ShippingLocationCreate = z.output<typeof ShippingLocationCreateRequest>;

export const ShippingLocationUpdateRequest = z
  .object(
    {
      name: z.optional(requiredText()),
      nickname: removableText(),
      /** The whole address, normalized as at setup. */
      address: z.optional(AddressInput),
      contact: z.optional(z.nullable(Contact)),
      deliveryInstructions: removableText(),
      /** `true` makes it the organization's default (the previous default stops being one); `false` leaves the organization without one. */
      isDefault: z.optional(z.boolean({ error: requiredField })),
      isActive: z.optional(z.boolean({ error: requiredField })),
    },
    { error: requiredField },
  )
  .check(atLeastOneChange('location'))
  .register(
    z.globalRegistry,
    atLeastOneOf('name', 'nickname', 'address', 'contact', 'deliveryInstructions', 'isDefault', 'isActive'),
  );
export type ShippingLocationUpdate = z.output<typeof ShippingLocationUpdateRequest>;

/** An optional e-mail a PATCH may also remove with `null`; a blank one changes nothing. */
const removableEmail = () => z.optional(z.nullable(optionalEmail()));

/**
 * PATCH /v1/organizations/{internalOrgId}: the organization's own fields, by setup's
 * rules. `null` removes an optional one (`billingEmail: null` sends invoices to the
 * organization's e-mail again).
 */
export const OrganizationUpdateRequest = z
  .object(
    {
      organizationName: z.optional(requiredText()),
      organizationEmail: removableEmail(),
      organizationPhone: removableText(),
      billingAddress: z.optional(z.nullable(AddressInput)),
      billingEmail: removableEmail(),
      paymentTerms: z.optional(PaymentTermsInput),
      timeZone: z.optional(z.nullable(OrganizationTimeZone)),
      taxExempt: z.optional(z.boolean({ error: 'must be true or false' })),
    },
    { error: requiredField },
  )
  .check(atLeastOneChange('organization'))
  .register(
    z.globalRegistry,
    atLeastOneOf(
      'organizationName',
      'organizationEmail',
      'organizationPhone',
      'billingAddress',
      'billingEmail',
      'paymentTerms',
      'timeZone',
      'taxExempt',
    ),
  );
export type OrganizationUpdate = z.output<typeof OrganizationUpdateRequest>;
