/**
 * Operator commands for organizations and profiles, as pure functions of the service's
 * dependencies, and their CLI registration (`organizationCommands`: `organization list`,
 * `organization show`, `profile disable`, `profile enable`). Results are JSON-serializable
 * and hold no secrets. The rules of disabling and enabling live in the domain's ProfileAdmin.
 */
import type { Dependencies } from '../../functions/container';
import type { Address } from '../../functions/domain/addresses/address';
import { NotFound } from '../../functions/domain/errors';
import {
  isActive,
  type Organization,
  type Profile,
  type ProfileId,
  roleOf,
  type ShippingLocation,
} from '../../functions/domain/organizations/organization';
import { formatUsd } from '../../functions/domain/money';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { documentLines, fieldLines, NONE, tableLines } from './human-format';
import { type CommandTable, defineCommand } from './ops-command';
import { InternalOrgIdOption, partnerOption, profileOption } from './option-schemas';

type Deps = Pick<Dependencies, 'partners' | 'organizations' | 'identity' | 'sessions' | 'clock' | 'profileAdmin'>;

async function requirePartner(deps: Deps, partner: string): Promise<PartnerId> {
  const found = await deps.partners.getPartner(partner as PartnerId);
  if (!found) throw new NotFound(`No partner ${partner}`);
  return found.id;
}

const organizationView = (organization: Organization) => ({
  id: organization.id,
  internalOrgId: organization.internalOrgId,
  name: organization.name,
  paymentCustomerId: organization.paymentCustomerId,
  createdAt: organization.createdAt,
});

/** `organization list --partner ID`: the partner's organizations, by internalOrgId. */
export async function listOrganizations(deps: Deps, options: { partner: string }) {
  const partnerId = await requirePartner(deps, options.partner);
  const organizations = await deps.organizations.listOrganizations(partnerId);
  return { partnerId, organizations: organizations.map(organizationView) };
}

/** `organization show --partner ID --org INTERNAL_ORG_ID`: one organization with its profiles and locations. */
export async function showOrganization(deps: Deps, options: { partner: string; org: string }) {
  const partnerId = await requirePartner(deps, options.partner);
  const aggregate = await deps.organizations.getOrganization(partnerId, options.org);
  if (!aggregate) throw new NotFound(`Partner ${partnerId} has no organization ${options.org}`);
  const { organization } = aggregate;
  return {
    organization: {
      ...organizationView(organization),
      email: organization.email ?? null,
      phone: organization.phone ?? null,
      billingAddress: organization.billingAddress ?? null,
    },
    profiles: await Promise.all(aggregate.profiles.map((profile) => profileView(deps, profile))),
    locations: aggregate.locations.map(locationView),
  };
}

const profileSummary = (profile: Profile) => ({
  profileId: profile.id,
  partnerId: profile.partnerId,
  internalOrgId: profile.internalOrgId,
  internalUserId: profile.internalUserId,
});

/** `profile disable --partner ID --profile PROFILE_ID` (ProfileAdmin.disable). */
export async function disableProfile(deps: Deps, options: { partner: string; profile: string }) {
  const result = await deps.profileAdmin.disable(options.partner as PartnerId, options.profile as ProfileId);
  return {
    ...profileSummary(result.profile),
    disabledUserId: result.disabledUserId ?? null,
    alreadyDisabled: result.alreadyDisabled,
  };
}

/** `profile enable --partner ID --profile PROFILE_ID` (ProfileAdmin.enable). */
export async function enableProfile(deps: Deps, options: { partner: string; profile: string }) {
  const result = await deps.profileAdmin.enable(options.partner as PartnerId, options.profile as ProfileId);
  return {
    ...profileSummary(result.profile),
    enabledUserId: result.enabledUserId,
    alreadyEnabled: result.alreadyEnabled,
  };
}

async function profileView(deps: Deps, profile: Profile) {
  const user = profile.userId ? await deps.identity.getUser(profile.userId) : undefined;
  return {
    id: profile.id,
    internalUserId: profile.internalUserId,
    firstName: profile.firstName,
    lastName: profile.lastName,
    email: profile.email,
    phoneNumber: profile.phoneNumber ?? null,
    role: roleOf(profile),
    /** Cents, as stored; `null`: no limit. */
    orderLimitCents: profile.orderLimitCents ?? null,
    /** The partner's switch (PATCH `active`); `user.status` is the operator's (`profile disable`). */
    active: isActive(profile),
    createdAt: profile.createdAt,
    user: user ? { id: user.id, status: user.status } : null,
  };
}

const locationView = (location: ShippingLocation) => ({
  id: location.id,
  internalShippingLocationId: location.internalShippingLocationId,
  name: location.name,
  nickname: location.nickname ?? null,
  address: location.address,
  contact: location.contact ?? null,
  deliveryInstructions: location.deliveryInstructions ?? null,
  isDefault: location.isDefault,
  isActive: location.isActive,
  createdAt: location.createdAt,
});

const addressText = (address: Address) =>
  [address.line1, address.line2, address.city, `${address.province} ${address.postalCode}`].filter(Boolean).join(', ');

export const organizationCommands: CommandTable = {
  'organization list': defineCommand({
    summary: "List a partner's organizations",
    options: { partner: partnerOption },
    async run(deps, options) {
      const result = await listOrganizations(deps, options);
      return {
        json: result,
        text:
          result.organizations.length === 0
            ? [`Partner ${result.partnerId} has no organizations.`]
            : tableLines(
                ['INTERNAL ORG ID', 'ORGANIZATION ID', 'NAME', 'PAYMENT CUSTOMER', 'CREATED'],
                result.organizations.map((o) => [o.internalOrgId, o.id, o.name, o.paymentCustomerId, o.createdAt]),
              ),
      };
    },
  }),

  'organization show': defineCommand({
    summary: 'Show one organization with its profiles (and their identity users) and shipping locations',
    options: {
      partner: partnerOption,
      org: {
        schema: InternalOrgIdOption,
        placeholder: 'INTERNAL_ORG_ID',
        description: "The partner's internalOrgId of the organization",
      },
    },
    async run(deps, options) {
      const result = await showOrganization(deps, options);
      const { organization, profiles, locations } = result;
      return {
        json: result,
        text: [
          ...fieldLines([
            ['id', organization.id],
            ['internalOrgId', organization.internalOrgId],
            ['name', organization.name],
            ['paymentCustomerId', organization.paymentCustomerId],
            ['email', organization.email ?? NONE],
            ['phone', organization.phone ?? NONE],
            ['billingAddress', organization.billingAddress ? addressText(organization.billingAddress) : NONE],
            ['createdAt', organization.createdAt],
          ]),
          '',
          ...(profiles.length === 0
            ? ['No profiles.']
            : tableLines(
                ['PROFILE ID', 'INTERNAL USER ID', 'NAME', 'EMAIL', 'ROLE', 'LIMIT', 'ACTIVE', 'USER', 'CREATED'],
                profiles.map((p) => [
                  p.id,
                  p.internalUserId,
                  `${p.firstName} ${p.lastName}`,
                  p.email,
                  p.role,
                  p.orderLimitCents === null ? 'none' : formatUsd(p.orderLimitCents),
                  String(p.active),
                  p.user ? `${p.user.id} (${p.user.status})` : `${NONE} (unlinked)`,
                  p.createdAt,
                ]),
              )),
          '',
          ...(locations.length === 0
            ? ['No shipping locations.']
            : tableLines(
                ['LOCATION ID', 'INTERNAL LOCATION ID', 'NAME', 'DEFAULT', 'ACTIVE', 'ADDRESS'],
                locations.map((l) => [
                  l.id,
                  l.internalShippingLocationId,
                  l.name,
                  String(l.isDefault),
                  String(l.isActive),
                  addressText(l.address),
                ]),
              )),
          '',
          // Everything the summary and the tables abbreviate, field by field, as --json has it.
          'Details:',
          ...documentLines({ billingAddress: organization.billingAddress, profiles, locations }, '  '),
        ],
      };
    },
  }),

  'profile disable': defineCommand({
    summary: 'Unlink a profile from its identity user and disable that user: handshakes for it are refused',
    options: { partner: partnerOption, profile: profileOption },
    async run(deps, options) {
      const result = await disableProfile(deps, options);
      return {
        json: result,
        text: [
          ...fieldLines([
            ['profileId', result.profileId],
            ['internalOrgId', result.internalOrgId],
            ['internalUserId', result.internalUserId],
            ['disabledUserId', result.disabledUserId ?? NONE],
          ]),
          result.alreadyDisabled
            ? 'The profile was already disabled: nothing changed.'
            : 'Handshakes for this profile now answer 400 "Profile not set up for authentication"; its live sessions have ended. `profile enable` undoes this.',
        ],
      };
    },
  }),

  'profile enable': defineCommand({
    summary: 'Link a disabled profile to its identity user again and re-enable that user: handshakes work again',
    options: { partner: partnerOption, profile: profileOption },
    async run(deps, options) {
      const result = await enableProfile(deps, options);
      return {
        json: result,
        text: [
          ...fieldLines([
            ['profileId', result.profileId],
            ['internalOrgId', result.internalOrgId],
            ['internalUserId', result.internalUserId],
            ['enabledUserId', result.enabledUserId],
          ]),
          result.alreadyEnabled
            ? 'The profile was already enabled: nothing changed.'
            : 'Handshakes for this profile work again; sessions ended by `profile disable` stay ended.',
        ],
      };
    },
  }),
};
