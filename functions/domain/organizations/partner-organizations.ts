import { canonicalJson } from '../canonical-json';
import { OrganizationNotFound, PaymentCustomerNotUpdated } from '../errors';
import type { PartnerId } from '../partners/partner';
import type { PaymentCustomerDetails, PaymentProvider } from '../payments/payment-provider';
import type { OrganizationUpdate } from './change-requests';
import type { Organization } from './organization';
import { customerDetailsOf } from './organization-setup';
import type { AttributeChanges, OrganizationRepository } from './organization-repository';

/**
 * The partner's own view and control of one of its organizations:
 * GET and PATCH /v1/organizations/{internalOrgId} (docs/setup.md). Organizations are keyed
 * by partner, so another partner's is simply not found.
 */
export class PartnerOrganizations {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly payments: PaymentProvider,
  ) {}

  async get(partnerId: PartnerId, internalOrgId: string): Promise<Organization> {
    const aggregate = await this.organizations.getOrganization(partnerId, internalOrgId);
    if (!aggregate) throw new OrganizationNotFound(partnerId, internalOrgId);
    return aggregate.organization;
  }

  /**
   * 1. the organization must be the partner's (OrganizationNotFound);
   * 2. the payment customer gets the details first, so a Stripe failure changes nothing
   *    (PaymentCustomerNotUpdated, after putting back the details Stripe may have taken
   *    before its answer was lost): the organization and its customer change together or not at all;
   * 3. only the attributes given are written (concurrent changes of other fields are kept), and
   *    when such a change makes the stored details differ from the ones sent, the customer gets those;
   * 4. the customer is updated, never created again, so `paymentCustomerId` never changes.
   */
  async update(partnerId: PartnerId, internalOrgId: string, update: OrganizationUpdate): Promise<Organization> {
    const organization = await this.get(partnerId, internalOrgId);
    const changes = organizationChanges(update);
    const before = customerDetailsOf(organization);
    const sent = customerDetailsOf(withChanges(organization, changes));
    try {
      await this.payments.updateCustomer(organization.paymentCustomerId, sent);
    } catch (failure) {
      await this.putBack(organization.paymentCustomerId, before);
      throw new PaymentCustomerNotUpdated({ cause: failure });
    }
    let updated: Organization;
    try {
      updated = await this.organizations.updateOrganization(organization, changes);
    } catch (failure) {
      await this.putBack(organization.paymentCustomerId, before);
      throw failure;
    }
    const stored = customerDetailsOf(updated);
    if (canonicalJson(stored) !== canonicalJson(sent))
      await this.payments.updateCustomer(updated.paymentCustomerId, stored);
    return updated;
  }

  /** Best effort: if Stripe is still out of reach, it never took the new details either. */
  private async putBack(customerId: string, details: PaymentCustomerDetails): Promise<void> {
    await this.payments.updateCustomer(customerId, details).catch(() => undefined);
  }
}

/** The organization as the changes would leave it. */
function withChanges(organization: Organization, changes: AttributeChanges<Organization>): Organization {
  const changed = { ...organization, ...changes.set };
  for (const attribute of changes.remove) Reflect.deleteProperty(changed, attribute);
  return changed;
}

/** The PATCH body as attribute changes: absent fields untouched, `null` removes. */
function organizationChanges(update: OrganizationUpdate): AttributeChanges<Organization> {
  const set: { -readonly [K in keyof Organization]?: Organization[K] } = {};
  const remove: (keyof Organization)[] = [];
  const removable = <K extends 'email' | 'phone' | 'billingAddress' | 'billingEmail' | 'timeZone'>(
    attribute: K,
    value: Organization[K] | null | undefined,
  ) => {
    if (value === null) remove.push(attribute);
    else if (value !== undefined) set[attribute] = value;
  };
  if (update.organizationName !== undefined) set.name = update.organizationName;
  removable('email', update.organizationEmail);
  removable('phone', update.organizationPhone);
  removable('billingAddress', update.billingAddress);
  removable('billingEmail', update.billingEmail);
  removable('timeZone', update.timeZone);
  if (update.paymentTerms !== undefined) set.paymentTerms = update.paymentTerms;
  if (update.taxExempt !== undefined) set.taxExempt = update.taxExempt;
  return { set, remove };
}
