/**
 * No secret ever leaves where it belongs. A workload touches every endpoint and outcome
 * (200, 303, 400, 401, 403, 404, 409, 429 and injected 500s with their stack traces),
 * webhook deliveries and a failure alert e-mail, and the operator's read commands; then
 * every log line, response (status, headers, body), webhook request, e-mail and command
 * output is searched for every API key (issued, rotated, revoked, narrowed, foreign),
 * key hash, session token and its hash, session cookie and its hash, webhook signing
 * secret and the Stripe secret key.
 *
 * The only places a secret may appear: a handshake's 200 body carries its own token, and
 * a redemption's Set-Cookie its own cookie. (api-pipeline, handshake and embed-host tests
 * check one secret against the log each; this checks all of them everywhere at once.)
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { runOps } from '../../lib/ops-cli/run-ops';
import { FaultPlan, injectAwsFaults, startStripeFaultProxy, type StripeFaultProxy } from '../support/fault-plan';
import { emailsTo } from '../support/ses-outbox';
import { aLocation, aSetupRequest } from '../support/setup-request-builder';
import { recordSqsDelays } from '../support/sqs-delays';
import { startTestStack, type TestStack } from '../support/test-stack';
import { orderCreatedData } from '../support/webhook-fixtures';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

const SETUP = '/v1/organizations/setup';
const HANDSHAKE = '/v1/partner/handshake';
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

interface Seen {
  readonly where: string;
  readonly text: string;
  /** A secret this place legitimately carries (its own token or cookie). */
  readonly own?: string;
}

const plan = new FaultPlan();
const stripeKey = `sk_test_${randomBytes(24).toString('hex')}`;
let proxy: StripeFaultProxy;
let stack: TestStack;
const receivers: WebhookReceiver[] = [];
const seen: Seen[] = [];
const secrets = new Map<string, string>(); // value → what it is

const remember = (what: string, value: string | undefined) => {
  if (!value) return;
  secrets.set(value, what);
  secrets.set(sha256(value), `SHA-256 of ${what}`);
};

beforeAll(async () => {
  proxy = await startStripeFaultProxy(plan);
  stack = await startTestStack({
    queuePollers: false,
    stripeSecretKey: stripeKey,
    extraEnvironment: { STRIPE_API_BASE: proxy.url, WEBHOOK_RETRY_DELAYS_S: '0,0,0,0,0,0', WEBHOOK_TIMEOUT_MS: '500' },
  });
  recordSqsDelays(stack.deps.aws.sqs);
  injectAwsFaults(plan, stack.deps.aws.db, { service: 'dynamodb', prefix: stack.config.RESOURCE_PREFIX });
  remember('the Stripe secret key', stripeKey);
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await stack.close();
  await proxy.close();
});

const headerText = (headers: Headers) => {
  const lines: string[] = [];
  headers.forEach((value, name) => lines.push(`${name}: ${value}`));
  return lines.join('\n');
};

async function api(where: string, path: string, body: unknown, headers: Record<string, string>) {
  const res = await stack.post(path, body, headers);
  const own = path === HANDSHAKE && res.status === 200 ? (res.body.session_key as string) : undefined;
  seen.push({ where: `${where} → ${res.status}`, text: `${headerText(res.headers)}\n${res.text}`, own });
  remember('a session token', own);
  return res;
}

async function browse(
  where: string,
  path: string,
  init: { method?: string; cookie?: string; headers?: Record<string, string> } = {},
) {
  const res = await fetch(`${stack.url}${path}`, {
    method: init.method ?? 'GET',
    redirect: 'manual',
    headers: { ...(init.cookie ? { Cookie: `__Host-embed_session=${init.cookie}` } : {}), ...init.headers },
  });
  const cookie = /__Host-embed_session=([0-9a-f]{64})/.exec(res.headers.getSetCookie().join('\n'))?.[1];
  remember('a session cookie', cookie);
  seen.push({
    where: `${where} → ${res.status}`,
    text: `${headerText(res.headers)}\n${await res.text()}`,
    own: cookie,
  });
  return { status: res.status, cookie, location: res.headers.get('location') };
}

async function ops(where: string, argv: string[]) {
  const lines: string[] = [];
  const code = await runOps(argv, { deps: stack.deps, out: (line) => lines.push(line) });
  seen.push({ where: `ops ${where} → exit ${code}`, text: lines.join('\n') });
  expect(code, where).toBe(0);
}

async function drainQueues() {
  for (let i = 0; i < 40; i += 1) {
    const fanned = await stack.consumers.orderEvents.pollOnce();
    const dispatched = await stack.consumers.webhookDeliveries.pollOnce();
    if (fanned.received + dispatched.received === 0) return;
  }
}

async function runWorkload() {
  // Partners and keys: issued, rotated (the old one revoked), narrowed; and keys never issued.
  const a = await stack.deps.partnerAdmin.createPartner({
    name: 'Partner A',
    alertEmail: `alerts-${randomBytes(4).toString('hex')}@a.test`,
  });
  const issued = await stack.deps.partnerAdmin.issueKey(a.partnerId);
  const rotated = await stack.deps.partnerAdmin.rotateKey(a.partnerId, issued.keyId);
  const narrow = await stack.deps.partnerAdmin.issueKey(a.partnerId, ['session:write']);
  const c = await stack.deps.partnerAdmin.createPartner({
    name: 'Partner C',
    alertEmail: `alerts-${randomBytes(4).toString('hex')}@c.test`,
  });
  const limited = await stack.createPartner();
  const unknownKey = `sk_test_${randomBytes(32).toString('hex')}`;
  const liveKey = `sk_live_${randomBytes(32).toString('hex')}`;
  for (const [what, key] of [
    ['partner A key', a.apiKey],
    ['partner A issued (then rotated away) key', issued.apiKey],
    ['partner A rotated-in key', rotated.apiKey],
    ['partner A narrowed key', narrow.apiKey],
    ['partner C key', c.apiKey],
    ['rate-limited partner key', limited.apiKey],
    ['an unknown key', unknownKey],
    ['a production key', liveKey],
  ] as const)
    remember(what, key);
  const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

  // Setup: every outcome.
  const org = aSetupRequest()
    .forOrg('acme')
    .forUser('u-1')
    .withLocations(aLocation('dock', { isDefault: true }))
    .build();
  const created = await api('setup new', SETUP, org, bearer(a.apiKey));
  await api('setup join', SETUP, aSetupRequest().forOrg('acme').forUser('u-2').build(), bearer(rotated.apiKey));
  await api('setup repeat', SETUP, org, bearer(a.apiKey));
  await api('setup invalid', SETUP, { ...org, user: { email: 'nope' } }, bearer(a.apiKey));
  await api('setup malformed', SETUP, '{"internalOrgId":', bearer(a.apiKey));
  await api('setup idempotent', SETUP, aSetupRequest().forOrg('acme').forUser('u-3').build(), {
    ...bearer(a.apiKey),
    'Idempotency-Key': 'k-1',
  });
  await api('setup idempotent replay', SETUP, aSetupRequest().forOrg('acme').forUser('u-3').build(), {
    ...bearer(a.apiKey),
    'Idempotency-Key': 'k-1',
  });
  await api('setup idempotency key reused', SETUP, aSetupRequest().forOrg('acme').forUser('u-4').build(), {
    ...bearer(a.apiKey),
    'Idempotency-Key': 'k-1',
  });
  await api('setup bad idempotency key', SETUP, org, { ...bearer(a.apiKey), 'Idempotency-Key': 'é'.repeat(3) });
  await api('setup no key', SETUP, org, {});
  await api('setup key in X-API-Key', SETUP, org, { 'X-API-Key': a.apiKey });
  await api('setup Basic', SETUP, org, { Authorization: `Basic ${a.apiKey}` });
  await api('setup Bearer with junk', SETUP, org, { Authorization: `Bearer ${a.apiKey} ${a.apiKey}` });
  await api('setup rotated-away key', SETUP, org, bearer(issued.apiKey));
  await api('setup unknown key', SETUP, org, bearer(unknownKey));
  await api('setup production key', SETUP, org, bearer(liveKey));
  await api('setup narrowed key', SETUP, org, bearer(narrow.apiKey));
  plan.reset();
  plan.when((call) => call.service === 'stripe', 'fail');
  await api('setup with Stripe down', SETUP, aSetupRequest().forOrg('stripe-down').build(), bearer(a.apiKey));
  plan.disarm();
  plan.when((call) => call.operation === 'GetItem' && call.target === 'partners', 'fail');
  await api('setup with the key lookup failing', SETUP, org, bearer(a.apiKey));
  plan.disarm();
  // Spend the window 20 at a time (docs/decisions.md: DynamoDB Local and large bursts).
  for (let batch = 0; batch < 5; batch += 1)
    await Promise.all(Array.from({ length: 20 }, () => stack.post(SETUP, '{', bearer(limited.apiKey))));
  await api('setup rate limited', SETUP, org, bearer(limited.apiKey));

  // Handshake: every outcome.
  const profileId = created.body.data.profile.id as string;
  const byId = await api('handshake by profile_id', HANDSHAKE, { profile_id: profileId }, { 'X-API-Key': a.apiKey });
  const byUser = await api(
    'handshake by internal_user_id',
    HANDSHAKE,
    { internal_user_id: 'u-2' },
    { 'X-API-Key': rotated.apiKey },
  );
  const third = await api(
    'handshake again',
    HANDSHAKE,
    { internal_user_id: 'u-1', internal_org_id: 'acme' },
    { 'X-API-Key': narrow.apiKey },
  );
  await api('handshake neither', HANDSHAKE, {}, { 'X-API-Key': a.apiKey });
  await api('handshake both', HANDSHAKE, { profile_id: profileId, internal_user_id: 'u-1' }, { 'X-API-Key': a.apiKey });
  await api('handshake bad uuid', HANDSHAKE, { profile_id: 'nope' }, { 'X-API-Key': a.apiKey });
  await api('handshake unknown user', HANDSHAKE, { internal_user_id: 'nobody' }, { 'X-API-Key': a.apiKey });
  await api('handshake Authorization header', HANDSHAKE, { profile_id: profileId }, bearer(a.apiKey));
  await api('handshake other partner', HANDSHAKE, { profile_id: profileId }, { 'X-API-Key': c.apiKey });
  await api('handshake rotated-away key', HANDSHAKE, { profile_id: profileId }, { 'X-API-Key': issued.apiKey });
  const setupOnly = await stack.deps.partnerAdmin.issueKey(a.partnerId, ['organization:write']);
  remember('partner A setup-only key', setupOnly.apiKey);
  await api('handshake setup-only key', HANDSHAKE, { profile_id: profileId }, { 'X-API-Key': setupOnly.apiKey });
  plan.disarm();
  plan.when((call) => call.operation === 'PutItem' && call.target === 'sessions', 'fail');
  await api(
    'handshake with the session write failing',
    HANDSHAKE,
    { profile_id: profileId },
    { 'X-API-Key': a.apiKey },
  );
  plan.disarm();

  // Embed host: every outcome.
  const path = (res: { body: { iframe_embed_url: string } }) => {
    const url = new URL(res.body.iframe_embed_url);
    return `${url.pathname}${url.search}`;
  };
  const redeemed = await browse('embed redeem', path(byId));
  expect(redeemed.location).toBe(`/embedded/${a.partnerId}`);
  await browse('embed page', `/embedded/${a.partnerId}`, { cookie: redeemed.cookie });
  await browse('embed second use', path(byId));
  await browse('embed at another partner', path(byUser).replace(a.partnerId, c.partnerId));
  await browse('embed malformed', `/embedded/${a.partnerId}?session_key=${byUser.body.session_key.slice(1)}`);
  await browse('embed cookie at another partner', `/embedded/${c.partnerId}`, { cookie: redeemed.cookie });
  await browse('embed foreign logout', `/embedded/${a.partnerId}/logout`, {
    method: 'POST',
    cookie: redeemed.cookie,
    headers: { 'Sec-Fetch-Site': 'cross-site' },
  });
  await browse('embed logout', `/embedded/${a.partnerId}/logout`, {
    method: 'POST',
    cookie: redeemed.cookie,
    headers: { 'Sec-Fetch-Site': 'same-origin' },
  });
  await browse('embed ended session', `/embedded/${a.partnerId}`, { cookie: redeemed.cookie });
  plan.when((call) => call.operation === 'PutItem' && call.target === 'sessions', 'fail');
  await browse('embed with the session write failing', path(byUser));
  plan.disarm();
  await browse('embed redeem', path(third));

  // Webhooks: a delivery signed with a generated secret, then a rotated one; and a
  // partner-chosen secret failing all the way to the alert e-mail.
  const good = await startWebhookReceiver();
  const bad = await startWebhookReceiver(() => 500);
  receivers.push(good, bad);
  const generated = await stack.deps.webhookAdmin.configureEndpoint({ partnerId: a.partnerId, url: good.url });
  remember('partner A generated webhook secret', generated.generatedSecret);
  await stack.deps.orderEvents.publish({
    partnerId: a.partnerId,
    event: 'order.created',
    data: orderCreatedData('acme'),
  });
  await drainQueues();
  const rotatedSecret = await stack.deps.webhookAdmin.rotateSecret(a.partnerId, 0);
  remember('partner A rotated webhook secret', rotatedSecret.secret);
  stack.clock.advance(5 * 60_000); // past the dispatcher's secret cache
  await stack.deps.orderEvents.publish({
    partnerId: a.partnerId,
    event: 'order.created',
    data: orderCreatedData('acme'),
  });
  await drainQueues();
  const preferred = `whsec_partner_chosen_${randomBytes(16).toString('hex')}`;
  remember('partner C preferred webhook secret', preferred);
  await api('setup C', SETUP, aSetupRequest().forOrg('c-org').build(), bearer(c.apiKey));
  await stack.deps.webhookAdmin.configureEndpoint({ partnerId: c.partnerId, url: bad.url, secret: preferred });
  await stack.deps.orderEvents.publish({
    partnerId: c.partnerId,
    event: 'order.created',
    data: orderCreatedData('c-org'),
  });
  await drainQueues();
  // Five failures in a row open the endpoint's circuit: the ladder's last attempts go as its probes, minutes later.
  for (
    let i = 0;
    i < 20 && (await stack.deps.webhookAdmin.listDeliveries(c.partnerId as PartnerId))[0]?.status === 'pending';
    i += 1
  ) {
    stack.clock.advance(15 * 60_000);
    await drainQueues();
  }
  for (const post of [...good.requests, ...bad.requests]) {
    seen.push({
      where: `webhook POST to ${post.path}`,
      text: `${JSON.stringify(post.headers)}\n${post.rawBody.toString('utf8')}`,
    });
  }
  const alerts = await emailsTo((await stack.deps.partners.getPartner(c.partnerId as PartnerId))?.alertEmail as string);
  expect(alerts).toHaveLength(1);
  for (const mail of alerts) seen.push({ where: 'alert e-mail', text: JSON.stringify(mail) });

  // The operator's read commands.
  const [delivery] = await stack.deps.webhookAdmin.listDeliveries(c.partnerId as PartnerId);
  for (const argv of [
    ['partner', 'show', '--partner', a.partnerId, '--json'],
    ['partner', 'show', '--partner', a.partnerId],
    ['partner', 'list', '--json'],
    ['webhook', 'show', '--partner', a.partnerId, '--json'],
    ['webhook', 'show', '--partner', c.partnerId],
    ['session', 'list', '--partner', a.partnerId, '--json'],
    ['deliveries', 'list', '--partner', c.partnerId, '--json'],
    ['deliveries', 'show', '--delivery', delivery?.deliveryId as string, '--json'],
    ['organization', 'show', '--partner', a.partnerId, '--org', 'acme', '--json'],
  ]) {
    await ops(argv.join(' '), argv);
  }
  return { good, bad, failingPartner: c.partnerId as PartnerId };
}

describe('secrets never appear in logs, responses, webhooks, e-mails or operator output', () => {
  it('holds for a workload over every endpoint, outcome and operator read command', async () => {
    const { good, bad, failingPartner } = await runWorkload();
    // The workload did what it claims.
    const statuses = new Set(seen.map((s) => /→ (\d{3})$/.exec(s.where)?.[1]).filter(Boolean));
    expect([...statuses].sort()).toEqual(['200', '303', '400', '401', '403', '404', '409', '429', '500'].sort());
    expect(good.requests.length).toBe(2);
    // The whole ladder of seven attempts, each sent but those counted unsent while the circuit was open.
    const failed = (await stack.deps.webhookAdmin.listDeliveries(failingPartner))[0];
    const attempts = await stack.deps.deliveries.listAttempts(failed!.deliveryId);
    expect(attempts).toHaveLength(7);
    expect(bad.requests.length).toBe(attempts.filter((a) => !a.error?.startsWith('not sent')).length);
    expect(stack.logs.filter((l) => l.level === 'error' && typeof l.stack === 'string').length).toBeGreaterThanOrEqual(
      3,
    );

    const leaks: string[] = [];
    const places: Seen[] = [...seen, ...stack.rawLogLines.map((line, i) => ({ where: `log line ${i}`, text: line }))];
    for (const place of places) {
      for (const [value, what] of secrets) {
        if (place.own !== undefined && value === place.own) continue;
        if (place.text.includes(value)) leaks.push(`${place.where}: ${what}`);
      }
    }
    expect(leaks).toEqual([]);
    // 9 API keys, 3 session tokens, 2 cookies, 3 webhook secrets and the Stripe key, each with its SHA-256.
    expect(secrets.size).toBe(2 * 18);
  });
});
