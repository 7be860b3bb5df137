/**
 * The organizations table's items: key shapes, the update expressions the repository
 * writes them with, and the conditions that keep a default location active.
 */
import type { ShippingLocation } from '../../domain/organizations/organization';
import type { AttributeChanges } from '../../domain/organizations/organization-repository';

/**
 * Key shapes of the organizations table. Everything of one organization shares a
 * partition (one query reads it whole); the partner is part of every key, so two
 * partners' identical internal ids can never meet.
 */
export const organizationKeys = {
  partition: (partnerId: string, internalOrgId: string) => `ORG#${partnerId}#${internalOrgId}`,
  organization: (partnerId: string, internalOrgId: string) => ({
    pk: organizationKeys.partition(partnerId, internalOrgId),
    sk: '#ORG',
  }),
  profile: (partnerId: string, internalOrgId: string, internalUserId: string) => ({
    pk: organizationKeys.partition(partnerId, internalOrgId),
    sk: `PROFILE#${internalUserId}`,
  }),
  location: (partnerId: string, internalOrgId: string, internalLocationId: string) => ({
    pk: organizationKeys.partition(partnerId, internalOrgId),
    sk: `LOCATION#${internalLocationId}`,
  }),
  /**
   * Claimed by the organization's default location: its `attribute_not_exists` condition
   * keeps "at most one default per organization" true under concurrent setups.
   */
  defaultLocation: (partnerId: string, internalOrgId: string) => ({
    pk: organizationKeys.partition(partnerId, internalOrgId),
    sk: '#DEFAULT_LOCATION',
  }),
  /** A copy of the profile keyed by its id, for the handshake's `profile_id`. */
  profileById: (profileId: string) => ({ pk: `PROFILEID#${profileId}`, sk: '#PROFILE' }),
  organizationsOfPartner: (partnerId: string) => `ORGS#${partnerId}`,
  usersOfPartner: (partnerId: string, internalUserId: string) => `USER#${partnerId}#${internalUserId}`,
};

/**
 * An UpdateExpression that sets and removes exactly the given attributes, with every name
 * and value as a placeholder (several are reserved words: `name`, `role`, `active`).
 */
export function attributeUpdate<T extends object>(
  changes: AttributeChanges<T>,
): {
  UpdateExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
} {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const set = Object.entries(changes.set)
    .filter(([, value]) => value !== undefined)
    .map(([attribute, value], index) => {
      names[`#s${index}`] = attribute;
      values[`:s${index}`] = value;
      return `#s${index} = :s${index}`;
    });
  const remove = changes.remove.map((attribute, index) => {
    names[`#r${index}`] = String(attribute);
    return `#r${index}`;
  });
  const clauses = [
    set.length ? `SET ${set.join(', ')}` : '',
    remove.length ? `REMOVE ${remove.join(', ')}` : '',
  ].filter(Boolean);
  if (clauses.length === 0) throw new RangeError('an update must set or remove at least one attribute');
  return {
    UpdateExpression: clauses.join(' '),
    ExpressionAttributeNames: names,
    ...(set.length ? { ExpressionAttributeValues: values } : {}),
  };
}

/**
 * The location update's condition: it exists and, unless the same change settles it, the
 * result is never a default that is inactive (deactivating needs it not to be the default
 * now; becoming the default needs it active now), whatever committed since it was read.
 */
export function staysUsableAsDefault(
  changes: AttributeChanges<ShippingLocation>,
  values: Record<string, unknown> | undefined,
): { ConditionExpression: string; ExpressionAttributeValues?: Record<string, unknown> } {
  const guards = ['attribute_exists(pk)'];
  if (changes.set.isActive === false && changes.set.isDefault !== false)
    guards.push('(attribute_not_exists(isDefault) OR isDefault = :notDefault)');
  if (changes.set.isDefault === true && changes.set.isActive !== true) guards.push('isActive = :active');
  const guardValues = {
    ...(guards.some((guard) => guard.includes(':notDefault')) ? { ':notDefault': false } : {}),
    ...(guards.some((guard) => guard.includes(':active')) ? { ':active': true } : {}),
  };
  const merged = { ...values, ...guardValues };
  return {
    ConditionExpression: guards.join(' AND '),
    ...(Object.keys(merged).length > 0 ? { ExpressionAttributeValues: merged } : {}),
  };
}

export const strip = <T>(item: Record<string, unknown>): T => {
  const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g2, entity: _e, ...rest } = item;
  return rest as T;
};
