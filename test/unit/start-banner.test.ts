import { describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../../lib/local-runtime/demo-app';
import { SAMPLE_SETUP_BODY, startBanner } from '../../lib/local-runtime/start-banner';

const base = {
  url: 'http://localhost:3000',
  partnerId: '0f6c0000-0000-4000-8000-000000000000',
  apiKey: `sk_test_${'a'.repeat(64)}`,
  dataDir: '/repo/.local',
  resumedDeliveries: 0,
};

describe('what npm start prints', () => {
  it('after --reset, says the old data and key are gone and a new key was issued, then shows the new key', () => {
    const banner = startBanner({ ...base, reset: true, keyIssued: true });
    expect(banner).toContain(
      '--reset: the old data in /repo/.local is gone, and so is the old API key (it no longer works).',
    );
    expect(banner).toContain('A new sandbox partner and API key were issued: use the ones below.');
    expect(banner.indexOf('--reset:')).toBeLessThan(banner.indexOf(`API key:    ${base.apiKey}`));
  });

  it('says a key is new on a first start, and says nothing of keys when the saved one still works', () => {
    expect(startBanner({ ...base, reset: false, keyIssued: true })).toContain(
      'A new sandbox partner and API key were issued (saved in /repo/.local/seed.json; printed again on every start).',
    );
    const again = startBanner({ ...base, reset: false, keyIssued: false });
    expect(again).not.toMatch(/issued|--reset:/);
    expect(again).toContain(`API key:    ${base.apiKey}`);
    expect(again).toContain(`-d '${JSON.stringify(SAMPLE_SETUP_BODY)}'`);
  });
});

describe('the commands npm start invites you to run', () => {
  const banner = startBanner({ ...base, url: 'http://localhost:4123', reset: false, keyIssued: false });

  it('prints a setup curl and a handshake curl for the user it creates, with the real key and port', () => {
    expect(banner).toContain(
      `curl -s -X POST http://localhost:4123/v1/organizations/setup \\\n      -H "Authorization: Bearer ${base.apiKey}"`,
    );
    expect(banner).toContain(
      `curl -s -X POST http://localhost:4123/v1/partner/handshake \\\n      -H "X-API-Key: ${base.apiKey}"`,
    );
    expect(banner).toContain(
      `-d '{"internal_user_id":"${SAMPLE_SETUP_BODY.internalUserId}","internal_org_id":"${SAMPLE_SETUP_BODY.internalOrgId}"}'`,
    );
    expect(banner.indexOf('/v1/organizations/setup')).toBeLessThan(banner.indexOf('/v1/partner/handshake'));
    expect(banner).not.toContain('3000');
  });

  it("sets the guides' $KEY and $BASE to the real key and address", () => {
    expect(banner).toContain(`export KEY=${base.apiKey} BASE=http://localhost:4123`);
  });
});

describe('the organizations the local sandbox invites you to create', () => {
  it('have one name each, and no two share a name', () => {
    const names = new Map<string, Set<string>>();
    for (const setup of [SAMPLE_SETUP_BODY, ...DEMO_USERS.map((user) => user.setup)]) {
      names.set(setup.internalOrgId, (names.get(setup.internalOrgId) ?? new Set()).add(setup.organizationName));
    }
    for (const [internalOrgId, orgNames] of names) expect(orgNames.size, internalOrgId).toBe(1);
    const all = [...names.values()].map((orgNames) => [...orgNames][0]);
    expect(new Set(all).size).toBe(all.length);
  });
});
