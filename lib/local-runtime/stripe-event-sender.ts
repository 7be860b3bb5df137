/**
 * The stand-in's webhook endpoints and the events it sends them: each a `Stripe.Event`,
 * signed per endpoint with the SDK's own test header, as Stripe signs its own.
 */
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { StripeError } from './stripe-error';
import { type FormValue, text } from './stripe-form-body';
import type { StandInEvent } from './stripe-invoice-store';
import { stripeId } from './stripe-stand-in-objects';

const API_VERSION = '2025-11-17.clover';
const sdk = new Stripe('sk_test_stand_in');

interface WebhookEndpoint {
  readonly id: string;
  readonly url: string;
  readonly secret: string;
}

export class StripeEventSender {
  private readonly endpoints = new Map<string, WebhookEndpoint>();
  private readonly pendingDeliveries = new Set<Promise<void>>();

  constructor(
    private readonly options: {
      /** Stripe's clock: whole seconds. */
      readonly seconds: () => number;
      /** Delivers a signed event; the default POSTs it. */
      readonly deliver?: (url: string, body: string, signature: string) => Promise<void>;
    },
  ) {}

  createEndpoint(body: Record<string, FormValue>): {
    id: string;
    object: 'webhook_endpoint';
    url: string;
    secret: string;
  } {
    const url = text(body.url);
    if (!url) throw new StripeError(400, 'invalid_request_error', 'Missing required param: url.', 'parameter_missing');
    const endpoint = { id: stripeId('we'), url, secret: `whsec_${randomBytes(24).toString('hex')}` };
    this.endpoints.set(endpoint.id, endpoint);
    return { ...endpoint, object: 'webhook_endpoint' };
  }

  /** One Stripe.Event, signed per endpoint, sent to every registered endpoint. */
  send(event: StandInEvent): void {
    const payload = {
      id: stripeId('evt'),
      object: 'event',
      api_version: API_VERSION,
      created: this.options.seconds(),
      data: { object: structuredClone(event.object) },
      livemode: false,
      pending_webhooks: this.endpoints.size,
      request: { id: null, idempotency_key: null },
      type: event.type,
    } as Stripe.Event;
    const body = JSON.stringify(payload);
    for (const endpoint of this.endpoints.values()) {
      const signature = sdk.webhooks.generateTestHeaderString({ payload: body, secret: endpoint.secret });
      const delivery = (this.options.deliver ?? postEvent)(endpoint.url, body, signature)
        .catch(() => undefined)
        .finally(() => this.pendingDeliveries.delete(delivery));
      this.pendingDeliveries.add(delivery);
    }
  }

  /** Waits for every event sent so far to be delivered (or to fail). */
  async settled(): Promise<void> {
    while (this.pendingDeliveries.size > 0) await Promise.allSettled([...this.pendingDeliveries]);
  }
}

async function postEvent(url: string, body: string, signature: string): Promise<void> {
  await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature },
    body,
    signal: AbortSignal.timeout(10_000),
  });
}
