import type Stripe from 'stripe';
import { LATEST_STRIPE_EVENT_CREATED, type VerifiedStripeEvent } from '../domain/billing/stripe-events';
import { ValidationFailed } from '../domain/errors';

/** The SDK's tolerance for a signature's age, which this adapter applies to the future too (clock skew beyond it is a replay or a forgery). */
const TOLERANCE_SECONDS = 300;

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

/** Stripe's `created`: whole seconds since 1970, no later than an ISO 8601 time can say. */
const isEpochSeconds = (created: unknown): created is number =>
  Number.isSafeInteger(created) && (created as number) >= 0 && (created as number) <= LATEST_STRIPE_EVENT_CREATED;

/** The signature's latest `t=` (epoch seconds); the SDK has already refused a header without one. */
const signedAt = (signature: string): number =>
  Math.max(
    ...signature
      .split(',')
      .filter((part) => part.trim().startsWith('t='))
      .map((part) => Number(part.trim().slice(2))),
  );

/**
 * Verifies a Stripe event with the SDK's `webhooks.constructEvent` (signature, and a
 * timestamp at most 5 minutes old) and the stack's endpoint secret, refuses a timestamp
 * more than 5 minutes ahead (the SDK only bounds the past), and reads what the service
 * needs of it. `nowSeconds` is the wall clock the signature was made by. Every failure is
 * ValidationFailed (400), whose message never carries the body.
 */
export function verifyStripeEvent(
  stripe: Pick<Stripe, 'webhooks'>,
  rawBody: Buffer | string | undefined,
  signature: string | undefined,
  endpointSecret: string,
  nowSeconds: number,
): VerifiedStripeEvent {
  const signed = refuseUnverifiable(rawBody, signature);
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(
      signed.rawBody,
      signed.signature,
      endpointSecret,
      TOLERANCE_SECONDS,
      undefined,
      nowSeconds * 1000,
    );
  } catch {
    throw refused('The signature does not match the body, or its timestamp is more than 5 minutes old');
  }
  if (!(signedAt(signed.signature) <= nowSeconds + TOLERANCE_SECONDS))
    throw refused('The signature is dated more than 5 minutes in the future');
  if (typeof event.id !== 'string' || typeof event.type !== 'string' || !isEpochSeconds(event.created))
    throw refused('The body is not a Stripe event');
  const object = event.data?.object as Partial<Stripe.Invoice> | undefined;
  if (object?.object !== 'invoice' || typeof object.id !== 'string')
    return { id: event.id, type: event.type, created: event.created };
  const orderId = object.metadata?.orderId;
  return {
    id: event.id,
    type: event.type,
    created: event.created,
    // Only which invoice and which order: its state is read from Stripe (StripeEvents).
    invoice: { id: object.id, ...(typeof orderId === 'string' ? { orderId } : {}) },
  };
}
