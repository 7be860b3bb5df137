import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  ConcurrentModification,
  IdempotencyKeyInFlight,
  NotFound,
  OrganizationAlreadyExists,
  OrganizationNotFound,
  ProfileAlreadyExists,
  ProfileNotFound,
  ShippingLocationAlreadyExists,
  ShippingLocationNotFound,
} from '../../domain/errors';
import type { IdempotencyCompletion } from '../../domain/idempotency/idempotency-completion';
import type { IdentityUser } from '../../domain/identity/identity-user';
import {
  inListingOrder,
  type Organization,
  type OrganizationAggregate,
  type Profile,
  type ProfileId,
  type ShippingLocation,
} from '../../domain/organizations/organization';
import type {
  AttributeChanges,
  DefaultChange,
  OrganizationRepository,
} from '../../domain/organizations/organization-repository';
import type { PartnerId } from '../../domain/partners/partner';
import { completionInTransaction } from './idempotency-store';
import { identityKeys } from './identity-directory';
import { defaultSwitch, locationPut, locationWrites, profileWrites, put } from './organization-writes';
import { attributeUpdate, organizationKeys, staysUsableAsDefault, strip } from './organization-items';
import { queryAll } from './query-all';
import { failedConditions, lostTransactionConflict, type TransactItem } from './transactions';

export class DynamoOrganizationRepository implements OrganizationRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly identityTable: string,
    /** Where a setup's Idempotency-Key completion goes, in the setup's own transaction. */
    private readonly idempotencyTable: string,
  ) {}

  async createOrganization(input: {
    organization: Organization;
    profile: Profile;
    user: IdentityUser;
    locations: readonly ShippingLocation[];
    completion?: IdempotencyCompletion;
  }): Promise<void> {
    const { organization } = input;
    const items: TransactItem[] = [
      put(
        this.table,
        {
          ...organizationKeys.organization(organization.partnerId, organization.internalOrgId),
          gsi1pk: organizationKeys.organizationsOfPartner(organization.partnerId),
          gsi1sk: organization.internalOrgId,
          entity: 'organization',
          ...organization,
        },
        true,
      ),
      ...profileWrites({ organizations: this.table, identityUsers: this.identityTable }, input.profile, input.user),
      ...locationWrites(this.table, organization, input.locations),
      ...this.completionWrite(input.completion),
    ];
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: items }));
    } catch (error) {
      const failed = failedConditions(error);
      this.refuseLostClaim(failed, items, input.completion, error);
      if (failed?.includes(0)) throw new OrganizationAlreadyExists(organization.internalOrgId, { cause: error });
      // Fresh UUIDs collide only in theory; any other failed condition means a concurrent writer.
      if (failed || lostTransactionConflict(error))
        throw new ConcurrentModification('organization changed during creation', { cause: error });
      throw error;
    }
  }

  async addProfile(input: {
    organization: Organization;
    profile: Profile;
    user: IdentityUser;
    newLocations: readonly ShippingLocation[];
    completion?: IdempotencyCompletion;
  }): Promise<void> {
    const { organization, profile } = input;
    const items: TransactItem[] = [
      ...profileWrites({ organizations: this.table, identityUsers: this.identityTable }, profile, input.user),
      ...locationWrites(this.table, organization, input.newLocations),
      ...this.completionWrite(input.completion),
    ];
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: items }));
    } catch (error) {
      const failed = failedConditions(error);
      this.refuseLostClaim(failed, items, input.completion, error);
      if (failed?.includes(0)) {
        const existing = await this.getProfileInOrganization(
          organization.partnerId,
          organization.internalOrgId,
          profile.internalUserId,
        );
        if (existing) throw new ProfileAlreadyExists(existing, { cause: error });
      }
      // A location or the default appeared meanwhile, or another transaction held the items.
      if (failed || lostTransactionConflict(error))
        throw new ConcurrentModification('organization changed while adding a profile', { cause: error });
      throw error;
    }
  }

  /** Last in the transaction, so the other items keep their indexes in `failedConditions`. */
  private completionWrite(completion: IdempotencyCompletion | undefined): TransactItem[] {
    return completion ? [completionInTransaction(this.idempotencyTable, completion)] : [];
  }

  /**
   * The request's claim of its Idempotency-Key lapsed and another request holds the key:
   * nothing was written, and that other request's outcome is the one to replay.
   */
  private refuseLostClaim(
    failed: number[] | undefined,
    items: TransactItem[],
    completion: IdempotencyCompletion | undefined,
    error: unknown,
  ) {
    if (completion && failed?.includes(items.length - 1)) {
      throw new IdempotencyKeyInFlight('A request with this Idempotency-Key is still being processed; retry later', {
        cause: error,
      });
    }
  }

  async getOrganization(partnerId: PartnerId, internalOrgId: string): Promise<OrganizationAggregate | undefined> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': organizationKeys.partition(partnerId, internalOrgId) },
      ConsistentRead: true,
    });
    const organization = items.find((i) => i.entity === 'organization');
    if (!organization) return undefined;
    return {
      organization: strip<Organization>(organization),
      profiles: items.filter((i) => i.entity === 'profile').map((i) => strip<Profile>(i)),
      locations: inListingOrder(items.filter((i) => i.entity === 'location').map((i) => strip<ShippingLocation>(i))),
    };
  }

  async listOrganizations(partnerId: PartnerId): Promise<Organization[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :p',
      ExpressionAttributeValues: { ':p': organizationKeys.organizationsOfPartner(partnerId) },
    });
    return items.map((i) => strip<Organization>(i));
  }

  async getProfile(profileId: ProfileId): Promise<Profile | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.table, Key: organizationKeys.profileById(profileId) }),
    );
    return Item ? strip<Profile>(Item) : undefined;
  }

  async findProfilesByInternalUserId(partnerId: PartnerId, internalUserId: string): Promise<Profile[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :u',
      ExpressionAttributeValues: { ':u': organizationKeys.usersOfPartner(partnerId, internalUserId) },
    });
    return items.map((i) => strip<Profile>(i));
  }

  async unlinkProfile(profileId: ProfileId, at: Date): Promise<Profile> {
    const profile = await this.getProfile(profileId);
    if (!profile) throw new NotFound(`No profile ${profileId}`);
    // The user's id stays on the profile (`unlinkedUserId`), so `profile enable` can link it again.
    const unlink = (Key: Record<string, string>): TransactItem => ({
      Update: {
        TableName: this.table,
        Key,
        UpdateExpression: profile.userId
          ? 'REMOVE userId SET unlinkedAt = :at, unlinkedUserId = :user'
          : 'REMOVE userId SET unlinkedAt = :at',
        ExpressionAttributeValues: { ':at': at.toISOString(), ...(profile.userId ? { ':user': profile.userId } : {}) },
      },
    });
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          unlink(organizationKeys.profile(profile.partnerId, profile.internalOrgId, profile.internalUserId)),
          unlink(organizationKeys.profileById(profile.id)),
          ...(profile.userId
            ? [
                {
                  Update: {
                    TableName: this.identityTable,
                    Key: identityKeys.user(profile.userId),
                    UpdateExpression: 'SET #status = :disabled, disabledAt = :at',
                    ExpressionAttributeNames: { '#status': 'status' },
                    ExpressionAttributeValues: { ':disabled': 'disabled', ':at': at.toISOString() },
                  },
                },
              ]
            : []),
        ],
      }),
    );
    const { userId, ...rest } = profile;
    return userId ? { ...rest, unlinkedUserId: userId } : rest;
  }

  async relinkProfile(profile: Profile, user: IdentityUser, at: Date): Promise<Profile> {
    const relink = (Key: Record<string, string>): TransactItem => ({
      Update: {
        TableName: this.table,
        Key,
        UpdateExpression: 'SET userId = :user, relinkedAt = :at REMOVE unlinkedAt, unlinkedUserId',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(userId)',
        ExpressionAttributeValues: { ':user': user.id, ':at': at.toISOString() },
      },
    });
    const active: IdentityUser = { ...user, status: 'active' };
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            relink(organizationKeys.profile(profile.partnerId, profile.internalOrgId, profile.internalUserId)),
            relink(organizationKeys.profileById(profile.id)),
            { Put: { TableName: this.identityTable, Item: { ...identityKeys.user(active.id), ...active } } },
          ],
        }),
      );
    } catch (error) {
      if (failedConditions(error)?.length)
        throw new ConcurrentModification(`Profile ${profile.id} changed while enabling it; try again`);
      throw error;
    }
    const { unlinkedUserId: _relinked, ...rest } = profile;
    return { ...rest, userId: active.id };
  }

  async updateOrganization(organization: Organization, changes: AttributeChanges<Organization>): Promise<Organization> {
    const key = organizationKeys.organization(organization.partnerId, organization.internalOrgId);
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: key,
          ...attributeUpdate(changes),
          ConditionExpression: 'attribute_exists(pk)',
          ReturnValues: 'ALL_NEW',
        }),
      );
      if (!Attributes) throw new OrganizationNotFound(organization.partnerId, organization.internalOrgId);
      return strip<Organization>(Attributes);
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException)
        throw new OrganizationNotFound(organization.partnerId, organization.internalOrgId);
      throw error;
    }
  }

  async getProfileInOrganization(
    partnerId: PartnerId,
    internalOrgId: string,
    internalUserId: string,
  ): Promise<Profile | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({
        TableName: this.table,
        Key: organizationKeys.profile(partnerId, internalOrgId, internalUserId),
        ConsistentRead: true,
      }),
    );
    return Item ? strip<Profile>(Item) : undefined;
  }

  async updateProfile(profile: Profile, changes: AttributeChanges<Profile>): Promise<Profile> {
    const update = attributeUpdate(changes);
    const onProfileItem = (Key: Record<string, string>): TransactItem => ({
      Update: { TableName: this.table, Key, ...update, ConditionExpression: 'attribute_exists(pk)' },
    });
    const email = changes.set.email;
    const items: TransactItem[] = [
      onProfileItem(organizationKeys.profile(profile.partnerId, profile.internalOrgId, profile.internalUserId)),
      onProfileItem(organizationKeys.profileById(profile.id)),
      // The identity user was created with the profile's email; it follows the profile.
      ...(email !== undefined && profile.userId
        ? [
            {
              Update: {
                TableName: this.identityTable,
                Key: identityKeys.user(profile.userId),
                UpdateExpression: 'SET email = :email',
                ConditionExpression: 'attribute_exists(pk)',
                ExpressionAttributeValues: { ':email': email },
              },
            },
          ]
        : []),
    ];
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: items }));
    } catch (error) {
      const failed = failedConditions(error);
      if (failed?.includes(0) || failed?.includes(1))
        throw new ProfileNotFound(`No profile with internalUserId ${profile.internalUserId}`, { cause: error });
      if (failed || lostTransactionConflict(error))
        throw new ConcurrentModification(`Profile ${profile.id} changed while updating it`, { cause: error });
      throw error;
    }
    const stored = await this.getProfileInOrganization(
      profile.partnerId,
      profile.internalOrgId,
      profile.internalUserId,
    );
    if (!stored) throw new ProfileNotFound(`No profile with internalUserId ${profile.internalUserId}`);
    return stored;
  }

  async addLocation(
    organization: Organization,
    location: ShippingLocation,
    previousDefault: ShippingLocation | undefined,
  ): Promise<void> {
    const items: TransactItem[] = [
      locationPut(this.table, organization, location),
      ...(location.isDefault ? defaultSwitch(this.table, organization, location, previousDefault) : []),
    ];
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: items }));
    } catch (error) {
      const failed = failedConditions(error);
      if (failed?.includes(0))
        throw new ShippingLocationAlreadyExists(location.internalShippingLocationId, { cause: error });
      if (failed || lostTransactionConflict(error))
        throw new ConcurrentModification('the default shipping location changed meanwhile', { cause: error });
      throw error;
    }
  }

  async updateLocation(
    organization: Organization,
    location: ShippingLocation,
    changes: AttributeChanges<ShippingLocation>,
    defaultChange: DefaultChange,
  ): Promise<ShippingLocation> {
    const { partnerId, internalOrgId } = organization;
    const key = organizationKeys.location(partnerId, internalOrgId, location.internalShippingLocationId);
    const update = attributeUpdate(changes);
    const items: TransactItem[] = [
      {
        Update: {
          TableName: this.table,
          Key: key,
          ...update,
          ...staysUsableAsDefault(changes, update.ExpressionAttributeValues),
        },
      },
      ...(defaultChange.kind === 'becomes-default'
        ? defaultSwitch(this.table, organization, location, defaultChange.previous)
        : []),
      ...(defaultChange.kind === 'stops-being-default'
        ? [
            {
              Delete: {
                TableName: this.table,
                Key: organizationKeys.defaultLocation(partnerId, internalOrgId),
                ConditionExpression: 'internalShippingLocationId = :this',
                ExpressionAttributeValues: { ':this': location.internalShippingLocationId },
              },
            },
          ]
        : []),
    ];
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: items }));
    } catch (error) {
      const failed = failedConditions(error);
      const { Item: current } = failed?.includes(0)
        ? await this.db.send(new GetCommand({ TableName: this.table, Key: key, ConsistentRead: true }))
        : { Item: {} };
      if (!current) throw new ShippingLocationNotFound(location.internalShippingLocationId);
      if (failed || lostTransactionConflict(error))
        throw new ConcurrentModification('the shipping location or the default changed meanwhile', { cause: error });
      throw error;
    }
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: key, ConsistentRead: true }));
    if (!Item) throw new ShippingLocationNotFound(location.internalShippingLocationId);
    return strip<ShippingLocation>(Item);
  }
}
