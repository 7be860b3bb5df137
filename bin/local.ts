/**
 * `npm start`: the whole service on this machine, on embedded stand-ins for AWS.
 * `npm start -- --reset` starts with empty data. Ctrl-C stops everything it started.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createDemoApp, type DemoConnection } from '../lib/local-runtime/demo-app';
import { startLocalStack } from '../lib/local-runtime/local-stack';
import { seedSandboxPartner } from '../lib/local-runtime/seed';
import { startStandIns } from '../lib/local-runtime/stand-ins';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const { values } = parseArgs({ options: { reset: { type: 'boolean', default: false } } });
const dataDir = resolve('.local');
if (values.reset) rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });

// The demo partner app needs the stack's URL and the seeded key, both known only once it runs.
let announceDemoConnection: (connection: DemoConnection) => void = () => undefined;
const demoConnection = new Promise<DemoConnection>((resolveConnection) => {
  announceDemoConnection = resolveConnection;
});

const standIns = await startStandIns({ dataDir });
const stack = await startLocalStack({
  standIns,
  resourcePrefix: 'embed-local',
  port: Number(process.env.PORT ?? 3000),
  pages: [createDemoApp({ connection: () => demoConnection })],
  // A shorter retry ladder or disable period, to watch a webhook fail through to its alert or its endpoint's disable in minutes.
  extraEnvironment: Object.fromEntries(
    (['WEBHOOK_RETRY_DELAYS_S', 'WEBHOOK_DISABLE_AFTER_S'] as const).flatMap((name) => {
      const value = process.env[name];
      return value ? [[name, value]] : [];
    }),
  ),
});
const seeded = await seedSandboxPartner(stack.deps, resolve(dataDir, 'seed.json'));
// The SQS stand-in keeps messages in memory: retries that were waiting when the last run stopped are queued again.
let resumed = 0;
for (const partner of await stack.deps.partners.listPartners()) resumed += await stack.deps.webhookAdmin.resumePending(partner.id);
announceDemoConnection({ apiUrl: stack.url, apiKey: seeded.apiKey });

writeFileSync(
  resolve(dataDir, 'stack.json'),
  `${JSON.stringify(
    {
      url: stack.url,
      resourcePrefix: 'embed-local',
      stage: stack.config.STAGE,
      apiKeyPrefix: stack.config.API_KEY_PREFIX,
      endpoints: standIns.endpoints,
      stripeApiBase: standIns.stripeApiBase,
      queueUrls: stack.queueUrls,
      pid: process.pid,
    },
    null,
    2,
  )}\n`,
);

console.log(`
Partner embed service (local sandbox) listening on ${stack.url}

  Seeded sandbox partner
    partner id: ${seeded.partnerId}
    API key:    ${seeded.apiKey}

  Demo partner app (open in Chromium/Chrome): ${stack.url}/demo
    pick a user: its server calls the handshake and embeds the module in an iframe

  Try it:
    curl -s ${stack.url}/health
    curl -s -X POST ${stack.url}/v1/organizations/setup \\
      -H "Authorization: Bearer ${seeded.apiKey}" -H "Content-Type: application/json" \\
      -d '{"internalOrgId":"acme-1","organizationName":"Acme Dental","internalUserId":"u-1","user":{"firstName":"Ada","lastName":"Lovelace","email":"ada@acme.test"},"shippingLocations":[{"internalShippingLocationId":"loc-1","name":"Main office","address":{"line1":"1 Main St","city":"Austin","province":"tx","postalCode":"78701"},"isDefault":true}]}'

  Operator CLI (talks to this stack): npm run ops -- partner list
  Data: ${dataDir} (npm start -- --reset starts empty); ${resumed} pending webhook deliveries resumed. Ctrl-C to stop.
`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await stack.close();
  await standIns.close();
  rmSync(resolve(dataDir, 'stack.json'), { force: true });
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
