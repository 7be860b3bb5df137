import {
  ConcurrentModification,
  IdempotencyKeyInFlight,
  NotFound,
  OrganizationAlreadyExists,
  OrganizationNotFound,
  ProfileAlreadyExists,
} from '../../../functions/domain/errors';
import type { IdempotencyCompletion } from '../../../functions/domain/idempotency/idempotency-completion';
import type { IdentityUser } from '../../../functions/domain/identity/identity-user';
import type {
  Organization,
  OrganizationAggregate,
  Profile,
  ProfileId,
  ShippingLocation,
} from '../../../functions/domain/organizations/organization';
import type {
  AttributeChanges,
  OrganizationRepository,
} from '../../../functions/domain/organizations/organization-repository';
import type { PartnerId } from '../../../functions/domain/partners/partner';
import type { InMemoryIdempotencyStore } from './in-memory-idempotency-store';

type Write = 'createOrganization' | 'addProfile';

/**
 * OrganizationRepository in a Map, refusing as the DynamoDB adapter does (the
 * organization taken, the internalUserId taken). `beforeWrite` runs just before each
 * write: a test plays the concurrent writer there, the way a racing setup would.
 */
export class InMemoryOrganizationRepository implements OrganizationRepository {
  readonly aggregates = new Map<string, OrganizationAggregate>();
  readonly users: IdentityUser[] = [];
  beforeWrite: (write: Write, attempt: number) => void | Promise<void> = () => undefined;
  private writes = 0;

  /** `idempotency` receives the completions the writes carry, under the DynamoDB adapter's condition. */
  constructor(private readonly idempotency?: InMemoryIdempotencyStore) {}

  async createOrganization(input: {
    organization: Organization;
    profile: Profile;
    user: IdentityUser;
    locations: readonly ShippingLocation[];
    completion?: IdempotencyCompletion;
  }) {
    await this.beforeWrite('createOrganization', ++this.writes);
    const id = key(input.organization.partnerId, input.organization.internalOrgId);
    if (this.aggregates.has(id)) throw new OrganizationAlreadyExists(input.organization.internalOrgId);
    this.complete(input.completion);
    this.aggregates.set(id, {
      organization: input.organization,
      profiles: [input.profile],
      locations: [...input.locations],
    });
    this.users.push(input.user);
  }

  async addProfile(input: {
    organization: Organization;
    profile: Profile;
    user: IdentityUser;
    newLocations: readonly ShippingLocation[];
    completion?: IdempotencyCompletion;
  }) {
    await this.beforeWrite('addProfile', ++this.writes);
    const id = key(input.organization.partnerId, input.organization.internalOrgId);
    const current = this.aggregates.get(id);
    if (!current) throw new ConcurrentModification('organization vanished');
    const taken = current.profiles.find((p) => p.internalUserId === input.profile.internalUserId);
    if (taken) throw new ProfileAlreadyExists(taken);
    const known = new Set(current.locations.map((l) => l.internalShippingLocationId));
    if (input.newLocations.some((l) => known.has(l.internalShippingLocationId)))
      throw new ConcurrentModification('location added meanwhile');
    this.complete(input.completion);
    this.aggregates.set(id, {
      organization: current.organization,
      profiles: [...current.profiles, input.profile],
      locations: [...current.locations, ...input.newLocations],
    });
    this.users.push(input.user);
  }

  async getOrganization(partnerId: PartnerId, internalOrgId: string) {
    return this.aggregates.get(key(partnerId, internalOrgId));
  }

  async listOrganizations(partnerId: PartnerId) {
    return [...this.aggregates.values()]
      .filter((a) => a.organization.partnerId === partnerId)
      .map((a) => a.organization);
  }

  async getProfile(profileId: ProfileId) {
    return this.allProfiles().find((p) => p.id === profileId);
  }

  async getProfileInOrganization(partnerId: PartnerId, internalOrgId: string, internalUserId: string) {
    return this.aggregates
      .get(key(partnerId, internalOrgId))
      ?.profiles.find((p) => p.internalUserId === internalUserId);
  }

  async findProfilesByInternalUserId(partnerId: PartnerId, internalUserId: string) {
    return this.allProfiles().filter((p) => p.partnerId === partnerId && p.internalUserId === internalUserId);
  }

  async unlinkProfile(profileId: ProfileId): Promise<Profile> {
    const profile = await this.getProfile(profileId);
    if (!profile) throw new NotFound(`No profile ${profileId}`);
    return profile;
  }

  async relinkProfile(profile: Profile): Promise<Profile> {
    const stored = await this.getProfile(profile.id);
    if (!stored) throw new NotFound(`No profile ${profile.id}`);
    return stored;
  }

  // The partner's changes after setup are tested against DynamoDB Local (test/integration/partner-users-api.test.ts, shipping-locations-api.test.ts).
  async updateOrganization(organization: Organization, changes: AttributeChanges<Organization>) {
    const id = key(organization.partnerId, organization.internalOrgId);
    const current = this.aggregates.get(id);
    if (!current) throw new OrganizationNotFound(organization.partnerId, organization.internalOrgId);
    const updated = { ...current.organization, ...changes.set } as Record<string, unknown>;
    for (const attribute of changes.remove) delete updated[attribute];
    this.aggregates.set(id, { ...current, organization: updated as unknown as Organization });
    return updated as unknown as Organization;
  }

  async updateProfile(): Promise<Profile> {
    throw new RangeError('updateProfile is not modelled by the in-memory repository');
  }

  async addLocation(): Promise<void> {
    throw new RangeError('addLocation is not modelled by the in-memory repository');
  }

  async updateLocation(): Promise<ShippingLocation> {
    throw new RangeError('updateLocation is not modelled by the in-memory repository');
  }

  /** After every other condition held, as the last item of the adapter's transaction. */
  private complete(completion: IdempotencyCompletion | undefined) {
    if (!completion) return;
    if (!this.idempotency?.completeNow(completion)) throw new IdempotencyKeyInFlight('claim lost');
  }

  private allProfiles(): Profile[] {
    return [...this.aggregates.values()].flatMap((a) => a.profiles);
  }
}

const key = (partnerId: PartnerId, internalOrgId: string) => `${partnerId}#${internalOrgId}`;
