/**
 * The SDK's webhook verification on bodies signed the way the dispatcher signs them
 * (`signWebhookBody`, the service's own signer) and on Standard Webhooks signatures made
 * with an independent HMAC: every documented event kind comes back typed, and a tampered
 * body, signature or timestamp is refused.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { signWebhookBody } from '../../functions/webhooks/webhook-signature';
import {
  constructEvent,
  type InvoiceStatus,
  PartnerSignatureVerificationError,
  verifyWebhook,
} from '../../sdk/src/index';
import { API_DOCUMENT, schemaProblems } from '../support/api-document';

const SECRET = `whsec_${Buffer.from('a'.repeat(32)).toString('base64')}`;
const NOW = new Date('2026-11-22T12:00:00.000Z');
const nowSeconds = String(NOW.getTime() / 1000);

const standardSignature = (id: string, timestamp: string, body: string) =>
  `v1,${createHmac('sha256', Buffer.from(SECRET.slice(6), 'base64'))
    .update(`${id}.${timestamp}.${body}`)
    .digest('base64')}`;

const examples = Object.entries(API_DOCUMENT.webhooks as Record<string, any>).map(([kind, methods]) => ({
  kind,
  body: JSON.stringify(methods.post.requestBody.content['application/json'].example),
  schema: methods.post.requestBody.content['application/json'].schema,
}));

describe('webhooks.verify and webhooks.constructEvent', () => {
  it.each(examples)('returns a verified $kind as the typed event the document describes', ({ kind, body, schema }) => {
    const event = constructEvent(body, { 'x-service-signature': signWebhookBody(body, SECRET) }, SECRET);
    expect(event.event).toBe(kind);
    expect(schemaProblems(schema, event)).toEqual([]);
  });

  it("narrows an invoice event by its kind to the invoice's typed fields", () => {
    const { body } = examples.find(({ kind }) => kind === 'invoice.paid')!;
    const event = constructEvent(body, { 'x-service-signature': signWebhookBody(body, SECRET) }, SECRET);
    if (event.event !== 'invoice.paid') return expect.fail(`expected invoice.paid, got ${event.event}`);
    expectTypeOf(event.data.invoice.status).toEqualTypeOf<InvoiceStatus>();
    expectTypeOf(event.data.invoice.amount_paid).toEqualTypeOf<number>();
    expect(event.data.invoice.status).toBe('paid');
    expect(event.data.order_id).toBe(event.data.invoice.order_id);
  });

  it('refuses a changed body, another secret or a missing signature', () => {
    const { body } = examples[0] as { body: string };
    const signature = signWebhookBody(body, SECRET);
    expect(verifyWebhook(body, { 'X-Service-Signature': signature }, SECRET)).toBe(true);
    expect(verifyWebhook(body.replace('acme-1', 'acme-2'), { 'X-Service-Signature': signature }, SECRET)).toBe(false);
    expect(verifyWebhook(body, { 'X-Service-Signature': signature }, `${SECRET}x`)).toBe(false);
    expect(verifyWebhook(body, {}, SECRET)).toBe(false);
    expect(() => constructEvent(body, {}, SECRET)).toThrow(PartnerSignatureVerificationError);
  });

  it('also checks the Standard Webhooks signature when the delivery carries one, within its replay window', () => {
    const { body } = examples[0] as { body: string };
    const id = '6f1c2b8e-3f5e-4a59-9a43-0d9b3c1e2f10';
    const headers = (timestamp: string, signature = standardSignature(id, timestamp, body)) =>
      new Headers({
        'X-Service-Signature': signWebhookBody(body, SECRET),
        'webhook-id': id,
        'webhook-timestamp': timestamp,
        'webhook-signature': signature,
      });
    const now = () => NOW;

    expect(verifyWebhook(body, headers(nowSeconds), SECRET, { now })).toBe(true);
    // One signature per live secret during a rotation: any one matching is enough.
    expect(
      verifyWebhook(body, headers(nowSeconds, `v1,AAAA ${standardSignature(id, nowSeconds, body)}`), SECRET, { now }),
    ).toBe(true);
    const tamperedTimestamp = headers(nowSeconds, standardSignature(id, nowSeconds, body));
    tamperedTimestamp.set('webhook-timestamp', String(Number(nowSeconds) + 1));
    expect(verifyWebhook(body, tamperedTimestamp, SECRET, { now })).toBe(false);
    const stale = String(Number(nowSeconds) - 301);
    expect(verifyWebhook(body, headers(stale), SECRET, { now })).toBe(false);
  });
});
