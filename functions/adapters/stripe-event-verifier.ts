import type Stripe from 'stripe';
import type { VerifiedStripeEvent } from '../domain/billing/stripe-events';
import { ValidationFailed } from '../domain/errors';

/** Stripe's own bodies are a few KiB; anything far larger is refused before it is parsed. */
const MAX_STRIPE_EVENT_BYTES = 256 * 1024;

const refused = (message: string) =>
  new ValidationFailed(
    [{ code: 'INVALID_STRIPE_EVENT', path: ['Stripe-Signature'], message }],
    'The Stripe event could not be verified',
  );

/** What can be refused without the endpoint secret: checked before the secret is read, so a flood of unsigned bodies costs no Secrets Manager call. */
export function refuseUnverifiable(
  rawBody: Buffer | string | undefined,
  signature: string | undefined,
): { readonly rawBody: Buffer | string; readonly signature: string } {
  if (!signature) throw refused('The Stripe-Signature header is missing');
  if (!rawBody || rawBody.length === 0) throw refused('The body is empty');
  if (Buffer.byteLength(rawBody) > MAX_STRIPE_EVENT_BYTES) throw refused('The body is too large');
  return { rawBody, signature };
}

/**
 * Verifies a Stripe event with the SDK's `webhooks.constructEvent` (signature, tolerance)
 * and the stack's endpoint secret, and reads what the service needs of it. Every failure
 * is ValidationFailed (400), whose message never carries the body.
 */
export function verifyStripeEvent(
  stripe: Pick<Stripe, 'webhooks'>,
  rawBody: Buffer | string | undefined,
  signature: string | undefined,
  endpointSecret: string,
): VerifiedStripeEvent {
  const signed = refuseUnverifiable(rawBody, signature);
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(signed.rawBody, signed.signature, endpointSecret);
  } catch {
    throw refused('The signature does not match the body');
  }
  if (typeof event.id !== 'string' || typeof event.type !== 'string' || typeof event.created !== 'number')
    throw refused('The body is not a Stripe event');
  const object = event.data?.object as Partial<Stripe.Invoice> | undefined;
  if (object?.object !== 'invoice' || typeof object.id !== 'string')
    return { id: event.id, type: event.type, created: event.created };
  const orderId = object.metadata?.orderId;
  return {
    id: event.id,
    type: event.type,
    created: event.created,
    invoice: {
      id: object.id,
      amountPaidCents: object.amount_paid ?? 0,
      amountRemainingCents: object.amount_remaining ?? 0,
      ...(orderId ? { orderId } : {}),
    },
  };
}
