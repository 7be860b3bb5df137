/**
 * Secret comparisons cannot leak through timing. Timing itself is too noisy to measure
 * in a test run, so this checks the code that decides it, plus behaviour that pins it:
 *
 * - webhook signatures: verifyWebhookSignature compares with crypto.timingSafeEqual, and
 *   rejects every near miss of the right length (one hex digit off at any position);
 * - API keys, session tokens and session cookies are never compared in our code: they are
 *   hashed and looked up by hash (a DynamoDB key), so a near miss is simply not found;
 * - nowhere in functions/ is a secret compared with === / !== (other than to undefined
 *   or by length).
 */
import { createHmac } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { verifyWebhookSignature } from '../../sdk/src/webhooks/verify-webhook-signature';
import { provisionProfile } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const source = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const filesUnder = (dir: string): string[] =>
  readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    return statSync(join(ROOT, path)).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });

describe('webhook signatures (the SDK partners copy, and the docs receiver)', () => {
  it('compares with crypto.timingSafeEqual after a length check, never with a string comparison', () => {
    for (const file of [
      'sdk/src/webhooks/verify-webhook-signature.ts',
      'sdk/src/webhooks/verify-standard-webhook.ts',
    ]) {
      const sdk = source(file);
      expect(sdk, file).toMatch(/import \{[^}]*timingSafeEqual[^}]*\} from 'node:crypto'/);
      expect(sdk, file).toMatch(
        /\b(received|candidate)\.length === expected\.length && timingSafeEqual\(\1, expected\)/,
      );
      // No other comparison of the received and expected values.
      expect(sdk, file).not.toMatch(/(?<!typeof )\b(received|candidate|expected|header|hex|signature)\s*[!=]==?/);
      expect(sdk, file).not.toMatch(/\.(equals|compare)\(/);
    }
    // The receiver example partners are told to copy does the same.
    expect(source('docs/webhooks.md')).toMatch(/timingSafeEqual\(/);
  });

  it('rejects every near miss of the right length: one hex digit changed at any of the 64 positions', () => {
    const secret = 'whsec_2b7e151628aed2a6abf7158809cf4f3c';
    const body = '{"event":"order.created","timestamp":"2026-11-22T12:00:00.000Z","data":{"order_id":"x"}}';
    const hex = createHmac('sha256', secret).update(body, 'utf8').digest('hex');
    expect(verifyWebhookSignature(body, `sha256=${hex}`, secret)).toBe(true);
    for (let position = 0; position < hex.length; position += 1) {
      const digit = hex[position] as string;
      const other = ((parseInt(digit, 16) + 1 + (position % 15)) % 16).toString(16);
      const nearMiss = `${hex.slice(0, position)}${other}${hex.slice(position + 1)}`;
      expect(nearMiss).toHaveLength(64);
      expect(verifyWebhookSignature(body, `sha256=${nearMiss}`, secret), `position ${position}`).toBe(false);
    }
    // The right signature for a secret one character off, and for the body one byte off.
    expect(
      verifyWebhookSignature(
        body,
        `sha256=${createHmac('sha256', `${secret.slice(0, -1)}d`)
          .update(body)
          .digest('hex')}`,
        secret,
      ),
    ).toBe(false);
    expect(
      verifyWebhookSignature(body, `sha256=${createHmac('sha256', secret).update(`${body} `).digest('hex')}`, secret),
    ).toBe(false);
  });
});

describe('API keys, session tokens and cookies are looked up by hash, not compared', () => {
  it('authenticates a key with one GetItem keyed by its SHA-256', () => {
    expect(source('functions/domain/access/authenticator.ts')).toMatch(
      /this\.partners\.findKeyByHash\(hashApiKey\(presentedKey\)\)/,
    );
    const repository = source('functions/adapters/dynamodb/dynamodb-partner-repository.ts');
    expect(repository).toMatch(
      /async findKeyByHash\(keyHash: string\)[\s\S]{0,200}?new GetCommand\(\{[^}]*Key: partnerKeys\.keyLookup\(keyHash\)/,
    );
  });

  it('redeems tokens and resumes sessions by a conditional write keyed by the SHA-256 of the secret', () => {
    const sessions = source('functions/domain/sessions/embedded-sessions.ts');
    expect(sessions).toMatch(/redeemToken\(hashSecret\(sessionKey\)/);
    expect(sessions).toMatch(/touchEmbeddedSession\(\s*hashSecret\(cookieValue\)/);
    const repository = source('functions/adapters/dynamodb/dynamodb-session-repository.ts');
    expect(repository).toMatch(/Key: sessionKeys\.token\(tokenHash\)/);
    expect(repository).toMatch(/Key: sessionKeys\.embeddedSession\(sessionHash\)/);
  });

  it('compares no secret with === or !== anywhere in functions/ (only to undefined, or lengths)', () => {
    // The scanner itself finds what it looks for.
    expect(
      secretComparisons('if (record.keyHash === hashApiKey(key)) return;\nif (signature !== expectedSignature) x();'),
    ).toHaveLength(2);
    expect(
      secretComparisons(
        "if (secret === undefined || typeof header !== 'string' || received.length !== expected.length) x();",
      ),
    ).toEqual([]);

    const offending = filesUnder('functions').flatMap((file) =>
      secretComparisons(source(file)).map((hit) => `${file}:${hit}`),
    );
    expect(offending).toEqual([]);
  });
});

const SECRET_NAME =
  /\b\w*(signature|secret|apiKey|keyHash|sessionKey|cookieValue|tokenHash|sessionHash|presentedKey)\w*\b/i;

/** `line: comparison` for every === / !== / == / != with a secret-looking side that is not undefined, null, a type or a length. */
function secretComparisons(text: string): string[] {
  const hits: string[] = [];
  text.split('\n').forEach((line, index) => {
    const code = line.replace(/\/\/.*$/, '');
    for (const comparison of code.matchAll(/([\w.[\]()]+)\s*([!=]==?)\s*([\w.[\]()'"`]+)/g)) {
      const [whole, rawLeft = '', , rawRight = ''] = comparison;
      const [left = '', right = ''] = [rawLeft, rawRight].map((side) => side.replace(/^[(!]+|[);,]+$/g, ''));
      if (!SECRET_NAME.test(left) && !SECRET_NAME.test(right)) continue;
      if (
        [left, right].some(
          (side) => side === 'undefined' || side === 'null' || side.endsWith('.length') || side === "'string'",
        )
      )
        continue;
      if (/typeof\s*$/.test(code.slice(0, comparison.index))) continue;
      hits.push(`${index + 1}: ${whole}`);
    }
  });
  return hits;
}

describe('near misses of keys and tokens, over HTTP', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack.close());

  it('refuses an API key one hex digit off (first, middle, last) or in upper case, and the real key still works', async () => {
    const { partnerId, apiKey } = await stack.createPartner();
    const { profile } = await provisionProfile(stack.deps, partnerId as PartnerId);
    const flip = (key: string, at: number) => `${key.slice(0, at)}${key[at] === '0' ? '1' : '0'}${key.slice(at + 1)}`;
    const body = { profile_id: profile.id };
    for (const nearMiss of [
      flip(apiKey, 8),
      flip(apiKey, 40),
      flip(apiKey, apiKey.length - 1),
      `sk_test_${apiKey.slice(8).toUpperCase()}`,
    ]) {
      expect(nearMiss).toHaveLength(apiKey.length);
      const res = await stack.post('/v1/partner/handshake', body, { 'X-API-Key': nearMiss });
      expect(res.status).toBe(401);
    }
    expect((await stack.post('/v1/partner/handshake', body, { 'X-API-Key': apiKey })).status).toBe(200);
  });

  it('refuses a session key one hex digit off without burning the real one', async () => {
    const { partnerId, apiKey } = await stack.createPartner();
    const { profile } = await provisionProfile(stack.deps, partnerId as PartnerId);
    const res = await stack.post('/v1/partner/handshake', { profile_id: profile.id }, { 'X-API-Key': apiKey });
    const key: string = res.body.session_key;
    const nearMiss = `${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}`;
    const refused = await fetch(`${stack.url}/embedded/${partnerId}?session_key=${nearMiss}`, { redirect: 'manual' });
    expect(refused.status).toBe(401);
    const redeemed = await fetch(`${stack.url}/embedded/${partnerId}?session_key=${key}`, { redirect: 'manual' });
    expect(redeemed.status).toBe(303);
  });
});
