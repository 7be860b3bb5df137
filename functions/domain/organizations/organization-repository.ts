import type { IdempotencyCompletion } from '../idempotency/idempotency-completion';
import type { IdentityUser } from '../identity/identity-user';
import type { PartnerId } from '../partners/partner';
import type { Organization, OrganizationAggregate, Profile, ProfileId, ShippingLocation } from './organization';

// Its failures (OrganizationAlreadyExists, ProfileAlreadyExists, ConcurrentModification) are in ../errors, with every other.

/**
 * Attributes to set and attributes to remove, and nothing else: a change written this way
 * never overwrites a field another writer changed meanwhile.
 */
export interface AttributeChanges<T> {
  readonly set: Partial<T>;
  readonly remove: readonly (keyof T)[];
}

/** What a location change does to the organization's one default. */
export type DefaultChange =
  | { readonly kind: 'none' }
  /** This location becomes the default; `previous` (if any) stops being it, in the same transaction. */
  | { readonly kind: 'becomes-default'; readonly previous?: ShippingLocation }
  /** This location, the default, stops being it: the organization has none. */
  | { readonly kind: 'stops-being-default' };

/** Storage port for organizations, profiles, shipping locations and their identity users. */
export interface OrganizationRepository {
  /**
   * Writes a new organization with its first profile, identity user and locations in one
   * transaction. Throws OrganizationAlreadyExists if the internalOrgId is taken.
   * `completion`, when given, completes the request's Idempotency-Key in that same
   * transaction (IdempotencyKeyInFlight, and nothing written, if its claim was lost).
   */
  createOrganization(input: {
    organization: Organization;
    profile: Profile;
    user: IdentityUser;
    locations: readonly ShippingLocation[];
    completion?: IdempotencyCompletion;
  }): Promise<void>;

  /**
   * Adds a profile (with its identity user) and new locations to an existing organization,
   * in one transaction. Throws ProfileAlreadyExists (with the existing profile) or
   * ConcurrentModification; `completion` as in createOrganization.
   */
  addProfile(input: {
    organization: Organization;
    profile: Profile;
    user: IdentityUser;
    newLocations: readonly ShippingLocation[];
    completion?: IdempotencyCompletion;
  }): Promise<void>;

  getOrganization(partnerId: PartnerId, internalOrgId: string): Promise<OrganizationAggregate | undefined>;
  /**
   * Sets and removes only the given attributes of the organization, if it exists
   * (OrganizationNotFound otherwise). Returns the organization as stored afterwards.
   */
  updateOrganization(organization: Organization, changes: AttributeChanges<Organization>): Promise<Organization>;
  listOrganizations(partnerId: PartnerId): Promise<Organization[]>;
  getProfile(profileId: ProfileId): Promise<Profile | undefined>;
  /** The profile with this internalUserId in one organization (consistent read: right after setup it is there). */
  getProfileInOrganization(
    partnerId: PartnerId,
    internalOrgId: string,
    internalUserId: string,
  ): Promise<Profile | undefined>;
  /** Profiles of this partner with this internalUserId, across its organizations (an index: eventually consistent). */
  findProfilesByInternalUserId(partnerId: PartnerId, internalUserId: string): Promise<Profile[]>;
  /** Unlinks the profile from its identity user and disables that user (operator CLI); the user's id is kept as `unlinkedUserId`. */
  unlinkProfile(profileId: ProfileId, at: Date): Promise<Profile>;
  /**
   * Links an unlinked profile to `user` again and stores that user as active (operator
   * CLI); throws ConcurrentModification if the profile was linked in the meantime.
   */
  relinkProfile(profile: Profile, user: IdentityUser, at: Date): Promise<Profile>;

  /**
   * Sets and removes only the given attributes of the profile (both of its items, and its
   * identity user's email when that changes), if the profile exists (ProfileNotFound
   * otherwise); a write that met another transaction is ConcurrentModification. Returns
   * the profile as stored afterwards.
   */
  updateProfile(profile: Profile, changes: AttributeChanges<Profile>): Promise<Profile>;
  /**
   * Adds one location (ShippingLocationAlreadyExists if its internalShippingLocationId is
   * taken); as the default when `location.isDefault`, replacing `previousDefault` in the
   * same transaction (ConcurrentModification if the default changed meanwhile).
   */
  addLocation(
    organization: Organization,
    location: ShippingLocation,
    previousDefault: ShippingLocation | undefined,
  ): Promise<void>;
  /**
   * Sets and removes only the given attributes of the location, if it exists
   * (ShippingLocationNotFound), with `defaultChange` in the same transaction
   * (ConcurrentModification if the default changed meanwhile). Returns the location as stored afterwards.
   */
  updateLocation(
    organization: Organization,
    location: ShippingLocation,
    changes: AttributeChanges<ShippingLocation>,
    defaultChange: DefaultChange,
  ): Promise<ShippingLocation>;
}
