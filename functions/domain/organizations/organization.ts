import type { Address } from '../addresses/address';
import { DEFAULT_PAYMENT_TERMS, type PaymentTerms } from '../billing/payment-terms';
import type { PartnerId } from '../partners/partner';

export type OrganizationId = string & { readonly __brand: 'OrganizationId' };
export type ProfileId = string & { readonly __brand: 'ProfileId' };
export type UserId = string & { readonly __brand: 'UserId' };
export type ShippingLocationId = string & { readonly __brand: 'ShippingLocationId' };

export interface Organization {
  readonly id: OrganizationId;
  readonly partnerId: PartnerId;
  readonly internalOrgId: string;
  readonly name: string;
  readonly paymentCustomerId: string;
  readonly email?: string;
  readonly phone?: string;
  readonly billingAddress?: Address;
  /** IANA time zone set at setup (`timeZone`); the module shows times in it when the browser's is unknown. */
  readonly timeZone?: string;
  /** How long it has to pay an invoice; absent on organizations set up before billing: `net30` (see `paymentTermsOf`). */
  readonly paymentTerms?: PaymentTerms;
  /** Where invoices go; absent: the organization's e-mail (see `billingEmailOf`). */
  readonly billingEmail?: string;
  /** Exempt from sales tax (a resale or exemption certificate on file): its orders and invoices carry no tax. Absent: false. */
  readonly taxExempt?: boolean;
  readonly createdAt: string;
}

export const paymentTermsOf = (organization: Pick<Organization, 'paymentTerms'>): PaymentTerms =>
  organization.paymentTerms ?? DEFAULT_PAYMENT_TERMS;

/** Where the payment provider sends the organization's invoices. */
export const billingEmailOf = (organization: Pick<Organization, 'billingEmail' | 'email'>): string | undefined =>
  organization.billingEmail ?? organization.email;

/** What a profile may do in the module (its approval flow reads it); `buyer` unless set. */
export type ProfileRole = 'buyer' | 'approver';
export const PROFILE_ROLES = ['buyer', 'approver'] as const satisfies readonly ProfileRole[];

export interface Profile {
  readonly id: ProfileId;
  readonly partnerId: PartnerId;
  readonly organizationId: OrganizationId;
  readonly internalOrgId: string;
  readonly internalUserId: string;
  /** The linked identity-provider user; absent once an operator unlinked it. */
  readonly userId?: UserId;
  /** The user an operator unlinked (`profile disable`), kept so `profile enable` can link it again. */
  readonly unlinkedUserId?: UserId;
  readonly firstName: string;
  readonly lastName: string;
  readonly email: string;
  readonly phoneNumber?: string;
  readonly address?: Address;
  /** Absent on profiles set up before roles existed: `buyer` (see `roleOf`). */
  readonly role?: ProfileRole;
  /** The most one order of this user may total, in cents; no limit when absent. */
  readonly orderLimitCents?: number;
  /** The most this user's placed orders may total in a calendar month (organization's zone), in cents; no limit when absent. */
  readonly monthlyLimitCents?: number;
  /**
   * The partner's switch (PATCH `active`): false refuses sign-in whatever the identity
   * user's state; absent means true. Independent of the operator's `profile disable`.
   */
  readonly active?: boolean;
  /** When the partner last deactivated it: handshake links and sessions from before then stay dead. */
  readonly deactivatedAt?: string;
  readonly createdAt: string;
}

export const roleOf = (profile: Profile): ProfileRole => profile.role ?? 'buyer';
export const isActive = (profile: Profile): boolean => profile.active !== false;

export interface ShippingLocation {
  readonly id: ShippingLocationId;
  readonly organizationId: OrganizationId;
  readonly internalShippingLocationId: string;
  readonly name: string;
  readonly nickname?: string;
  readonly address: Address;
  readonly contact?: { readonly name?: string; readonly phone?: string; readonly email?: string };
  readonly deliveryInstructions?: string;
  readonly isDefault: boolean;
  readonly isActive: boolean;
  readonly createdAt: string;
}

/** An organization with everything under it, read in one query. */
export interface OrganizationAggregate {
  readonly organization: Organization;
  readonly profiles: readonly Profile[];
  readonly locations: readonly ShippingLocation[];
}

/** Listing order: when a location was added, then its internalShippingLocationId (as the repository reads them). */
export function inListingOrder(locations: readonly ShippingLocation[]): ShippingLocation[] {
  return [...locations].sort(
    (a, b) =>
      a.createdAt.localeCompare(b.createdAt) || compareIds(a.internalShippingLocationId, b.internalShippingLocationId),
  );
}

const compareIds = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
