/**
 * `npm start`: the whole service on this machine, on embedded stand-ins for AWS.
 * `npm start -- --reset` starts with empty data; `npm start -- --verbose` (or `LOG_TO_CONSOLE=1`)
 * prints every log line, not only errors. Ctrl-C stops everything it started.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { PartnerId } from '../functions/domain/partners/partner';
import { createDemoApp, type DemoConnection } from '../lib/local-runtime/demo-app';
import { DemoWebhookReceiver, wireDemoWebhooks } from '../lib/local-runtime/demo-webhook-receiver';
import { startLocalStack } from '../lib/local-runtime/local-stack';
import { LOCAL_LOG_FILE, openLocalLog } from '../lib/local-runtime/local-log';
import { powertoolsMetrics } from '../functions/adapters/observability/powertools-metrics';
import { METRICS_NAMESPACE } from '../functions/resources/resource-definitions';
import { seedSandboxPartner } from '../lib/local-runtime/seed';
import { JavaMissing } from '../lib/local-runtime/java-requirement';
import { startBanner } from '../lib/local-runtime/start-banner';
import { startStandIns } from '../lib/local-runtime/stand-ins';
import { readStartSettings, StartSettingsInvalid } from '../lib/local-runtime/start-settings';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const { values } = parseArgs({
  options: { reset: { type: 'boolean', default: false }, verbose: { type: 'boolean', default: false } },
});
// A shorter retry ladder or disable period, to watch a webhook fail through to its alert or its endpoint's disable in minutes;
// a shorter embedded-session idle timeout, to watch the SDK renew a session; a faster invoice sweep with a shorter grace,
// to watch a shipment whose invoicing message was lost get invoiced in seconds.
const settings = (() => {
  try {
    return readStartSettings(process.env);
  } catch (error) {
    if (!(error instanceof StartSettingsInvalid)) throw error;
    process.stderr.write(`npm start: ${error.message}\n`);
    process.exit(1);
  }
})();
const dataDir = resolve('.local');
if (values.reset) rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });

// The demo partner app needs the stack's URL and the seeded key, both known only once it runs.
let announceDemoConnection: (connection: DemoConnection) => void = () => undefined;
const demoConnection = new Promise<DemoConnection>((resolveConnection) => {
  announceDemoConnection = resolveConnection;
});

// The demo partner's webhook receiver; pointed at once the seeded partner is known.
const demoReceiver = new DemoWebhookReceiver();
let wireDemoReceiver: (receiverUrl: string) => Promise<boolean> = () => Promise.resolve(false);

const standIns = await startStandIns({ dataDir }).catch((error: unknown) => {
  // A missing prerequisite is one line telling what to install, not a stack trace.
  if (!(error instanceof JavaMissing)) throw error;
  process.stderr.write(`npm start: ${error.message}\n`);
  process.exit(1);
});
// Every log line is appended to .local/logs/service.jsonl and only errors printed (all with --verbose);
// EMF metrics lines go to the file only (ops order trace, ops metrics).
const localLog = openLocalLog(LOCAL_LOG_FILE, {
  echo: values.verbose || process.env.LOG_TO_CONSOLE === '1' ? 'all' : 'errors',
});
const stack = await startLocalStack({
  standIns,
  logger: localLog.logger,
  metrics: powertoolsMetrics({ namespace: METRICS_NAMESPACE, service: 'embed-local', write: localLog.append }),
  resourcePrefix: 'embed-local',
  port: Number(process.env.PORT ?? 3000),
  // The orders stream reader resumes where the last run stopped, not from the stream's oldest record.
  dataDir,
  pages: [
    createDemoApp({
      connection: () => demoConnection,
      webhooks: { receiver: demoReceiver, wire: (receiverUrl) => wireDemoReceiver(receiverUrl) },
    }),
  ],
  extraEnvironment: settings.extraEnvironment,
  invoiceSweepIntervalSeconds: settings.invoiceSweepIntervalSeconds,
});
const seeded = await seedSandboxPartner(stack.deps, resolve(dataDir, 'seed.json'));
// The SQS stand-in keeps messages in memory: retries that were waiting when the last run stopped are queued again.
let resumed = 0;
for (const partner of await stack.deps.partners.listPartners())
  resumed += await stack.deps.webhookAdmin.resumePending(partner.id);
wireDemoReceiver = (receiverUrl) =>
  wireDemoWebhooks(stack.deps.webhookAdmin, seeded.partnerId as PartnerId, receiverUrl, demoReceiver.secret);
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
      // The endpoint secret the stack verifies Stripe's events with, as `stripe listen` prints one: sign test events with it.
      stripeWebhookSecret: stack.config.STRIPE_WEBHOOK_SECRET,
      queueUrls: stack.queueUrls,
      pid: process.pid,
    },
    null,
    2,
  )}\n`,
);

console.log(
  startBanner({
    url: stack.url,
    partnerId: seeded.partnerId,
    apiKey: seeded.apiKey,
    keyIssued: seeded.issued,
    reset: values.reset,
    dataDir,
    resumedDeliveries: resumed,
  }),
);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await stack.close();
  await standIns.close();
  await localLog.close();
  rmSync(resolve(dataDir, 'stack.json'), { force: true });
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
