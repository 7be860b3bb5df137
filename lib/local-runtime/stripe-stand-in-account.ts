/**
 * The stand-in Stripe account's public business details: the seller its hosted invoice
 * pages and PDFs print, as Stripe prints the account's own (Dashboard, Settings, Public
 * details) on every invoice. The supplier's real details live in its Stripe account, never
 * in this service; these are the local stand-in's (docs/billing.md, "The hosted page and PDF").
 */
export interface SellerDetails {
  readonly name: string;
  readonly addressLines: readonly string[];
  readonly email: string;
  readonly phone: string;
}

export const STAND_IN_SELLER: SellerDetails = {
  name: 'Example Procurement Co.',
  addressLines: ['500 Supply Way, Suite 200', 'Richmond, VA 23219', 'United States'],
  email: 'billing@example-procurement.com',
  phone: '+1 804-555-0100',
};
