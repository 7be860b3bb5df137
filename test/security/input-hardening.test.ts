import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonLinesLogger, redactingLogger, redactSecrets } from '../../functions/domain/logger';
import { startTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

describe('embed host paths that name no partner', () => {
  it.each([
    ['GET', `/embedded/${'a'.repeat(2100)}`],
    ['POST', `/embedded/${'a'.repeat(2100)}/logout`],
    ['GET', '/embedded/not-a-partner?session_key=' + 'f'.repeat(64)],
  ])('%s %s answers the 401 page with frame-ancestors none, never a 500', async (method, path) => {
    const res = await fetch(`${stack.url}${path}`, { method, headers: { 'Sec-Fetch-Site': 'same-origin' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(await res.text()).toContain('expired or was already used');
    expect(stack.logs.filter((l) => l.level === 'error')).toEqual([]);
  });

  it('answers 400 for a malformed percent-escape in the path, as API Gateway does', async () => {
    for (const path of ['/embedded/%E0%A4%A', '/embedded/%ED%A0%80']) {
      expect((await fetch(`${stack.url}${path}`)).status).toBe(400);
    }
  });
});

describe('request logs quote no secret, even when a partner sends one as an identifier', () => {
  it('masks an API key pasted into internal_user_id in the 404 log line', async () => {
    const { apiKey } = await stack.createPartner();
    const res = await stack.post('/v1/partner/handshake', { internal_user_id: apiKey }, { 'X-API-Key': apiKey });
    expect(res.status).toBe(404);
    const line = stack.rawLogLines.find((l) => l.includes(res.headers.get('request-id') as string));
    expect(line).toContain('sk_test_[REDACTED]');
    expect(stack.rawLogLines.join('\n')).not.toContain(apiKey);
  });

  it('masks key, webhook-secret, token and hash shapes and leaves ordinary text alone', () => {
    const token = 'ab'.repeat(32);
    expect(redactSecrets(`key sk_live_${'1f'.repeat(32)} secret whsec_abcDEF123456_-x token ${token}`)).toBe(
      'key sk_live_[REDACTED] secret whsec_[REDACTED] token [REDACTED]',
    );
    expect(redactSecrets('No profile with internal_user_id u-42 in organization acme-1')).toBe(
      'No profile with internal_user_id u-42 in organization acme-1',
    );
  });

  it('masks each shape on its own, at its shortest, and only whole 64-hex runs', () => {
    expect(redactSecrets('sk_test_abcd')).toBe('sk_test_[REDACTED]');
    expect(redactSecrets('whsec_abcdefgh')).toBe('whsec_[REDACTED]');
    expect(redactSecrets('f'.repeat(64))).toBe('[REDACTED]');
    for (const text of ['sk_test_abc', 'whsec_abcdefg', 'f'.repeat(63), 'f'.repeat(65)])
      expect(redactSecrets(text)).toBe(text);
  });

  it('the logger masks secrets in nested fields, arrays and dates, and keeps every field, __proto__ included', () => {
    const lines: string[] = [];
    const logger = redactingLogger(jsonLinesLogger((line) => lines.push(line)));
    const parsed = JSON.parse(`{"__proto__": {"key": "sk_live_abcdef"}, "ok": "u-42"}`) as Record<string, unknown>;
    logger.error({
      msg: 'bad input',
      input: parsed,
      list: [`whsec_${'x'.repeat(10)}`, 7],
      at: new Date(0),
      token: 'ab'.repeat(32),
    });
    expect(JSON.parse(lines[0] as string)).toEqual({
      level: 'error',
      msg: 'bad input',
      input: { ['__proto__']: { key: 'sk_live_[REDACTED]' }, ok: 'u-42' },
      list: ['whsec_[REDACTED]', 7],
      at: '1970-01-01T00:00:00.000Z',
      token: '[REDACTED]',
    });
  });
});
