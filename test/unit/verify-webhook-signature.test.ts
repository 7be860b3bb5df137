import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhookBody } from '../../functions/webhooks/webhook-signature';
import { verifyWebhookSignature } from '../../sdk/src/webhooks/verify-webhook-signature';

const secret = 'whsec_0123456789abcdef0123456789abcdef';
const body =
  '{"event":"order.created","timestamp":"2026-11-22T12:00:00.000Z","data":{"order_id":"x","note":"café ☕"}}';
const header = `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;

describe('verifyWebhookSignature (for partners)', () => {
  it('accepts the signature the service sends, over the raw body as a string or as bytes', () => {
    expect(signWebhookBody(body, secret)).toBe(header);
    expect(verifyWebhookSignature(body, header, secret)).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(body, 'utf8'), header, secret)).toBe(true);
    expect(verifyWebhookSignature(new Uint8Array(Buffer.from(body, 'utf8')), header, secret)).toBe(true);
  });

  it('rejects another secret, a changed body and a re-serialised body', () => {
    expect(verifyWebhookSignature(body, header, `${secret}0`)).toBe(false);
    expect(verifyWebhookSignature(body.replace('order.created', 'order.shipped'), header, secret)).toBe(false);
    expect(verifyWebhookSignature(JSON.stringify(JSON.parse(body), null, 2), header, secret)).toBe(false);
  });

  it.each([
    ['missing', undefined],
    ['null', null],
    ['empty', ''],
    ['without the sha256= prefix', header.slice(7)],
    ['with another scheme', header.replace('sha256=', 'sha1=')],
    ['in uppercase hex', `sha256=${header.slice(7).toUpperCase()}`],
    ['one character short', header.slice(0, -1)],
    ['one character long', `${header}0`],
    ['not hex', `sha256=${'z'.repeat(64)}`],
    ['repeated as an array', [header, header]],
  ])('returns false, without throwing, for a header that is %s', (_case, value) => {
    expect(verifyWebhookSignature(body, value as string | undefined, secret)).toBe(false);
  });

  it('returns false for an empty secret', () => {
    expect(verifyWebhookSignature(body, `sha256=${createHmac('sha256', '').update(body).digest('hex')}`, '')).toBe(
      false,
    );
  });

  it('imports nothing but node:crypto', async () => {
    const { readFile } = await import('node:fs/promises');
    const source = await readFile(
      new URL('../../sdk/src/webhooks/verify-webhook-signature.ts', import.meta.url),
      'utf8',
    );
    expect([...source.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1])).toEqual(['node:crypto']);
  });
});
