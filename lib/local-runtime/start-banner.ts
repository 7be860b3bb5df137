/**
 * What `npm start` prints once the stack is up: where it listens, the seeded sandbox
 * partner and its key, the demo, and commands to try. After `--reset`, or whenever the
 * key is new, it says so first: an old key no longer works.
 */
import type { DemoSetupBody } from './demo-app';

/** The organization the printed setup `curl` creates (the guides use `acme-1` and `u-1`). */
export const SAMPLE_SETUP_BODY = {
  internalOrgId: 'acme-1',
  organizationName: 'Acme Pediatric Dentistry',
  internalUserId: 'u-1',
  user: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@acme.test' },
  shippingLocations: [
    {
      internalShippingLocationId: 'loc-1',
      name: 'Main office',
      address: { line1: '1 Main St', city: 'Austin', province: 'tx', postalCode: '78701' },
      isDefault: true,
    },
  ],
} as const satisfies DemoSetupBody;

/** The handshake the printed `curl` makes: the user the setup `curl` creates. */
const SAMPLE_HANDSHAKE_BODY = {
  internal_user_id: SAMPLE_SETUP_BODY.internalUserId,
  internal_org_id: SAMPLE_SETUP_BODY.internalOrgId,
} as const;

export interface StartBannerInput {
  readonly url: string;
  readonly partnerId: string;
  readonly apiKey: string;
  /** The key was issued by this start (first start, `--reset`, or the partner was gone). */
  readonly keyIssued: boolean;
  /** `npm start -- --reset` deleted the data directory before this start. */
  readonly reset: boolean;
  readonly dataDir: string;
  readonly resumedDeliveries: number;
}

export function startBanner(input: StartBannerInput): string {
  const { url, apiKey } = input;
  const notice = input.reset
    ? [
        `  --reset: the old data in ${input.dataDir} is gone, and so is the old API key (it no longer works).`,
        '  A new sandbox partner and API key were issued: use the ones below.',
        '',
      ]
    : input.keyIssued
      ? [
          `  A new sandbox partner and API key were issued (saved in ${input.dataDir}/seed.json; printed again on every start).`,
          '',
        ]
      : [];
  return `
Partner embed service (local sandbox) listening on ${url}

${notice.join('\n')}${notice.length ? '\n' : ''}  Seeded sandbox partner
    partner id: ${input.partnerId}
    API key:    ${apiKey}

  Demo partner app (open in Chromium/Chrome): ${url}/demo
    pick a user: its server calls the handshake and embeds the module in an iframe;
    the sandbox partner's webhooks go to the demo's receiver, listed beside it

  Try it (setup first: the handshake signs in the user it creates):
    curl -s ${url}/health
    curl -s -X POST ${url}/v1/organizations/setup \\
      -H "Authorization: Bearer ${apiKey}" -H "Content-Type: application/json" \\
      -d '${JSON.stringify(SAMPLE_SETUP_BODY)}'
    curl -s -X POST ${url}/v1/partner/handshake \\
      -H "X-API-Key: ${apiKey}" -H "Content-Type: application/json" \\
      -d '${JSON.stringify(SAMPLE_HANDSHAKE_BODY)}'

  The guides' samples use $KEY and $BASE: export KEY=${apiKey} BASE=${url}

  Operator CLI (talks to this stack): npm run ops -- partner list
  Data: ${input.dataDir} (npm start -- --reset starts empty); ${input.resumedDeliveries} pending webhook deliveries resumed. Ctrl-C to stop.
  Logs: ${input.dataDir}/logs/service.jsonl (only errors print here; npm start -- --verbose, or LOG_TO_CONSOLE=1, prints every line).
`;
}
