/**
 * The 200 body of GET and PATCH /v1/organizations/{internalOrgId}: the organization as
 * setup answers it, plus its contact and billing fields. Strict, so the contract tests
 * hold real responses to it.
 */
// zod/mini: the setup Lambda serves these routes and builds this schema at cold start.
import * as z from 'zod/mini';
import { PAYMENT_TERMS } from '../../domain/billing/payment-terms';
import { billingEmailOf, type Organization, paymentTermsOf } from '../../domain/organizations/organization';
import { AddressBody, toAddressBody } from '../setup/response';

export const OrganizationResponseBody = z.strictObject({
  success: z.literal(true),
  data: z.strictObject({
    organization: z.strictObject({
      id: z.uuid(),
      name: z.string(),
      internalOrgId: z.string(),
      paymentCustomerId: z.string(),
      paymentTerms: z.enum(PAYMENT_TERMS),
      /** Where invoices go: the billing e-mail set, else the organization's e-mail; `null` when neither is. */
      billingEmail: z.nullable(z.string()),
      organizationEmail: z.nullable(z.string()),
      organizationPhone: z.nullable(z.string()),
      billingAddress: z.nullable(AddressBody),
      timeZone: z.nullable(z.string()),
      /** Exempt from sales tax: its orders and invoices carry none (docs/billing.md, "Sales tax"). */
      taxExempt: z.boolean(),
      createdAt: z.iso.datetime(),
    }),
  }),
});
export type OrganizationResponseBody = z.infer<typeof OrganizationResponseBody>;

export function toOrganizationResponse(organization: Organization): OrganizationResponseBody {
  return {
    success: true,
    data: {
      organization: {
        id: organization.id,
        name: organization.name,
        internalOrgId: organization.internalOrgId,
        paymentCustomerId: organization.paymentCustomerId,
        paymentTerms: paymentTermsOf(organization),
        billingEmail: billingEmailOf(organization) ?? null,
        organizationEmail: organization.email ?? null,
        organizationPhone: organization.phone ?? null,
        billingAddress: organization.billingAddress ? toAddressBody(organization.billingAddress) : null,
        timeZone: organization.timeZone ?? null,
        taxExempt: organization.taxExempt === true,
        createdAt: organization.createdAt,
      },
    },
  };
}
