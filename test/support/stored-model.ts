/**
 * Reads a stack's organizations and identity-users tables back and checks every item
 * against the model the service means to store, plus the links between items: no
 * orphans, no half-written organization, at most one default location. Returns the
 * problems found (empty when the data is sound), so a failure names the item.
 */
import { PAYMENT_TERMS } from '../../functions/domain/billing/payment-terms';
import { z } from 'zod';
import { US_STATES } from '../../functions/domain/addresses/us-states';
import type { LocalStack } from '../../lib/local-runtime/local-stack';
import { scanTable } from './inspect';

const STATE_NAMES = new Set<string>(US_STATES.map((state) => state.name));
const UNPAIRED_SURROGATE = /\p{Surrogate}/u;

/** Stored text: trimmed, non-empty, within the 256-character limit, valid Unicode. */
const text = z
  .string()
  .min(1)
  .max(256)
  .refine((value) => value === value.trim(), 'is not trimmed')
  .refine((value) => !UNPAIRED_SURROGATE.test(value), 'holds an unpaired surrogate');
const email = z.email().max(254);
const isoTime = z.iso.datetime();
const uuid = z.uuid();

const address = z.strictObject({
  line1: text,
  line2: text.optional(),
  city: text,
  province: z.string().refine((value) => STATE_NAMES.has(value), 'is not a full US state name'),
  postalCode: z.string().regex(/^\d{5}(?:-\d{4})?$/),
  country: z.literal('United States'),
});

const keys = { pk: z.string(), sk: z.string(), entity: z.string() };

const organization = z.strictObject({
  ...keys,
  gsi1pk: z.string(),
  gsi1sk: z.string(),
  id: uuid,
  partnerId: uuid,
  internalOrgId: text,
  name: text,
  paymentCustomerId: z.string().regex(/^cus_\S+$/),
  email: email.optional(),
  phone: text.optional(),
  billingAddress: address.optional(),
  timeZone: text.optional(),
  paymentTerms: z.enum(PAYMENT_TERMS).optional(),
  billingEmail: email.optional(),
  taxExempt: z.boolean().optional(),
  createdAt: isoTime,
  updatedAt: isoTime.optional(),
});

const profileFields = {
  id: uuid,
  partnerId: uuid,
  organizationId: uuid,
  internalOrgId: text,
  internalUserId: text,
  userId: uuid.optional(),
  firstName: text,
  lastName: text,
  email,
  phoneNumber: text.optional(),
  address: address.optional(),
  createdAt: isoTime,
  unlinkedAt: isoTime.optional(),
};
const profile = z.strictObject({ ...keys, gsi1pk: z.string(), gsi1sk: z.string(), ...profileFields });
const profileById = z.strictObject({ ...keys, ...profileFields });

const location = z.strictObject({
  ...keys,
  id: uuid,
  organizationId: uuid,
  internalShippingLocationId: text,
  name: text,
  nickname: text.optional(),
  address,
  contact: z.strictObject({ name: text.optional(), phone: text.optional(), email: email.optional() }).optional(),
  deliveryInstructions: text.optional(),
  isDefault: z.boolean(),
  isActive: z.boolean(),
  createdAt: isoTime,
});

const defaultLocation = z.strictObject({ ...keys, locationId: uuid, internalShippingLocationId: text });

const identityUser = z.strictObject({
  pk: z.string(),
  sk: z.literal('#USER'),
  id: uuid,
  partnerId: uuid,
  profileId: uuid,
  email,
  status: z.enum(['active', 'disabled']),
  createdAt: isoTime,
  disabledAt: isoTime.optional(),
});

const SCHEMAS: Record<string, z.ZodType> = {
  organization,
  profile,
  'profile-by-id': profileById,
  location,
  'default-location': defaultLocation,
};

const describeIssues = (error: z.ZodError) =>
  error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');

export interface StoredModelReport {
  readonly problems: string[];
  readonly counts: Record<string, number>;
}

/** Every problem with the stored organizations, profiles, locations and identity users. */
export async function checkStoredModel(stack: LocalStack): Promise<StoredModelReport> {
  const problems: string[] = [];
  const items = await scanTable(stack, 'organizations');
  const users = await scanTable(stack, 'identityUsers');
  const counts: Record<string, number> = { 'identity-user': users.length };
  const where = (item: Record<string, any>) => `${item.entity ?? '?'} ${item.pk}|${item.sk}`;

  for (const item of items) {
    counts[item.entity] = (counts[item.entity] ?? 0) + 1;
    const schema = SCHEMAS[item.entity];
    if (!schema) {
      problems.push(`${where(item)}: unknown entity`);
      continue;
    }
    const parsed = schema.safeParse(item);
    if (!parsed.success) problems.push(`${where(item)}: ${describeIssues(parsed.error)}`);
  }
  for (const user of users) {
    const parsed = identityUser.safeParse(user);
    if (!parsed.success) problems.push(`identity-user ${user.pk}: ${describeIssues(parsed.error)}`);
  }

  // Links between items.
  const partitions = new Map<string, Record<string, any>[]>();
  for (const item of items) {
    if (!String(item.pk).startsWith('ORG#')) continue;
    partitions.set(item.pk, [...(partitions.get(item.pk) ?? []), item]);
  }
  const byId = new Map(items.filter((i) => i.entity === 'profile-by-id').map((i) => [i.id as string, i]));
  const usersById = new Map(users.map((u) => [u.id as string, u]));

  for (const [pk, members] of partitions) {
    const [org, ...extraOrgs] = members.filter((i) => i.entity === 'organization');
    if (!org) {
      problems.push(`${pk}: ${members.map((m) => m.entity).join(', ')} without an organization item`);
      continue;
    }
    if (extraOrgs.length) problems.push(`${pk}: more than one organization item`);
    if (pk !== `ORG#${org.partnerId}#${org.internalOrgId}`)
      problems.push(`${pk}: organization item names another partition`);
    const locations = members.filter((i) => i.entity === 'location');
    for (const loc of locations) {
      if (loc.organizationId !== org.id) problems.push(`${where(loc)}: organizationId is not the organization's id`);
    }
    for (const prof of members.filter((i) => i.entity === 'profile')) {
      if (
        prof.organizationId !== org.id ||
        prof.partnerId !== org.partnerId ||
        prof.internalOrgId !== org.internalOrgId
      ) {
        problems.push(`${where(prof)}: does not match its organization`);
      }
      const twin = byId.get(prof.id);
      if (!twin) problems.push(`${where(prof)}: no profile-by-id item`);
      else {
        const strip = ({ pk: _a, sk: _b, gsi1pk: _c, gsi1sk: _d, entity: _e, ...rest }: Record<string, any>) => rest;
        if (
          JSON.stringify(strip(twin), Object.keys(strip(twin)).sort()) !==
          JSON.stringify(strip(prof), Object.keys(strip(prof)).sort())
        ) {
          problems.push(`${where(prof)}: differs from its profile-by-id item`);
        }
      }
      if (prof.userId) {
        const user = usersById.get(prof.userId);
        if (!user) problems.push(`${where(prof)}: its identity user ${prof.userId} is missing`);
        else if (user.profileId !== prof.id || user.partnerId !== prof.partnerId)
          problems.push(`${where(prof)}: identity user points elsewhere`);
      }
    }
    const defaults = locations.filter((l) => l.isDefault);
    const claims = members.filter((i) => i.entity === 'default-location');
    if (defaults.length > 1) problems.push(`${pk}: ${defaults.length} default locations`);
    if (claims.length !== defaults.length)
      problems.push(`${pk}: ${claims.length} default claims for ${defaults.length} default locations`);
    const [claim] = claims;
    const [def] = defaults;
    if (
      claim &&
      def &&
      (claim.locationId !== def.id || claim.internalShippingLocationId !== def.internalShippingLocationId)
    ) {
      problems.push(`${pk}: the default claim names another location`);
    }
  }
  for (const twin of byId.values()) {
    const partition = partitions.get(`ORG#${twin.partnerId}#${twin.internalOrgId}`) ?? [];
    if (!partition.some((i) => i.entity === 'profile' && i.id === twin.id))
      problems.push(`${where(twin)}: orphan (no profile item)`);
  }
  for (const user of users) {
    const twin = byId.get(user.profileId);
    if (!twin) problems.push(`identity-user ${user.id}: orphan (no profile ${user.profileId})`);
    else if (twin.userId !== undefined && twin.userId !== user.id)
      problems.push(`identity-user ${user.id}: its profile links another user`);
  }
  return { problems, counts };
}
