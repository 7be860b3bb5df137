/**
 * The transaction items that write profiles and shipping locations (setup, a new profile,
 * a new or changed location), and the default location's claim that keeps one default per
 * organization.
 */
import type { IdentityUser } from '../../domain/identity/identity-user';
import type { Organization, Profile, ShippingLocation } from '../../domain/organizations/organization';
import { identityKeys } from './identity-directory';
import { organizationKeys } from './organization-items';
import type { TransactItem } from './transactions';

/**
 * `location` takes the organization's default claim from `previous` (which must still
 * hold it and be the default) or, with no previous default, claims it new: either way,
 * a concurrent change of the default fails the whole transaction.
 */
export function defaultSwitch(
  table: string,
  organization: Organization,
  location: ShippingLocation,
  previous: ShippingLocation | undefined,
): TransactItem[] {
  const { partnerId, internalOrgId } = organization;
  const claim = {
    ...organizationKeys.defaultLocation(partnerId, internalOrgId),
    entity: 'default-location',
    locationId: location.id,
    internalShippingLocationId: location.internalShippingLocationId,
  };
  if (!previous) return [{ Put: { TableName: table, Item: claim, ConditionExpression: 'attribute_not_exists(pk)' } }];
  return [
    {
      Update: {
        TableName: table,
        Key: organizationKeys.location(partnerId, internalOrgId, previous.internalShippingLocationId),
        UpdateExpression: 'SET isDefault = :false',
        ConditionExpression: 'isDefault = :true',
        ExpressionAttributeValues: { ':false': false, ':true': true },
      },
    },
    {
      Put: {
        TableName: table,
        Item: claim,
        ConditionExpression: 'internalShippingLocationId = :previous',
        ExpressionAttributeValues: { ':previous': previous.internalShippingLocationId },
      },
    },
  ];
}

/** The profile, its by-id copy and its identity user: the first item's condition makes internalUserId unique per organization. */
export function profileWrites(
  tables: { readonly organizations: string; readonly identityUsers: string },
  profile: Profile,
  user: IdentityUser,
): TransactItem[] {
  const table = tables.organizations;
  return [
    put(
      table,
      {
        ...organizationKeys.profile(profile.partnerId, profile.internalOrgId, profile.internalUserId),
        gsi1pk: organizationKeys.usersOfPartner(profile.partnerId, profile.internalUserId),
        gsi1sk: profile.internalOrgId,
        entity: 'profile',
        ...profile,
      },
      true,
    ),
    put(table, { ...organizationKeys.profileById(profile.id), entity: 'profile-by-id', ...profile }, true),
    {
      Put: {
        TableName: tables.identityUsers,
        Item: { ...identityKeys.user(user.id), ...user },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
}

/** The locations, plus the organization's default claim when one of them is the default. */
export function locationWrites(
  table: string,
  organization: Organization,
  locations: readonly ShippingLocation[],
): TransactItem[] {
  const defaultLocation = locations.find((location) => location.isDefault);
  return [
    ...locations.map((location) => locationPut(table, organization, location)),
    ...(defaultLocation
      ? [
          put(
            table,
            {
              ...organizationKeys.defaultLocation(organization.partnerId, organization.internalOrgId),
              entity: 'default-location',
              locationId: defaultLocation.id,
              internalShippingLocationId: defaultLocation.internalShippingLocationId,
            },
            true,
          ),
        ]
      : []),
  ];
}

export function locationPut(table: string, organization: Organization, location: ShippingLocation): TransactItem {
  return put(
    table,
    {
      ...organizationKeys.location(
        organization.partnerId,
        organization.internalOrgId,
        location.internalShippingLocationId,
      ),
      entity: 'location',
      ...location,
    },
    true,
  );
}

export function put(table: string, item: Record<string, unknown>, mustBeNew: boolean): TransactItem {
  return {
    Put: {
      TableName: table,
      Item: item,
      ...(mustBeNew ? { ConditionExpression: 'attribute_not_exists(pk)' } : {}),
    },
  };
}
