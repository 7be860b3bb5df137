import type Stripe from 'stripe';
import type { Address } from '../domain/addresses/address';
import type {
  PaymentCustomerDetails,
  PaymentCustomerRequest,
  PaymentProvider,
} from '../domain/payments/payment-provider';

/**
 * Stripe customers for organizations. Two calls, on purpose:
 *
 * 1. `customers.create` with the idempotency key and only values derived from that key
 *    (the owner metadata). Stripe refuses a reused key whose parameters differ, and a
 *    retried setup may well carry corrected details; with key-derived parameters every
 *    retry and every concurrent setup gets the same customer back.
 * 2. `customers.update` with the details, which is naturally idempotent (last write wins).
 */
export class StripePayments implements PaymentProvider {
  constructor(private readonly stripe: () => Promise<Stripe>) {}

  async ensureCustomer({ idempotencyKey, owner, details }: PaymentCustomerRequest): Promise<string> {
    const stripe = await this.stripe();
    const customer = await stripe.customers.create(
      { metadata: { partnerId: owner.partnerId, environment: owner.stage, internalOrgId: owner.internalOrgId } },
      { idempotencyKey },
    );
    await this.updateCustomer(customer.id, details);
    return customer.id;
  }

  async updateCustomer(customerId: string, details: PaymentCustomerDetails): Promise<void> {
    const stripe = await this.stripe();
    // An empty string clears a field at Stripe, so details removed on a retry do not linger.
    await stripe.customers.update(customerId, {
      name: details.name,
      email: details.email ?? '',
      phone: details.phone ?? '',
      address: details.billingAddress ? toStripeAddress(details.billingAddress) : '',
      // What Stripe's dashboard, its invoices and its reports show; the service's own quotes pass the exemption to
      // each Stripe Tax calculation (stripe-tax.ts), so the two never need to be read back.
      tax_exempt: details.taxExempt ? 'exempt' : 'none',
    });
  }
}

function toStripeAddress(address: Address): Stripe.AddressParam {
  return {
    line1: address.line1,
    ...(address.line2 ? { line2: address.line2 } : {}),
    city: address.city,
    state: address.province,
    postal_code: address.postalCode,
    // Only the United States is accepted (contract: Limits); Stripe wants ISO 3166-1 alpha-2.
    country: 'US',
  };
}
