import { createHash } from 'node:crypto';
import type { Address } from '../addresses/address';
import type { PartnerId } from '../partners/partner';

/** What the payment provider's customer record says about an organization (its billing contact). */
export interface PaymentCustomerDetails {
  readonly name: string;
  readonly email?: string;
  readonly phone?: string;
  readonly billingAddress?: Address;
  /** The customer's tax status at the provider (Stripe's `tax_exempt`: `exempt` or `none`). */
  readonly taxExempt: boolean;
}

export interface PaymentCustomerRequest {
  /**
   * The same key always yields the same customer, however often and however
   * concurrently it is asked for: retried and racing setups share one customer.
   */
  readonly idempotencyKey: string;
  /** Who the customer belongs to; recorded on the customer for reconciliation. */
  readonly owner: { readonly partnerId: PartnerId; readonly stage: string; readonly internalOrgId: string };
  readonly details: PaymentCustomerDetails;
}

/** Port to the billing provider (Stripe in production). */
export interface PaymentProvider {
  /**
   * Creates the customer for `idempotencyKey`, or finds the one created for it before,
   * and gives it `details` (the last call's details win). Returns the customer id.
   */
  ensureCustomer(request: PaymentCustomerRequest): Promise<string>;
  /**
   * Gives the existing customer `details` (last write wins). Never creates one: the
   * provider forgets idempotency keys after a day, so a later `ensureCustomer` could.
   */
  updateCustomer(customerId: string, details: PaymentCustomerDetails): Promise<void>;
}

/**
 * One key per organization to be: partner, environment and internalOrgId. Hashed so any
 * internalOrgId (up to 256 characters, any script) fits the provider's 255-character limit.
 */
export function paymentCustomerIdempotencyKey(owner: PaymentCustomerRequest['owner']): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([owner.stage, owner.partnerId, owner.internalOrgId]))
    .digest('hex');
  return `organization-customer-${digest}`;
}
