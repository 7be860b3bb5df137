import type { WebhookEvent, WebhookEventKind } from '../api-types.js';
import { PartnerSignatureVerificationError } from '../errors.js';
import { type StandardWebhookOptions, verifyStandardWebhook } from './verify-standard-webhook.js';
import { verifyWebhookSignature, type WebhookSecrets } from './verify-webhook-signature.js';

/** Request headers as a framework hands them over: Node's `IncomingHttpHeaders`, a plain object or a fetch `Headers`. */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

const WEBHOOK_EVENT_KINDS: readonly WebhookEventKind[] = [
  'order.created',
  'order.confirmed',
  'order.shipped',
  'order.delivered',
  'order.cancelled',
  'order.refunded',
  'approval.requested',
  'approval.decided',
  'invoice.issued',
  'invoice.paid',
  'invoice.overdue',
  'invoice.credited',
];

function headerOf(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
  const value = entry?.[1];
  return typeof value === 'string' ? value : undefined;
}

/**
 * True when the delivery is ours: `X-Service-Signature` verifies over the raw body and,
 * when the delivery also carries Standard Webhooks headers, `webhook-signature` verifies
 * within its replay window too. `secret` may be a list: during a rotation's overlap, pass
 * the old and the new one.
 */
export function verify(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: WebhookSecrets,
  options: StandardWebhookOptions = {},
): boolean {
  if (!verifyWebhookSignature(rawBody, headerOf(headers, 'x-service-signature'), secret)) return false;
  const signature = headerOf(headers, 'webhook-signature');
  if (signature === undefined) return true;
  return verifyStandardWebhook(
    rawBody,
    { id: headerOf(headers, 'webhook-id'), timestamp: headerOf(headers, 'webhook-timestamp'), signature },
    secret,
    options,
  );
}

/**
 * The verified, parsed event, typed by its `event` (`event.event === 'approval.decided'`
 * narrows `data`); throws PartnerSignatureVerificationError otherwise. The approval kinds
 * come only to an endpoint subscribed to them.
 */
export function constructEvent(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: WebhookSecrets,
  options: StandardWebhookOptions = {},
): WebhookEvent {
  if (!verify(rawBody, headers, secret, options)) {
    throw new PartnerSignatureVerificationError({
      message: 'The webhook signature does not match the body and secret',
    });
  }
  const text = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  let event: unknown;
  try {
    event = JSON.parse(text);
  } catch (cause) {
    throw new PartnerSignatureVerificationError({ message: 'The webhook body is not JSON', cause });
  }
  const kind = (event as { event?: unknown } | null)?.event;
  if (!WEBHOOK_EVENT_KINDS.includes(kind as WebhookEventKind)) {
    throw new PartnerSignatureVerificationError({ message: `Not a webhook event of ours: ${String(kind)}` });
  }
  return event as WebhookEvent;
}

export const webhooks = { verify, constructEvent, verifyWebhookSignature, verifyStandardWebhook } as const;
