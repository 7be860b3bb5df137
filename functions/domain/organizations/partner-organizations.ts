import { OrganizationNotFound } from '../errors';
import type { PartnerId } from '../partners/partner';
import type { PaymentProvider } from '../payments/payment-provider';
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
   * 2. only the attributes given are written (concurrent changes of other fields are kept);
   * 3. the organization's payment customer gets the details as they now stand: updated,
   *    never created again, so `paymentCustomerId` never changes. A failure here answers
   *    500 after the write; the PATCH is safe to repeat and brings the customer in line.
   */
  async update(partnerId: PartnerId, internalOrgId: string, update: OrganizationUpdate): Promise<Organization> {
    const organization = await this.get(partnerId, internalOrgId);
    const updated = await this.organizations.updateOrganization(organization, organizationChanges(update));
    await this.payments.updateCustomer(updated.paymentCustomerId, customerDetailsOf(updated));
    return updated;
  }
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
