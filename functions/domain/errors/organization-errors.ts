/** Organizations, their profiles and shipping locations: setup and the partner's changes after it. */
import { DomainError } from './domain-error';
import type { Profile } from '../organizations/organization';

export class ProfileNotFound extends DomainError {
  override readonly name = 'ProfileNotFound';
}

/** The profile has no (or a disabled) identity-provider user. */
export class ProfileNotLinked extends DomainError {
  override readonly name = 'ProfileNotLinked';
}

export class UserAlreadyExists extends DomainError {
  override readonly name = 'UserAlreadyExists';
  constructor(
    readonly profileId: string,
    readonly email: string,
    options?: ErrorOptions,
  ) {
    super('A profile with this internalUserId already exists in the organization', options);
  }
}

/** An order event names an organization (partner_org_id) the partner does not have. */
export class OrganizationNotFound extends DomainError {
  override readonly name = 'OrganizationNotFound';
  constructor(
    readonly partnerId: string,
    readonly internalOrgId: string,
  ) {
    super(`Partner ${partnerId} has no organization with internalOrgId "${internalOrgId}"`);
  }
}

/** The organization already existed when we tried to create it (a concurrent or earlier setup). */
export class OrganizationAlreadyExists extends DomainError {
  override readonly name = 'OrganizationAlreadyExists';
}

/** The profile's internalUserId is taken in the organization; `existing` is the one that holds it. */
export class ProfileAlreadyExists extends DomainError {
  override readonly name = 'ProfileAlreadyExists';
  constructor(
    readonly existing: Profile,
    options?: ErrorOptions,
  ) {
    super('Profile already exists', options);
  }
}

/** Setup lost this many races in a row for one organization: something is wrong, so it answers 500. */
export class SetupContention extends DomainError {
  override readonly name = 'SetupContention';
}

/** No shipping location with this internalShippingLocationId in the partner's organization. */
export class ShippingLocationNotFound extends DomainError {
  override readonly name = 'ShippingLocationNotFound';
  constructor(readonly internalShippingLocationId: string) {
    super(`No shipping location with internalShippingLocationId "${internalShippingLocationId}" in the organization`);
  }
}

/**
 * A change that would leave the organization's default location inactive (deactivating
 * the default, or making an inactive location the default): orders that name no location
 * go to the default, so it must be one they can use. Nothing was changed.
 */
export class DefaultLocationInactive extends DomainError {
  override readonly name = 'DefaultLocationInactive';
  constructor(readonly internalShippingLocationId: string) {
    super(
      `Shipping location "${internalShippingLocationId}" would be the default and inactive: make another location the default first, or send isDefault: false with isActive: false`,
    );
  }
}

/** A location added with an internalShippingLocationId the organization already has. */
export class ShippingLocationAlreadyExists extends DomainError {
  override readonly name = 'ShippingLocationAlreadyExists';
  constructor(
    readonly internalShippingLocationId: string,
    options?: ErrorOptions,
  ) {
    super(
      `The organization already has a shipping location with internalShippingLocationId "${internalShippingLocationId}"`,
      options,
    );
  }
}

/** A user who is not an approver asked for the organization's Spending page (only approvers see what others spent). */
export class SpendingForbidden extends DomainError {
  override readonly name = 'SpendingForbidden';
  constructor(readonly profileId: string) {
    super(`Profile ${profileId} is not an approver and cannot see the organization's spending`);
  }
}

/**
 * Stripe did not take the organization's new customer details (down, or its answer lost),
 * so the organization was left as it was: a PATCH changes both or neither.
 */
export class PaymentCustomerNotUpdated extends DomainError {
  override readonly name = 'PaymentCustomerNotUpdated';
  constructor(options?: ErrorOptions) {
    super(
      'Stripe did not take the new customer details, so nothing was changed; retry with exponential backoff',
      options,
    );
  }
}
