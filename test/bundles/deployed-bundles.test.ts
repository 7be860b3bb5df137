/**
 * What ships is what is tested: every Lambda bundle `cdk synth` makes, run in a plain
 * `node` process with the environment the template gives its function, against the
 * stand-ins (through the SDK's standard AWS_ENDPOINT_URL_<SERVICE> variables), with real
 * event shapes: API Gateway v2 events from the local gateway adapter, SQS events from
 * the local queue consumer, DynamoDB stream events from the local stream consumer. The
 * rest of the suite runs the TypeScript sources; this file runs the artifacts.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire, SourceMap, type SourceMapPayload } from 'node:module';
import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { CreateSecretCommand } from '@aws-sdk/client-secrets-manager';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { clientOptions } from '../../functions/adapters/aws/client-options';
import { invoiceIdFor } from '../../functions/domain/billing/invoice';
import { withCorrelation } from '../../functions/domain/correlation';
import type { ProductId } from '../../functions/domain/catalog/product';
import type { ProfileId } from '../../functions/domain/organizations/organization';
import type { PartnerId } from '../../functions/domain/partners/partner';
import type { HttpLambda } from '../../functions/http/http-context';
import { LOCAL_STRIPE_SECRET_KEY } from '../../functions/resources/function-environment';
import {
  type FunctionName,
  ORDER_OUTBOX_BATCH_SIZE,
  QUEUES,
  type QueueName,
  queueName,
  stripeSecretName,
  tableName,
} from '../../functions/resources/resource-definitions';
import { isPartnerRoute, routesOn } from '../../functions/routes';
import { ON_DEMAND_PACKAGES } from '../../lib/infrastructure/bundling';
import { webhookSet } from '../../lib/ops-cli/webhook-commands';
import { apiGatewayListener } from '../../lib/local-runtime/api-gateway-adapter';
import { createQueueConsumer, type QueueConsumer, type SqsLambda } from '../../lib/local-runtime/queue-poller';
import { createStreamConsumer, type StreamConsumer, type StreamLambda } from '../../lib/local-runtime/stream-poller';
import { bundleInvoker, type BundleInvocation } from '../support/bundle-invoker';
import { stripeStandIn } from '../support/inspect';
import {
  environmentFor,
  type SynthesizedApp,
  type SynthesizedFunction,
  synthesizeBundledApp,
} from '../support/synthesized-bundles';
import { startTestStack, type TestStack } from '../support/test-stack';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { aLocation, aSetupRequest } from '../support/setup-request-builder';

const standIns = inject('standIns');

let app: SynthesizedApp;
let stack: TestStack;
let invoke: ReturnType<typeof bundleInvoker>;
let gateway: Server;
let gatewayUrl: string;
let receiver: WebhookReceiver;
/** Every invocation of a bundle, in order: which function, and what it logged. */
const invocations: { fn: FunctionName; logs: Record<string, unknown>[]; stderr: string }[] = [];

/** The AWS runtime's part of a function's environment, pointed at the stand-ins. */
const awsRuntimeEnvironment = (): Record<string, string> => ({
  AWS_REGION: 'us-east-1',
  // The stack's own clients' credentials (client-options.ts): DynamoDB Local keeps one database per access key and region.
  AWS_ACCESS_KEY_ID: 'local',
  AWS_SECRET_ACCESS_KEY: 'local',
  AWS_ENDPOINT_URL_DYNAMODB: standIns.endpoints.dynamodb,
  // The stand-in's queue URLs name sqs.<region>.localhost: the endpoint at that same host, as in AWS.
  AWS_ENDPOINT_URL_SQS: new URL(stack.queueUrls.orderEvents).origin,
  AWS_ENDPOINT_URL_SESV2: standIns.endpoints.ses,
  AWS_ENDPOINT_URL_SECRETS_MANAGER: standIns.endpoints.secretsManager,
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
});

const functionNamed = (name: FunctionName): SynthesizedFunction => {
  const fn = app.functions.find((f) => f.name === name);
  if (!fn) throw new Error(`the template has no function ${name}`);
  return fn;
};

function deliveredOrderWithoutInvoice(rawBody: Buffer): Record<string, unknown> {
  const { invoice: _invoice, ...data } = (JSON.parse(rawBody.toString('utf8')) as { data: Record<string, unknown> })
    .data;
  return data;
}

async function run<R>(name: FunctionName, event: unknown): Promise<BundleInvocation<R>> {
  const fn = functionNamed(name);
  const environment = {
    ...environmentFor(app, fn, { resourcePrefix: stack.config.RESOURCE_PREFIX, queueUrls: stack.queueUrls }),
    ...awsRuntimeEnvironment(),
    // Stripe is not an AWS service: the one variable the template does not have (the key itself comes from Secrets Manager).
    STRIPE_API_BASE: standIns.stripeApiBase,
  };
  const invocation = await invoke<R>(fn, environment, event);
  invocations.push({ fn: name, logs: invocation.logs, stderr: invocation.stderr });
  if (invocation.error) throw new Error(`${name} failed: ${invocation.error.message}\n${invocation.stderr}`);
  return invocation;
}

const viaBundle =
  (name: FunctionName): HttpLambda =>
  async (event) =>
    (await run<Awaited<ReturnType<HttpLambda>>>(name, event)).result ?? { statusCode: 502, body: 'no result' };

const queueArn = (queue: QueueName) =>
  `arn:aws:sqs:us-east-1:000000000000:${queueName(stack.config.RESOURCE_PREFIX, queue)}`;
const queueConsumer = (queue: QueueName, name: FunctionName): QueueConsumer =>
  createQueueConsumer({
    sqs: stack.deps.aws.sqs,
    queueUrl: stack.queueUrls[queue],
    queueArn: queueArn(queue),
    batchSize: QUEUES[queue].consumerBatchSize,
    handler: (async (event) =>
      (await run<Awaited<ReturnType<SqsLambda>>>(name, event)).result ?? undefined) satisfies SqsLambda,
  });

/** The orders table's stream, read by the outbox relay's bundle (each poll reads on from where the last one stopped). */
let relay: StreamConsumer | undefined;
const outboxRelay = (): StreamConsumer =>
  (relay ??= createStreamConsumer({
    db: stack.deps.aws.db as unknown as DynamoDBClient,
    streams: new DynamoDBStreamsClient(clientOptions(standIns.endpoints.dynamodb)),
    tableName: tableName(stack.config.RESOURCE_PREFIX, 'orders'),
    batchSize: ORDER_OUTBOX_BATCH_SIZE,
    handler: (async (event) =>
      (await run<Awaited<ReturnType<StreamLambda>>>('orderOutboxRelay', event)).result ??
      undefined) satisfies StreamLambda,
  }));

beforeAll(async () => {
  app = synthesizeBundledApp('sandbox');
  invoke = bundleInvoker(app.outdir);
  stack = await startTestStack({ queuePollers: false });
  // The template's STRIPE_SECRET_NAME, under the test's prefix: the setup bundle reads its Stripe key from Secrets Manager.
  await stack.deps.aws.secrets.send(
    new CreateSecretCommand({
      Name: stripeSecretName(stack.config.RESOURCE_PREFIX),
      SecretString: LOCAL_STRIPE_SECRET_KEY,
    }),
  );
  const routes = routesOn('sandbox').map((route) => ({
    method: route.method,
    path: route.path,
    handler: viaBundle(route.fn),
    timeoutSeconds: functionNamed(route.fn).timeoutSeconds,
  }));
  gateway = createServer(apiGatewayListener(routes));
  await new Promise<void>((listening) => gateway.listen(0, '127.0.0.1', listening));
  const address = gateway.address();
  gatewayUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  receiver = await startWebhookReceiver(() => 200);
}, 180_000);

afterAll(async () => {
  await receiver?.close();
  await new Promise((closed) => gateway?.close(closed));
  await stack?.close();
  if (app) rmSync(app.outdir, { recursive: true, force: true });
});

const call = (method: string, path: string, options: { headers?: Record<string, string>; body?: unknown } = {}) =>
  fetch(`${gatewayUrl}${path}`, {
    method,
    redirect: 'manual',
    headers: { ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }), ...options.headers },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });

const requestLogOf = (fn: FunctionName) =>
  invocations
    .filter((i) => i.fn === fn)
    .at(-1)
    ?.logs.find((line) => line.msg === 'api_request');

describe('the synthesized bundles, run as Lambda runs them', () => {
  let partnerId: string;
  let apiKey: string;
  let profileId: string;
  let paymentCustomerId: string;
  let orderId: string;

  it('setup provisions an organization through the bundle: 200, the Stripe customer from the key in Secrets Manager', async () => {
    ({ partnerId, apiKey } = await stack.createPartner());
    const body = aSetupRequest()
      .forOrg('bundle-org', 'Bundle Dental')
      .forUser('bundle-user')
      .withLocations(aLocation('dock', { isDefault: true }))
      .build();
    const response = await call('POST', '/v1/organizations/setup', {
      headers: { Authorization: `Bearer ${apiKey}`, 'Idempotency-Key': randomUUID() },
      body,
    });
    const json = (await response.json()) as {
      data: { profile: { id: string }; organization: { paymentCustomerId: string } };
    };

    expect(response.status).toBe(200);
    expect(json.data.organization.paymentCustomerId).toMatch(/^cus_/);
    profileId = json.data.profile.id;
    paymentCustomerId = json.data.organization.paymentCustomerId;
    expect(requestLogOf('setup')).toMatchObject({ level: 'info', endpoint: 'setup', status: 200, partnerId });
  });

  it('log lines name failures by their stable names, not minified letters', async () => {
    const unknownKey = await call('POST', '/v1/organizations/setup', {
      headers: { Authorization: `Bearer sk_test_${'x'.repeat(64)}` },
      body: {},
    });
    expect(unknownKey.status).toBe(401);
    expect(requestLogOf('setup')).toMatchObject({ status: 401, failure: 'Unauthorized' });

    const invalid = await call('POST', '/v1/organizations/setup', {
      headers: { Authorization: `Bearer ${apiKey}` },
      body: { internalOrgId: '' },
    });
    expect(invalid.status).toBe(400);
    expect(requestLogOf('setup')).toMatchObject({ status: 400, failure: 'ValidationFailed' });

    const unknownProfile = await call('POST', '/v1/partner/handshake', {
      headers: { 'X-API-Key': apiKey },
      body: { profile_id: randomUUID() },
    });
    expect(unknownProfile.status).toBe(404);
    expect(requestLogOf('handshake')).toMatchObject({ status: 404, failure: 'ProfileNotFound' });
  });

  it('handshake and the embed host sign the user in: token redeemed for a cookie, then the page', async () => {
    const handshake = await call('POST', '/v1/partner/handshake', {
      headers: { 'X-API-Key': apiKey },
      body: { profile_id: profileId.toUpperCase() },
    });
    expect(handshake.status).toBe(200);
    const { iframe_embed_url } = (await handshake.json()) as { iframe_embed_url: string };
    const embedUrl = new URL(iframe_embed_url);
    expect(embedUrl.pathname).toBe(`/embedded/${partnerId}`);

    const redeemed = await call('GET', `${embedUrl.pathname}${embedUrl.search}`);
    expect(redeemed.status).toBe(303);
    expect(redeemed.headers.get('location')).not.toContain('session_key');
    const cookie = redeemed.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    expect(cookie).not.toBe('');

    const page = await call('GET', embedUrl.pathname, { headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('Bundle Dental');

    const replayedToken = await call('GET', `${embedUrl.pathname}${embedUrl.search}`);
    expect(replayedToken.status).toBe(401);
    expect(requestLogOf('embed')).toMatchObject({ status: 401 });
  });

  it('ships the SVG check’s XML parser beside the embed host’s handler, not in it, and it loads from there as the check loads it', async () => {
    const embed = functionNamed('embed');
    const beside = join(dirname(embed.bundle), 'node_modules', '@xmldom', 'xmldom', 'index.mjs');
    // A name from the parser's entity table, which only the parser itself carries.
    expect(readFileSync(embed.bundle, 'utf8')).not.toContain('Aacute');
    expect(readFileSync(beside, 'utf8')).toContain('Aacute');
    expect(createRequire(embed.bundle).resolve('@xmldom/xmldom')).toBe(beside);
    // A bundle of a CommonJS package: its exports are its default export (svg-picture.ts reads them there).
    const loaded = (await import(pathToFileURL(beside).href)) as { default: { DOMParser: unknown } };
    expect(typeof loaded.default.DOMParser).toBe('function');
  });

  it('ships the Spending chart’s d3-scale beside the embed host’s handler, not in it, and it loads from there as the page loads it', async () => {
    const embed = functionNamed('embed');
    const beside = join(dirname(embed.bundle), 'node_modules', 'd3-scale', 'index.mjs');
    // A name from d3-color's table of CSS colors, which d3-scale brings and nothing else of ours carries.
    expect(readFileSync(embed.bundle, 'utf8')).not.toContain('aliceblue');
    expect(readFileSync(beside, 'utf8')).toContain('aliceblue');
    expect(createRequire(embed.bundle).resolve('d3-scale')).toBe(beside);
    const loaded = (await import(pathToFileURL(beside).href)) as typeof import('d3-scale');
    expect(loaded.scaleBand().domain(['a', 'b']).range([0, 100]).bandwidth()).toBe(50);
  });

  it('an order change travels stream → outbox relay → fan-out → dispatch to the partner’s endpoint, each a bundle', async () => {
    await webhookSet(stack.deps, { partner: partnerId, url: receiver.url });
    const profile = await stack.deps.organizations.getProfile(profileId as ProfileId);
    const organization =
      profile && (await stack.deps.organizations.getOrganization(profile.partnerId, profile.internalOrgId));
    if (!profile || !organization) throw new Error('the profile setup made is not stored');
    await stack.deps.cartService.add(profile.id, 'GLV-NIT-M-100' as ProductId, 2);
    // As a request of the orders API would: its id goes with the order's event to the attempt.
    const placingRequestId = `req-${randomUUID()}`;
    const order = await withCorrelation({ requestId: placingRequestId }, () =>
      stack.deps.orderService.placeOrder({ partner: { id: profile.partnerId }, profile, organization }),
    );

    expect((await outboxRelay().pollOnce()).failed).toBe(0);
    expect(invocations.at(-1)?.logs).toContainEqual(
      expect.objectContaining({ msg: 'order event relayed', event: 'order.created', partnerId }),
    );

    expect(await queueConsumer('orderEvents', 'orderFanout').pollOnce()).toMatchObject({ received: 1, failed: [] });
    expect(await queueConsumer('webhookDeliveries', 'webhookDispatch').pollOnce({ waitSeconds: 1 })).toMatchObject({
      received: 1,
      failed: [],
    });
    // The dispatcher bundle's line (Powertools Logger) carries the placing request, the order and its Lambda invocation;
    // its EMF line (Powertools Metrics) counts the attempt.
    const dispatch = invocations.at(-1)!;
    expect(dispatch.fn).toBe('webhookDispatch');
    expect(dispatch.logs).toContainEqual(
      expect.objectContaining({
        level: 'info',
        msg: 'webhook delivered',
        requestId: placingRequestId,
        orderId: order.id,
        organizationId: organization.organization.id,
        partnerId,
        eventId: expect.stringMatching(/^evt_/),
        deliveryId: expect.any(String),
        functionName: expect.any(String),
        lambdaRequestId: expect.any(String),
        coldStart: expect.any(Boolean),
      }),
    );
    expect(dispatch.logs).toContainEqual(
      expect.objectContaining({
        _aws: expect.objectContaining({
          CloudWatchMetrics: [
            expect.objectContaining({ Namespace: 'PartnerEmbed', Dimensions: [['service', 'outcome']] }),
          ],
        }),
        service: stack.config.RESOURCE_PREFIX,
        outcome: 'delivered',
        WebhookAttempts: 1,
      }),
    );

    orderId = order.id;
    const [webhook, ...more] = receiver.requests;
    expect(more).toEqual([]);
    expect(JSON.parse(webhook!.rawBody.toString('utf8'))).toMatchObject({
      event: 'order.created',
      data: { order_id: order.id },
    });
    expect(webhook!.headers['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it('a shipment travels the outbox relay to the invoicing bundle, which issues the order’s Stripe invoice', async () => {
    const bearer = { Authorization: `Bearer ${apiKey}` };
    expect((await call('POST', `/v1/sandbox/orders/${orderId}/confirm`, { headers: bearer, body: {} })).status).toBe(
      200,
    );
    const shipped = await call('POST', `/v1/sandbox/orders/${orderId}/ship`, { headers: bearer, body: {} });
    expect(shipped.status).toBe(200);
    const { order } = (await shipped.json()) as { order: { total: number } };
    while ((await outboxRelay().pollOnce()).received > 0);

    expect(await queueConsumer('invoicing', 'invoicing').pollOnce()).toMatchObject({ received: 1, failed: [] });
    const invoicing = invocations.at(-1)!;
    expect(invoicing.fn).toBe('invoicing');
    expect(invoicing.logs).toContainEqual(
      expect.objectContaining({ level: 'info', msg: 'order invoiced', orderId, invoiceId: invoiceIdFor(orderId) }),
    );
    const invoices = await stripeStandIn().invoices.list({ customer: paymentCustomerId });
    expect(invoices.data.map(({ status, total, metadata }) => ({ status, total, orderId: metadata?.orderId }))).toEqual(
      [{ status: 'open', total: Math.round(order.total * 100), orderId }],
    );
  });

  it('the approval expiry bundle, run as its EventBridge schedule runs it, expires a request undecided for 7 days', async () => {
    const profile = await stack.deps.organizations.getProfile(profileId as ProfileId);
    const organization =
      profile && (await stack.deps.organizations.getOrganization(profile.partnerId, profile.internalOrgId));
    if (!profile || !organization) throw new Error('the profile setup made is not stored');
    // The bundle reads the real clock, so the request is made 8 real days ago; the test clock then goes back to where it was.
    const before = stack.clock.now();
    stack.clock.set(new Date(Date.now() - 8 * 24 * 3600 * 1000));
    await stack.deps.cartService.add(profile.id, 'GLV-NIT-M-100' as ProductId, 1);
    const request = await stack.deps.approvalService.submit({
      partner: { id: profile.partnerId },
      profile,
      organization,
    });
    stack.clock.set(before);

    const scheduled = {
      version: '0',
      id: randomUUID(),
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
      time: new Date().toISOString(),
      resources: [],
      detail: {},
    };
    const invocation = await run<{ expired: number }>('approvalExpiry', scheduled);
    expect(invocation.result).toEqual({ expired: 1 });
    expect(invocation.logs).toContainEqual(
      expect.objectContaining({
        level: 'info',
        msg: 'approval expiry sweep',
        expired: 1,
        approvalRequestIds: [request.id],
      }),
    );
    expect(await stack.deps.approvalService.get(request.id, { partnerId: profile.partnerId })).toMatchObject({
      status: 'expired',
      decidedAt: request.expiresAt,
      version: 2,
    });
  });

  it('every API route’s bundle, sandbox routes included, refuses a request without a key: 401, logged as Unauthorized', async () => {
    for (const route of routesOn('sandbox').filter(isPartnerRoute)) {
      const path = route.path.replace(/\{[^}]+\}/g, randomUUID());
      const response = await call(route.method, path, (route.method as string) === 'GET' ? {} : { body: {} });
      expect(response.status, `${route.method} ${route.path}`).toBe(401);
      expect(requestLogOf(route.fn), `${route.method} ${route.path}`).toMatchObject({
        status: 401,
        failure: 'Unauthorized',
      });
    }
  }, 120_000); // one cold start of every API bundle, each route in turn

  it("refuses an unsigned Stripe event with 400 before it reads the endpoint secret, logged as the route's", async () => {
    const response = await call('POST', '/v1/stripe/events', { body: { type: 'invoice.paid' } });
    expect(response.status).toBe(400);
    expect(requestLogOf('ordersApi')).toMatchObject({ status: 400 });
  });

  it('the invoice sweep bundle, run as its EventBridge schedule runs it, queries the uninvoiced shipments and answers what it did', async () => {
    // Shipments in this stack carry test-clock times years ahead of the bundle's real clock, so none is due yet.
    const invocation = await run<{ found: number; invoiced: number; failed: number }>('invoiceSweep', {
      time: new Date().toISOString(),
    });
    expect(invocation.result).toEqual({ found: 0, invoiced: 0, failed: 0 });
  });

  it('runs without source maps, and ships a map of positions only that leads a stack frame back to our source', () => {
    for (const fn of app.functions) {
      expect(fn.environment.NODE_OPTIONS).toBeUndefined();
      const map = JSON.parse(readFileSync(`${fn.bundle}.map`, 'utf8')) as SourceMapPayload;
      expect(map.sourcesContent ?? []).toEqual([]);
    }
    // As docs/operations.md tells an operator to read a frame: the request log's line in the setup bundle.
    const setup = app.functions.find((f) => f.name === 'setup') as SynthesizedFunction;
    const lines = readFileSync(setup.bundle, 'utf8').split('\n');
    const line = lines.findIndex((text) => text.includes('"api_request"'));
    const column = (lines[line] as string).indexOf('"api_request"');
    const entry = new SourceMap(JSON.parse(readFileSync(`${setup.bundle}.map`, 'utf8')) as SourceMapPayload).findEntry(
      line,
      column,
    );
    expect('originalSource' in entry && entry.originalSource).toMatch(/functions\/http\/request-log\.ts$/);
  });

  it('ships Stripe beside the handlers that load it on demand (setup, ordersApi, the embed host), not in them, so a cold start neither reads nor parses it (the first test loaded it from there)', () => {
    const withStripe = (Object.keys(ON_DEMAND_PACKAGES) as FunctionName[]).filter((name) =>
      ON_DEMAND_PACKAGES[name]?.includes('stripe'),
    );
    expect(withStripe).toEqual(expect.arrayContaining(['setup', 'ordersApi', 'embed']));
    for (const name of withStripe) {
      const fn = functionNamed(name);
      const beside = join(dirname(fn.bundle), 'node_modules', 'stripe', 'index.mjs');
      expect(readFileSync(fn.bundle, 'utf8'), name).not.toContain('api.stripe.com');
      // What `import('stripe')` finds from the handler: the bundle beside it (here the repository's copy further up would do too).
      expect(createRequire(fn.bundle).resolve('stripe'), name).toBe(beside);
      expect(readFileSync(beside, 'utf8'), name).toContain('api.stripe.com');
    }
    for (const fn of app.functions.filter((f) => !ON_DEMAND_PACKAGES[f.name]))
      expect(existsSync(join(dirname(fn.bundle), 'node_modules')), fn.name).toBe(false);
  });

  it('an attempt to an endpoint on the slow path moves there in the fast bundle and is sent once by the slow bundle', async () => {
    const partner = partnerId as PartnerId;
    // Earlier cases leave order events (and so deliveries) queued: hand them on first, so the counts below are this order's.
    while ((await queueConsumer('orderEvents', 'orderFanout').pollOnce()).received > 0);
    while ((await queueConsumer('webhookDeliveries', 'webhookDispatch').pollOnce({ waitSeconds: 1 })).received > 0);
    await stack.deps.webhookEndpoints.markSlowPath(partner, stack.clock.now(), 'slow in an earlier attempt');
    await stack.deps.orderEvents.publish({
      partnerId: partner,
      event: 'order.created',
      // The delivered order carries its invoice, which the service adds itself: a publisher never sends it.
      data: { ...deliveredOrderWithoutInvoice(receiver.requests[0]!.rawBody), order_id: randomUUID() },
    });
    const before = receiver.requests.length;
    expect(await queueConsumer('orderEvents', 'orderFanout').pollOnce()).toMatchObject({ received: 1, failed: [] });
    expect(await queueConsumer('webhookDeliveries', 'webhookDispatch').pollOnce({ waitSeconds: 1 })).toMatchObject({
      received: 1,
      failed: [],
    });
    expect(invocations.at(-1)?.logs).toContainEqual(
      expect.objectContaining({ msg: 'webhook attempt moved to the slow path', reason: 'known-slow', partnerId }),
    );
    expect(receiver.requests).toHaveLength(before);
    expect(
      await queueConsumer('webhookSlowDeliveries', 'webhookSlowDispatch').pollOnce({ waitSeconds: 1 }),
    ).toMatchObject({ received: 1, failed: [] });
    expect(invocations.at(-1)?.logs).toContainEqual(
      expect.objectContaining({ msg: 'webhook delivered', partnerId, functionName: expect.any(String) }),
    );
    expect(receiver.requests).toHaveLength(before + 1);
  });

  it('ran every function the template has, and no bundle wrote to stderr', () => {
    expect(new Set(invocations.map((i) => i.fn))).toEqual(new Set(app.functions.map((f) => f.name)));
    expect(invocations.filter((i) => i.stderr.trim() !== '').map((i) => `${i.fn}: ${i.stderr}`)).toEqual([]);
  });
});
