import { describe, expect, it } from 'vitest';
import { readStartSettings } from '../../lib/local-runtime/start-settings';

describe("npm start's overrides from its environment", () => {
  it('leaves the sweep on its minute and the functions on their defaults when nothing is set', () => {
    expect(readStartSettings({ PATH: '/usr/bin', LOCAL_INVOICE_SWEEP_S: '' })).toEqual({
      extraEnvironment: {},
      invoiceSweepIntervalSeconds: undefined,
    });
  });

  it('runs the sweep as often as LOCAL_INVOICE_SWEEP_S says and hands the grace and the webhook settings to the functions', () => {
    expect(
      readStartSettings({
        LOCAL_INVOICE_SWEEP_S: '2',
        INVOICE_SWEEP_GRACE_S: '3',
        WEBHOOK_RETRY_DELAYS_S: '1,1',
        EMBED_SESSION_IDLE_S: '30',
      }),
    ).toEqual({
      extraEnvironment: { INVOICE_SWEEP_GRACE_S: '3', WEBHOOK_RETRY_DELAYS_S: '1,1', EMBED_SESSION_IDLE_S: '30' },
      invoiceSweepIntervalSeconds: 2,
    });
  });

  it.each([
    ['LOCAL_INVOICE_SWEEP_S', '0'],
    ['LOCAL_INVOICE_SWEEP_S', 'soon'],
    ['INVOICE_SWEEP_GRACE_S', '1.5'],
    ['INVOICE_SWEEP_GRACE_S', '-60'],
  ])('refuses %s=%s with a line naming the variable', (name, value) => {
    expect(() => readStartSettings({ [name]: value })).toThrow(
      `${name} must be a whole number of seconds above 0 (was "${value}")`,
    );
  });
});
