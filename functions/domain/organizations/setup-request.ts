/**
 * The body of POST /v1/organizations/setup (contract request table, docs/architecture.md,
 * "Size limits"). Parsing trims strings, applies defaults and normalizes addresses; unknown
 * fields are dropped. Every problem is reported, not only the first.
 */
// zod/mini: setup parses this at cold start, and the classic API alone is ~440 KB bundled.
import * as z from 'zod/mini';
import { AddressInput } from '../addresses/address';
import { PaymentTerms } from '../billing/payment-terms';
import { IANA_TIME_ZONE_NAMES } from '../time-zone-names';
import { documented } from '../documented-rules';
import { optionalEmail, optionalText, requiredEmail, requiredField, requiredText, rule } from '../validation';
import { OrderLimitInput, RoleInput } from './profile-fields';

export const MAX_SHIPPING_LOCATIONS = 50;

/**
 * The organization's IANA time zone (`America/Chicago`), in which the module shows times
 * when the browser has not told it its own. Exactly the names the document lists
 * (`time-zone-names.ts`), spelled as listed, stored as given: one rule for the server and
 * every validator built from docs/openapi.json (decisions.md, "Time zones").
 */
const KNOWN_TIME_ZONES = new Set(IANA_TIME_ZONE_NAMES);

export const OrganizationTimeZone = documented(
  z.pipe(
    // Not trimmed: the name must be exactly one of the list, as a validator of the document holds it.
    z.string({ error: requiredField }),
    z.transform((value: string, ctx) => {
      if (!KNOWN_TIME_ZONES.has(value)) {
        ctx.issues.push({
          code: 'custom',
          ...rule(
            'INVALID_TIME_ZONE',
            'must be an IANA time zone name as the tz database spells it, e.g. America/Chicago',
          ),
          input: ctx.value,
        });
        return z.NEVER;
      }
      return value;
    }),
  ),
  {
    enum: IANA_TIME_ZONE_NAMES,
    description:
      'An IANA time zone name, canonical or alias (`America/Chicago`, `Asia/Kolkata`, `US/Eastern`, `UTC`), spelled exactly as the tz database does (`INVALID_TIME_ZONE` otherwise).',
  },
);

/** `net15`, `net30` or `net60`: how long the organization has to pay an invoice. */
export const PaymentTermsInput = documented(z.enum(PaymentTerms.options, { error: requiredField }), {
  description: 'How long the organization has to pay an invoice: `net15`, `net30` (the default) or `net60` days.',
});

export const Contact = z.object(
  {
    name: optionalText(),
    phone: optionalText(),
    email: optionalEmail(),
  },
  { error: requiredField },
);

export const ShippingLocationInput = z.object(
  {
    internalShippingLocationId: requiredText(),
    name: requiredText(),
    nickname: optionalText(),
    address: AddressInput,
    contact: z.optional(Contact),
    isDefault: z._default(z.boolean({ error: requiredField }), false),
    deliveryInstructions: optionalText(),
  },
  { error: requiredField },
);

export type ShippingLocationInput = z.output<typeof ShippingLocationInput>;

/**
 * Rules across locations. It also runs when some locations failed on their own (so a
 * duplicate id is reported together with, say, a bad ZIP), which means it sees
 * half-parsed elements and reads them defensively.
 */
function checkLocationsTogether(locations: readonly unknown[], ctx: z.core.$RefinementCtx): void {
  const firstIndexById = new Map<string, number>();
  let defaultIndex: number | undefined;

  locations.forEach((location, index) => {
    if (typeof location !== 'object' || location === null) return;
    const { internalShippingLocationId: id, isDefault } = location as Record<string, unknown>;

    if (isDefault === true) {
      if (defaultIndex === undefined) {
        defaultIndex = index;
      } else {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'isDefault'],
          ...rule(
            'MULTIPLE_DEFAULT_LOCATIONS',
            `cannot be true: shippingLocations[${defaultIndex}] is already the default, and at most one location may be`,
          ),
        });
      }
    }

    if (typeof id === 'string' && id.trim() !== '') {
      const key = id.trim();
      const first = firstIndexById.get(key);
      if (first === undefined) {
        firstIndexById.set(key, index);
      } else {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'internalShippingLocationId'],
          ...rule('DUPLICATE_ID', `must be unique in the request: shippingLocations[${first}] already uses it`),
        });
      }
    }
  });
}

const ShippingLocations = documented(
  z.array(ShippingLocationInput, { error: requiredField }).check(
    z.maxLength(MAX_SHIPPING_LOCATIONS),
    z.superRefine((locations: ShippingLocationInput[], ctx) => checkLocationsTogether(locations, ctx), {
      // Over the limit, elements are not parsed at all; the size issue is enough.
      when: (payload) => Array.isArray(payload.value) && payload.value.length <= MAX_SHIPPING_LOCATIONS,
    }),
  ),
  {
    // At most one `isDefault: true`; unique ids compare one field of the items, which JSON Schema cannot say.
    contains: { type: 'object', properties: { isDefault: { const: true } }, required: ['isDefault'] },
    minContains: 0,
    maxContains: 1,
    description:
      'At most one location has `isDefault: true` (`MULTIPLE_DEFAULT_LOCATIONS`), and each `internalShippingLocationId` appears once (`DUPLICATE_ID`, compared after trimming).',
  },
);

export const SetupRequest = z.object(
  {
    internalOrgId: requiredText(),
    organizationName: requiredText(),
    internalUserId: requiredText(),
    user: z.object(
      {
        firstName: requiredText(),
        lastName: requiredText(),
        email: requiredEmail(),
        phoneNumber: optionalText(),
        /** Beyond the contract: `buyer` when absent. */
        role: z.optional(RoleInput),
        /** Beyond the contract: USD, > 0, at most two decimals; stored as `orderLimitCents`; no limit when absent. */
        orderLimit: z.optional(OrderLimitInput),
        /** Beyond the contract: USD, as `orderLimit`; the most the user's orders may total in a calendar month of the organization's zone. */
        monthlyLimit: z.optional(OrderLimitInput),
      },
      { error: requiredField },
    ),
    userAddress: z.optional(AddressInput),
    shippingLocations: z.optional(ShippingLocations),
    billingAddress: z.optional(AddressInput),
    organizationEmail: optionalEmail(),
    organizationPhone: optionalText(),
    timeZone: z.optional(OrganizationTimeZone),
    /** Taken when the organization is created (default `net30`); a later setup of it leaves the stored terms. */
    paymentTerms: z.optional(PaymentTermsInput),
    /** Where invoices go; the organization's e-mail when absent. */
    billingEmail: optionalEmail(),
    /** Taken when the organization is created (default false); a later setup of it leaves it as stored. */
    taxExempt: z.optional(z.boolean({ error: 'must be true or false' })),
  },
  { error: requiredField },
);

export type SetupInput = z.output<typeof SetupRequest>;
