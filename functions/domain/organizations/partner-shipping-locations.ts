import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import {
  DefaultLocationInactive,
  OrganizationNotFound,
  ShippingLocationAlreadyExists,
  ShippingLocationNotFound,
  ValidationFailed,
} from '../errors';
import type { PartnerId } from '../partners/partner';
import type { ShippingLocationCreate, ShippingLocationUpdate } from './change-requests';
import type { OrganizationAggregate, ShippingLocation, ShippingLocationId } from './organization';
import { MAX_LOCATIONS_PER_ORGANIZATION, newShippingLocation } from './organization-setup';
import type { AttributeChanges, DefaultChange, OrganizationRepository } from './organization-repository';
import { retryOnContention } from './retry-on-contention';

/**
 * The partner's shipping locations after setup: POST and PATCH
 * /v1/organizations/{internalOrgId}/shipping-locations[/{internalShippingLocationId}]
 * (docs/setup.md). The organization keeps at most one default: making a location the
 * default takes it from the previous one in the same transaction.
 */
export class PartnerShippingLocations {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly clock: Clock,
    private readonly newId: () => string = randomUUID,
  ) {}

  /**
   * 1. the organization must be the partner's (OrganizationNotFound);
   * 2. the internalShippingLocationId must be new (ShippingLocationAlreadyExists, also
   *    enforced by the write's condition) and the organization below its maximum;
   * 3. the location is written, as the default when asked (the previous default stops
   *    being one), retried from a fresh read when the default changed meanwhile.
   */
  async create(partnerId: PartnerId, internalOrgId: string, input: ShippingLocationCreate): Promise<ShippingLocation> {
    const id = this.newId() as ShippingLocationId;
    return retryOnContention(async () => {
      const { organization, locations } = await this.requireOrganization(partnerId, internalOrgId);
      if (locations.some((l) => l.internalShippingLocationId === input.internalShippingLocationId)) {
        throw new ShippingLocationAlreadyExists(input.internalShippingLocationId);
      }
      if (locations.length >= MAX_LOCATIONS_PER_ORGANIZATION) {
        const message = `The organization has ${locations.length} shipping locations; at most ${MAX_LOCATIONS_PER_ORGANIZATION} are allowed`;
        throw new ValidationFailed([{ code: 'TOO_MANY_ITEMS', message, path: [] }], message);
      }
      const location = newShippingLocation(id, organization.id, input, input.isDefault, this.clock.now().toISOString());
      await this.organizations.addLocation(
        organization,
        location,
        locations.find((l) => l.isDefault),
      );
      return location;
    });
  }

  /**
   * 1. the location must be in the partner's organization (OrganizationNotFound, ShippingLocationNotFound);
   * 2. only the fields given are written; `isDefault` moves the organization's default in
   *    the same transaction, retried from a fresh read when the default changed meanwhile.
   */
  async update(
    partnerId: PartnerId,
    internalOrgId: string,
    internalShippingLocationId: string,
    update: ShippingLocationUpdate,
  ): Promise<ShippingLocation> {
    return retryOnContention(async () => {
      const aggregate = await this.requireOrganization(partnerId, internalOrgId);
      const location = aggregate.locations.find((l) => l.internalShippingLocationId === internalShippingLocationId);
      if (!location) throw new ShippingLocationNotFound(internalShippingLocationId);
      const { changes, defaultChange } = locationChanges(aggregate, location, update);
      if (changes.remove.length === 0 && Object.keys(changes.set).length === 0) return location;
      return this.organizations.updateLocation(aggregate.organization, location, changes, defaultChange);
    });
  }

  private async requireOrganization(partnerId: PartnerId, internalOrgId: string): Promise<OrganizationAggregate> {
    const aggregate = await this.organizations.getOrganization(partnerId, internalOrgId);
    if (!aggregate) throw new OrganizationNotFound(partnerId, internalOrgId);
    return aggregate;
  }
}

function locationChanges(
  aggregate: OrganizationAggregate,
  location: ShippingLocation,
  update: ShippingLocationUpdate,
): { changes: AttributeChanges<ShippingLocation>; defaultChange: DefaultChange } {
  const set: { -readonly [K in keyof ShippingLocation]?: ShippingLocation[K] } = {};
  const remove: (keyof ShippingLocation)[] = [];
  if (update.name !== undefined) set.name = update.name;
  if (update.nickname === null) remove.push('nickname');
  else if (update.nickname !== undefined) set.nickname = update.nickname;
  if (update.address !== undefined) set.address = update.address;
  // As at setup, a contact with nothing in it is no contact.
  const contact =
    update.contact && Object.values(update.contact).some((v) => v !== undefined)
      ? update.contact
      : update.contact === undefined
        ? undefined
        : null;
  if (contact === null) remove.push('contact');
  else if (contact !== undefined) set.contact = contact;
  if (update.deliveryInstructions === null) remove.push('deliveryInstructions');
  else if (update.deliveryInstructions !== undefined) set.deliveryInstructions = update.deliveryInstructions;
  if (update.isActive !== undefined) set.isActive = update.isActive;

  let defaultChange: DefaultChange = { kind: 'none' };
  if (update.isDefault === true && !location.isDefault) {
    set.isDefault = true;
    const previous = aggregate.locations.find((l) => l.isDefault);
    defaultChange = previous ? { kind: 'becomes-default', previous } : { kind: 'becomes-default' };
  } else if (update.isDefault === false && location.isDefault) {
    set.isDefault = false;
    defaultChange = { kind: 'stops-being-default' };
  }
  const isDefault = set.isDefault ?? location.isDefault;
  const isActive = set.isActive ?? location.isActive;
  if (isDefault && !isActive) throw new DefaultLocationInactive(location.internalShippingLocationId);
  return { changes: { set, remove }, defaultChange };
}
