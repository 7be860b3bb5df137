import { randomUUID } from 'node:crypto';
import { canonicalJson } from '../canonical-json';
import type { Clock } from '../clock';
import {
  ConcurrentModification,
  OrganizationAlreadyExists,
  ProfileAlreadyExists,
  SetupContention,
  UserAlreadyExists,
  ValidationFailed,
} from '../errors';
import type { IdempotencyCompletion } from '../idempotency/idempotency-completion';
import type { IdentityUser } from '../identity/identity-user';
import type { PartnerId } from '../partners/partner';
import {
  type PaymentCustomerDetails,
  type PaymentCustomerRequest,
  type PaymentProvider,
  paymentCustomerIdempotencyKey,
} from '../payments/payment-provider';
import type {
  Organization,
  OrganizationAggregate,
  OrganizationId,
  Profile,
  ProfileId,
  ShippingLocation,
  ShippingLocationId,
  UserId,
} from './organization';
import { billingEmailOf, inListingOrder } from './organization';
import { DEFAULT_PAYMENT_TERMS } from '../billing/payment-terms';
import type { OrganizationRepository } from './organization-repository';
import type { SetupInput, ShippingLocationInput } from './setup-request';

/**
 * Every setup response lists all of an organization's locations, and the organization's
 * items are read in one query: without a bound, one organization could grow its setup
 * response past Lambda's 6 MB and its reads past what a 10 s handshake can afford.
 */
export const MAX_LOCATIONS_PER_ORGANIZATION = 200;

/** What a successful setup produced, and the organization's locations as they now stand. */
export interface SetupResult {
  readonly organization: Organization;
  readonly profile: Profile;
  readonly locations: readonly ShippingLocation[];
  readonly isNewOrganization: boolean;
}

export interface OrganizationSetupOptions {
  readonly organizations: OrganizationRepository;
  readonly payments: PaymentProvider;
  readonly clock: Clock;
  /** `production` or `sandbox`: part of the payment customer's identity. */
  readonly stage: string;
  readonly newId?: () => string;
  readonly maxAttempts?: number;
  /** Waits before the next attempt after a lost race; jittered so racers spread out. */
  readonly backoff?: (attempt: number) => Promise<void>;
}

/**
 * The Idempotency-Key completion for a result: the setup writes it in the transaction
 * that stores that result, so the key is completed exactly when the setup commits.
 */
export type CompletionFor = (result: SetupResult) => IdempotencyCompletion;

const jitteredBackoff = (attempt: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * 25 * attempt));

/**
 * POST /v1/organizations/setup as a use case (contract: setup behaviour 1-5).
 *
 * Every write is one DynamoDB transaction guarded by conditions, so a failure leaves
 * nothing behind and a retry starts clean. The payment customer is created before that
 * transaction under an idempotency key of the organization itself, so retried and racing
 * setups share one customer. A lost race (the organization or a location appeared
 * meanwhile) re-reads and tries again, a bounded number of times.
 */
export class OrganizationSetup {
  private readonly newId: () => string;
  private readonly maxAttempts: number;
  private readonly backoff: (attempt: number) => Promise<void>;

  constructor(private readonly options: OrganizationSetupOptions) {
    this.newId = options.newId ?? randomUUID;
    this.maxAttempts = options.maxAttempts ?? 5;
    this.backoff = options.backoff ?? jitteredBackoff;
  }

  /**
   * `completionFor`, with an Idempotency-Key, is the key's completion for a result, written
   * in the transaction that stores it.
   */
  async setup(partnerId: PartnerId, input: SetupInput, completionFor?: CompletionFor): Promise<SetupResult> {
    const { organizations } = this.options;
    let customer: { id: string; request: PaymentCustomerRequest } | undefined;
    let winnersDetailsRestored = false;

    for (let attempt = 1; ; attempt += 1) {
      const existing = await organizations.getOrganization(partnerId, input.internalOrgId);
      try {
        if (!existing) {
          if (!customer) {
            const request = this.customerRequest(partnerId, input.internalOrgId, organizationDetails(input));
            customer = { id: await this.options.payments.ensureCustomer(request), request };
          }
          return await this.createOrganization(partnerId, input, customer.id, completionFor);
        }
        if (customer && !winnersDetailsRestored) {
          await this.restoreWinnersDetails(existing.organization, customer);
          winnersDetailsRestored = true;
        }
        return await this.joinOrganization(existing, input, completionFor);
      } catch (error) {
        const lostRace = error instanceof OrganizationAlreadyExists || error instanceof ConcurrentModification;
        if (!lostRace) throw error;
        if (attempt >= this.maxAttempts) {
          throw new SetupContention(`Setup of ${input.internalOrgId} lost ${attempt} races in a row`);
        }
        await this.backoff(attempt);
      }
    }
  }

  private async createOrganization(
    partnerId: PartnerId,
    input: SetupInput,
    paymentCustomerId: string,
    completionFor: CompletionFor | undefined,
  ): Promise<SetupResult> {
    const createdAt = this.options.clock.now().toISOString();
    const organization: Organization = {
      id: this.newId() as OrganizationId,
      partnerId,
      internalOrgId: input.internalOrgId,
      name: input.organizationName,
      paymentCustomerId,
      ...(input.organizationEmail ? { email: input.organizationEmail } : {}),
      ...(input.organizationPhone ? { phone: input.organizationPhone } : {}),
      ...(input.billingAddress ? { billingAddress: input.billingAddress } : {}),
      ...(input.timeZone ? { timeZone: input.timeZone } : {}),
      paymentTerms: input.paymentTerms ?? DEFAULT_PAYMENT_TERMS,
      ...(input.billingEmail ? { billingEmail: input.billingEmail } : {}),
      taxExempt: input.taxExempt === true,
      createdAt,
    };
    const { profile, user } = this.newProfile(organization, input, createdAt);
    const locations = (input.shippingLocations ?? []).map((location) =>
      this.newLocation(organization.id, location, location.isDefault, createdAt),
    );
    const result: SetupResult = {
      organization,
      profile,
      locations: inListingOrder(locations),
      isNewOrganization: true,
    };
    const completion = completionFor?.(result);
    await this.options.organizations.createOrganization({
      organization,
      profile,
      user,
      locations,
      ...(completion ? { completion } : {}),
    });
    return result;
  }

  /**
   * A further user of an existing organization. Locations whose internalShippingLocationId
   * is new are added, known ones are left as they are, so a retried setup changes nothing. A requested default
   * only becomes the default while the organization has none (docs/decisions.md).
   */
  private async joinOrganization(
    existing: OrganizationAggregate,
    input: SetupInput,
    completionFor: CompletionFor | undefined,
  ): Promise<SetupResult> {
    const { organization } = existing;
    const taken = existing.profiles.find((p) => p.internalUserId === input.internalUserId);
    if (taken) throw new UserAlreadyExists(taken.id, taken.email);

    const createdAt = this.options.clock.now().toISOString();
    const { profile, user } = this.newProfile(organization, input, createdAt);
    const known = new Set(existing.locations.map((l) => l.internalShippingLocationId));
    const hasDefault = existing.locations.some((l) => l.isDefault);
    const newLocations = (input.shippingLocations ?? [])
      .filter((location) => !known.has(location.internalShippingLocationId))
      .map((location) => this.newLocation(organization.id, location, location.isDefault && !hasDefault, createdAt));
    const total = existing.locations.length + newLocations.length;
    if (total > MAX_LOCATIONS_PER_ORGANIZATION) {
      const message = `shippingLocations would give the organization ${total} shipping locations; at most ${MAX_LOCATIONS_PER_ORGANIZATION} are allowed`;
      throw new ValidationFailed([{ code: 'TOO_MANY_ITEMS', message, path: ['shippingLocations'] }], message);
    }

    const result: SetupResult = {
      organization,
      profile,
      locations: inListingOrder([...existing.locations, ...newLocations]),
      isNewOrganization: false,
    };
    const completion = completionFor?.(result);
    try {
      await this.options.organizations.addProfile({
        organization,
        profile,
        user,
        newLocations,
        ...(completion ? { completion } : {}),
      });
    } catch (error) {
      if (error instanceof ProfileAlreadyExists)
        throw new UserAlreadyExists(error.existing.id, error.existing.email, { cause: error });
      throw error;
    }
    return result;
  }

  /**
   * We lost the creation race after giving the (shared) payment customer our details;
   * the stored organization is the winner's, so its details go back onto the customer.
   * The winner wrote its details before its transaction, which precedes our read.
   */
  private async restoreWinnersDetails(winner: Organization, customer: { id: string; request: PaymentCustomerRequest }) {
    if (winner.paymentCustomerId !== customer.id) return;
    const details = customerDetailsOf(winner);
    if (canonicalJson(details) === canonicalJson(customer.request.details)) return;
    await this.options.payments.ensureCustomer({ ...customer.request, details });
  }

  private customerRequest(
    partnerId: PartnerId,
    internalOrgId: string,
    details: PaymentCustomerDetails,
  ): PaymentCustomerRequest {
    const owner = { partnerId, stage: this.options.stage, internalOrgId };
    return { idempotencyKey: paymentCustomerIdempotencyKey(owner), owner, details };
  }

  private newProfile(
    organization: Organization,
    input: SetupInput,
    createdAt: string,
  ): { profile: Profile; user: IdentityUser } {
    const profileId = this.newId() as ProfileId;
    const userId = this.newId() as UserId;
    const profile: Profile = {
      id: profileId,
      partnerId: organization.partnerId,
      organizationId: organization.id,
      internalOrgId: organization.internalOrgId,
      internalUserId: input.internalUserId,
      userId,
      firstName: input.user.firstName,
      lastName: input.user.lastName,
      email: input.user.email,
      ...(input.user.phoneNumber ? { phoneNumber: input.user.phoneNumber } : {}),
      ...(input.userAddress ? { address: input.userAddress } : {}),
      ...(input.user.role ? { role: input.user.role } : {}),
      ...(input.user.orderLimit === undefined ? {} : { orderLimitCents: input.user.orderLimit }),
      ...(input.user.monthlyLimit === undefined ? {} : { monthlyLimitCents: input.user.monthlyLimit }),
      createdAt,
    };
    const user: IdentityUser = {
      id: userId,
      partnerId: organization.partnerId,
      profileId,
      email: input.user.email,
      status: 'active',
      createdAt,
    };
    return { profile, user };
  }

  private newLocation(
    organizationId: OrganizationId,
    input: ShippingLocationInput,
    isDefault: boolean,
    createdAt: string,
  ): ShippingLocation {
    return newShippingLocation(this.newId() as ShippingLocationId, organizationId, input, isDefault, createdAt);
  }
}

/** A location as setup (and POST .../shipping-locations) stores it: active, empty contacts dropped. */
export function newShippingLocation(
  id: ShippingLocationId,
  organizationId: OrganizationId,
  input: ShippingLocationInput,
  isDefault: boolean,
  createdAt: string,
): ShippingLocation {
  const contact =
    input.contact && Object.values(input.contact).some((v) => v !== undefined) ? input.contact : undefined;
  return {
    id,
    organizationId,
    internalShippingLocationId: input.internalShippingLocationId,
    name: input.name,
    ...(input.nickname ? { nickname: input.nickname } : {}),
    address: input.address,
    ...(contact ? { contact } : {}),
    ...(input.deliveryInstructions ? { deliveryInstructions: input.deliveryInstructions } : {}),
    isDefault,
    isActive: true,
    createdAt,
  };
}

/** The payment customer's details of a stored organization. */
export const customerDetailsOf = (organization: Organization): PaymentCustomerDetails =>
  organizationDetails({
    organizationName: organization.name,
    organizationEmail: organization.email,
    organizationPhone: organization.phone,
    billingAddress: organization.billingAddress,
    billingEmail: organization.billingEmail,
    taxExempt: organization.taxExempt,
  });

/**
 * The payment customer carries the organization's own contact fields, not the first
 * user's: so anyone holding the stored organization can derive the same details. Its
 * e-mail is where the provider sends invoices: the billing e-mail, else the organization's.
 */
function organizationDetails(
  input: Pick<
    SetupInput,
    'organizationName' | 'organizationEmail' | 'organizationPhone' | 'billingAddress' | 'billingEmail' | 'taxExempt'
  >,
): PaymentCustomerDetails {
  const email = billingEmailOf({ email: input.organizationEmail, billingEmail: input.billingEmail });
  return {
    name: input.organizationName,
    ...(email ? { email } : {}),
    ...(input.organizationPhone ? { phone: input.organizationPhone } : {}),
    ...(input.billingAddress ? { billingAddress: input.billingAddress } : {}),
    taxExempt: input.taxExempt === true,
  };
}
