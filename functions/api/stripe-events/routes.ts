import type { VerifiedStripeEvent, StripeEvents } from '../../domain/billing/stripe-events';
import type { HttpDependencies } from '../../http/http-dependencies';
import type { HttpLambda } from '../../http/http-context';
import { json } from '../../http/responses';
import { signedEventHandler } from '../pipeline/signed-event-handler';

/** What Stripe's route needs: the verifier (the endpoint secret inside) and the events' use case. */
export interface StripeEventsRouteDependencies extends HttpDependencies {
  /** Verifies the exact bytes against `Stripe-Signature` and the stack's endpoint secret; ValidationFailed otherwise. */
  readonly verifyStripeEvent: (rawBody: Buffer, signature: string | undefined) => Promise<VerifiedStripeEvent>;
  readonly stripeEvents: Pick<StripeEvents, 'handle'>;
}

/**
 * `POST /v1/stripe/events` (docs/billing.md): a verified event is answered 200 whether it
 * changed the invoice, was seen before, changed nothing or is of a kind the service does
 * not follow or cannot apply (logged with its reason, never stored, never a 500), so Stripe
 * stops sending it; a forged one is 400 (Stripe shows it failed) and an
 * event about an invoice not recorded yet is 503, which Stripe retries.
 */
export const stripeEventRoutes = <D extends StripeEventsRouteDependencies>(getDependencies: () => Promise<D>) =>
  ({
    'stripe-events': signedEventHandler('stripe-events', getDependencies, async ({ rawBody, signature, deps }) => {
      const event = await deps.verifyStripeEvent(rawBody, signature);
      const { outcome, reason } = await deps.stripeEvents.handle(event);
      // When Stripe made the event, beside when it was applied (the line's own time): `ops order trace` shows both.
      const created = new Date(event.created * 1000).toISOString();
      const log = { msg: 'stripe_event', stripeEventId: event.id, type: event.type, created, outcome };
      // An invoice event that could not be applied is an error line (an operator looks); other kinds are routine.
      if (reason && reason !== 'kind_not_followed') deps.logger.error({ ...log, reason });
      else deps.logger.info(log);
      return json(200, { received: true, outcome });
    }),
  }) satisfies Record<'stripe-events', HttpLambda>;
