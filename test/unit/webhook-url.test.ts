import { describe, expect, it } from 'vitest';
import { checkWebhookUrl } from '../../functions/webhooks/webhook-url';

const reason = (url: string, production: boolean) => {
  const checked = checkWebhookUrl(url, production);
  return checked.ok ? 'ok' : checked.reason;
};

describe('webhook URLs an operator may set', () => {
  it('allows a public HTTPS URL in production', () => {
    expect(reason('https://hooks.partner.example.com/orders?x=1', true)).toBe('ok');
    expect(reason('https://93.184.216.34:8443/hooks', true)).toBe('ok');
  });

  it.each([
    ['http://hooks.partner.example.com/orders', /HTTPS/],
    ['https://127.0.0.1/hooks', /loopback/],
    ['https://[::1]/hooks', /loopback/],
    ['https://10.0.0.5/hooks', /private/],
    ['https://169.254.169.254/latest/meta-data', /link-local/],
    ['https://[::ffff:192.168.0.1]/hooks', /private/],
    ['https://2130706433/hooks', /loopback/], // 127.0.0.1 as one decimal number
    ['https://0x7f.1/hooks', /loopback/],
    ['https://localhost/hooks', /public host/],
    ['https://api.localhost/hooks', /public host/],
    ['https://intranet/hooks', /public host/],
  ])('refuses %s in production', (url, expected) => {
    expect(reason(url, true)).toMatch(expected);
  });

  it('allows http:// and loopback in sandbox and locally', () => {
    expect(reason('http://127.0.0.1:4000/hooks', false)).toBe('ok');
    expect(reason('http://localhost:4000/hooks', false)).toBe('ok');
  });

  it.each([
    ['not a url', /valid absolute URL/],
    ['ftp://files.example.com/x', /http\(s\)/],
    ['https://user:pass@hooks.example.com/x', /credentials/],
    ['https://hooks.example.com/x#frag', /fragment/],
    [`https://hooks.example.com/${'a'.repeat(2100)}`, /2048/],
  ])('refuses %s everywhere', (url, expected) => {
    expect(reason(url, false)).toMatch(expected);
    expect(reason(url, true)).toMatch(expected);
  });
});
