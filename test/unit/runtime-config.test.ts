import { describe, expect, it } from 'vitest';
import { loadRuntimeConfig } from '../../functions/config';

const minimal = {
  STAGE: 'sandbox',
  API_KEY_PREFIX: 'sk_test_',
  RESOURCE_PREFIX: 'embed-sandbox',
  EMBED_BASE_URL: 'https://embed.example.com',
};

describe('runtime configuration from the Lambda environment', () => {
  it('applies the defaults the contract and docs/architecture.md name', () => {
    const config = loadRuntimeConfig(minimal);
    expect(config.WEBHOOK_RETRY_DELAYS_S).toEqual([60, 300, 900, 3600, 21600, 86400]);
    expect(config.WEBHOOK_TIMEOUT_MS).toBe(30_000);
    expect(config.WEBHOOK_REQUIRE_HTTPS_PUBLIC).toBe(true);
    expect(config.DEFAULT_FRAME_ANCESTORS).toEqual([]);
    expect(config.INVOICE_SWEEP_GRACE_S).toBe(60);
  });

  it('reads overrides: retry ladder, timeout, frame ancestors and the HTTPS rule', () => {
    const config = loadRuntimeConfig({
      ...minimal,
      WEBHOOK_RETRY_DELAYS_S: '1, 2,3',
      WEBHOOK_TIMEOUT_MS: '200',
      DEFAULT_FRAME_ANCESTORS: 'http://localhost:*, http://127.0.0.1:*',
      WEBHOOK_REQUIRE_HTTPS_PUBLIC: 'false',
      INVOICE_SWEEP_GRACE_S: '5',
    });
    expect(config).toMatchObject({
      WEBHOOK_RETRY_DELAYS_S: [1, 2, 3],
      WEBHOOK_TIMEOUT_MS: 200,
      DEFAULT_FRAME_ANCESTORS: ['http://localhost:*', 'http://127.0.0.1:*'],
      WEBHOOK_REQUIRE_HTTPS_PUBLIC: false,
      INVOICE_SWEEP_GRACE_S: 5,
    });
  });

  it.each([
    [{ STAGE: 'staging' }],
    [{ API_KEY_PREFIX: 'sk_prod_' }],
    [{ RESOURCE_PREFIX: '' }],
    [{ EMBED_BASE_URL: 'not a url' }],
    [{ WEBHOOK_RETRY_DELAYS_S: '60,soon' }],
    [{ WEBHOOK_TIMEOUT_MS: '1.5' }],
    [{ WEBHOOK_REQUIRE_HTTPS_PUBLIC: 'yes' }],
    [{ INVOICE_SWEEP_GRACE_S: '0' }],
  ])('refuses to start with %j', (bad) => {
    expect(() => loadRuntimeConfig({ ...minimal, ...bad })).toThrow();
  });
});
