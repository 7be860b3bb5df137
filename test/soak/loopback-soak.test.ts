/**
 * A bounded soak over loopback against one local stack, queue pollers running as in
 * `npm start`: several partners, each sending at 95% of both of its rate limits (100
 * setups and 300 handshakes a minute, paced on the service's clock, which follows real
 * time from the start of a window), made of user journeys (setup of a new organization,
 * two handshakes, embed redemption, the module page, a stale link, a further user, an
 * order event delivered by webhook to a local receiver) and filler requests that only
 * count against the limits.
 *
 * Runs SOAK_SECONDS (default 10; `SOAK_SECONDS=120 npx vitest run test/soak` for two
 * minutes, crossing window boundaries) and asserts: no 5xx, every response as expected
 * (no 429 at 95%), the service counted exactly what was sent (RateLimit-Remaining), no
 * error logged, every published event delivered exactly once (by delivery id, with a
 * valid signature), and heap growth under 64 MB between a warm point and the end (after
 * forced GCs). One summary line goes to the test output.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../functions/domain/logger';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { verifyWebhookSignature } from '../../sdk/src/webhooks/verify-webhook-signature';
import { startTestStack, type TestStack } from '../support/test-stack';
import { orderCreatedData } from '../support/webhook-fixtures';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

const SOAK_SECONDS = Number(process.env.SOAK_SECONDS ?? 10);
const PARTNERS = 3;
const SLOTS_PER_PARTNER = 4;
/** A journey per partner this often (real time); the rest of each budget is filler. */
const JOURNEY_EVERY_MS = 1_200;
const SETUP_LIMIT = 100;
const HANDSHAKE_LIMIT = 300;
const UTILIZATION = 0.95;
const HEAP_GROWTH_LIMIT_MB = 64;
const WINDOW_MS = 60_000;

// A forced GC makes the heap numbers mean something; vitest's workers do not expose gc.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapMb = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

const errors: Record<string, unknown>[] = [];
let logLines = 0;
const logger: Logger = {
  info: () => {
    logLines += 1;
  },
  error: (entry) => {
    logLines += 1;
    errors.push(entry);
  },
};

let stack: TestStack;
let receiver: WebhookReceiver;
beforeAll(async () => {
  stack = await startTestStack({ logger, extraEnvironment: { WEBHOOK_TIMEOUT_MS: '5000' } });
  receiver = await startWebhookReceiver(() => 204);
});
afterAll(async () => {
  await stack?.close();
  await receiver?.close();
});

/** Paces one partner's requests to one endpoint at a rate on the service clock, and counts them per window. */
class Pacer {
  private next: number;
  private readonly interval: number;
  readonly perWindow = new Map<number, number>();
  /** Requests whose time between being sent and answered crossed a window boundary: the service counted each on one side of it. */
  readonly nearBoundary = new Map<number, number>();

  constructor(perMinute: number) {
    this.interval = WINDOW_MS / perMinute;
    this.next = stack.clock.now().getTime();
  }

  /** When the next request may go. */
  nextAt(): number {
    return Math.max(this.next, stack.clock.now().getTime());
  }

  /**
   * Waits for this request's turn and counts it in the window it is sent in; false once
   * the soak is over. Call `answered()` once its response is in: the service counted it
   * somewhere between the two, so a boundary crossed meanwhile makes it count on either side.
   * `unsent()` takes back a request that was not sent after all.
   */
  async take(deadline: number): Promise<false | { answered(): void; unsent(): void }> {
    const at = Math.max(this.next, stack.clock.now().getTime());
    this.next = at + this.interval;
    const wait = at - stack.clock.now().getTime();
    if (Date.now() + Math.max(0, wait) >= deadline) return false;
    if (wait > 0) await sleep(wait);
    const sentIn = Math.floor(stack.clock.now().getTime() / WINDOW_MS);
    this.perWindow.set(sentIn, (this.perWindow.get(sentIn) ?? 0) + 1);
    return {
      answered: () => {
        const answeredIn = Math.floor(stack.clock.now().getTime() / WINDOW_MS);
        if (answeredIn === sentIn) return;
        for (const w of [sentIn, answeredIn]) this.nearBoundary.set(w, (this.nearBoundary.get(w) ?? 0) + 1);
      },
      unsent: () => this.perWindow.set(sentIn, (this.perWindow.get(sentIn) ?? 0) - 1),
    };
  }
}

interface Partner {
  readonly partnerId: PartnerId;
  readonly apiKey: string;
  readonly secret: string;
  readonly setups: Pacer;
  readonly handshakes: Pacer;
  nextJourneyAt: number;
  journeys: number;
}

const stats = {
  requests: new Map<string, number>(),
  unexpected: [] as string[],
  latencies: new Map<string, number[]>(),
  published: new Map<string, PartnerId>(), // order_id → partner
};

const count = (key: string) => stats.requests.set(key, (stats.requests.get(key) ?? 0) + 1);

/** One HTTP call, timed and checked against the status the soak expects of it. */
async function call(kind: string, expected: number, path: string, init: RequestInit = {}) {
  const started = performance.now();
  const res = await fetch(`${stack.url}${path}`, { redirect: 'manual', ...init });
  const text = await res.text();
  const latencies = stats.latencies.get(kind) ?? [];
  latencies.push(performance.now() - started);
  stats.latencies.set(kind, latencies);
  count(`${kind} ${res.status}`);
  if (res.status !== expected)
    stats.unexpected.push(`${kind}: expected ${expected}, got ${res.status} ${text.slice(0, 200)}`);
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) };
}

const post = (kind: string, expected: number, path: string, body: unknown, headers: Record<string, string>) =>
  call(kind, expected, path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const setupBody = (internalOrgId: string, internalUserId: string) => ({
  internalOrgId,
  organizationName: 'Soak Dental',
  internalUserId,
  user: { firstName: 'Ada', lastName: 'Lovelace', email: `${internalUserId}@soak.test` },
  shippingLocations: [
    {
      internalShippingLocationId: 'dock',
      name: 'Dock',
      isDefault: true,
      address: { line1: '1 Main St', city: 'Austin', province: 'tx', postalCode: '78701' },
    },
  ],
});

/** A user's whole day: provisioning, two handshakes, the iframe, a stale link, a colleague, an order. */
async function journey(partner: Partner, deadline: number) {
  const bearer = { Authorization: `Bearer ${partner.apiKey}` };
  const xApiKey = { 'X-API-Key': partner.apiKey };
  const org = `org-${randomUUID().slice(0, 8)}`;
  const setup = await partner.setups.take(deadline);
  if (!setup) return;
  const created = await post('setup', 200, '/v1/organizations/setup', setupBody(org, 'u-1'), bearer);
  setup.answered();
  if (created.status !== 200) return;
  const profileId = created.json().data.profile.id as string;

  const first = await partner.handshakes.take(deadline);
  const second = first && (await partner.handshakes.take(deadline));
  if (!first || !second) {
    // The soak ended between the two turns: neither goes.
    if (first) first.unsent();
    return;
  }
  const [byUser, byId] = await Promise.all([
    post('handshake', 200, '/v1/partner/handshake', { internal_user_id: 'u-1', internal_org_id: org }, xApiKey),
    post('handshake', 200, '/v1/partner/handshake', { profile_id: profileId }, xApiKey),
  ]);
  first.answered();
  second.answered();
  if (byUser.status !== 200 || byId.status !== 200) return;
  const url = new URL(byUser.json().iframe_embed_url);
  const redeemed = await call('embed redeem', 303, `${url.pathname}${url.search}`);
  const cookie = /__Host-embed_session=([0-9a-f]{64})/.exec(redeemed.headers.getSetCookie().join('\n'))?.[1];
  const page = await call('embed page', 200, url.pathname, { headers: { Cookie: `__Host-embed_session=${cookie}` } });
  if (!page.text.includes('Soak Dental')) stats.unexpected.push('embed page: organization not shown');
  await call('embed reuse', 401, `${url.pathname}${url.search}`);

  partner.journeys += 1;
  const join = partner.journeys % 3 === 0 && (await partner.setups.take(deadline));
  if (join) {
    await post('setup join', 200, '/v1/organizations/setup', setupBody(org, 'u-2'), bearer);
    join.answered();
  }
  const orderId = randomUUID();
  await stack.deps.orderEvents.publish({
    partnerId: partner.partnerId,
    event: 'order.created',
    data: orderCreatedData(org, orderId),
  });
  stats.published.set(orderId, partner.partnerId);
  count('order event published');
}

/** One slot of a partner's traffic: journeys when one is due, else filler that only counts against the limits. */
async function slot(partner: Partner, deadline: number) {
  let turn = 0;
  while (Date.now() < deadline) {
    turn += 1;
    if (Date.now() >= partner.nextJourneyAt) {
      partner.nextJourneyAt = Date.now() + JOURNEY_EVERY_MS;
      await journey(partner, deadline);
    } else if (partner.setups.nextAt() <= partner.handshakes.nextAt()) {
      const sent = await partner.setups.take(deadline);
      if (!sent) return;
      await post('filler setup', 400, '/v1/organizations/setup', turn % 8 ? '{' : { internalOrgId: '' }, {
        Authorization: `Bearer ${partner.apiKey}`,
      });
      sent.answered();
    } else {
      const sent = await partner.handshakes.take(deadline);
      if (!sent) return;
      await post('filler handshake', 400, '/v1/partner/handshake', turn % 2 ? '{' : {}, {
        'X-API-Key': partner.apiKey,
      });
      sent.answered();
    }
  }
}

describe(`soak: ${PARTNERS} partners near their rate limits for ${SOAK_SECONDS} s`, () => {
  it(
    'serves without a 5xx, an unexpected answer or an error log, counts exactly, delivers every event once, and holds its memory',
    async () => {
      // The service's clock follows real time from the start of a window.
      stack.clock.set(new Date(Math.ceil(stack.clock.now().getTime() / WINDOW_MS) * WINDOW_MS + WINDOW_MS));
      let last = Date.now();
      const ticker = setInterval(() => {
        const now = Date.now();
        stack.clock.advance(now - last);
        last = now;
      }, 20);

      const partners: Partner[] = [];
      for (let i = 0; i < PARTNERS; i += 1) {
        const { partnerId, apiKey } = await stack.createPartner();
        const { generatedSecret } = await stack.deps.webhookAdmin.configureEndpoint({
          partnerId,
          url: receiver.url,
          events: ['order.created'],
        });
        partners.push({
          partnerId,
          apiKey,
          secret: generatedSecret as string,
          setups: new Pacer(SETUP_LIMIT * UTILIZATION),
          handshakes: new Pacer(HANDSHAKE_LIMIT * UTILIZATION),
          nextJourneyAt: 0,
          journeys: 0,
        });
      }

      const stderrWrite = process.stderr.write.bind(process.stderr);
      const gatewayFailures: string[] = [];
      process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
        if (String(chunk).includes('local gateway:')) gatewayFailures.push(String(chunk));
        return (stderrWrite as (...args: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof process.stderr.write;

      const started = Date.now();
      const deadline = started + SOAK_SECONDS * 1000;
      // The baseline heap is taken once everything is warm, 30% into the run.
      let heapWarm: number | undefined;
      const warmTimer = setTimeout(() => (heapWarm = heapMb()), SOAK_SECONDS * 300);
      try {
        await Promise.all(
          partners.flatMap((partner) => Array.from({ length: SLOTS_PER_PARTNER }, () => slot(partner, deadline))),
        );
      } finally {
        clearTimeout(warmTimer);
        clearInterval(ticker);
        process.stderr.write = stderrWrite;
      }
      const servedFor = (Date.now() - started) / 1000;

      // The service counted exactly what was sent in this window (give or take sends right at a boundary).
      const rateLimitDrift: string[] = [];
      for (const [name, pacer, path, headers] of partners.flatMap(
        (p) =>
          [
            ['setup', p.setups, '/v1/organizations/setup', { Authorization: `Bearer ${p.apiKey}` }],
            ['handshake', p.handshakes, '/v1/partner/handshake', { 'X-API-Key': p.apiKey }],
          ] as const,
      )) {
        // A check whose own round trip crosses a boundary says nothing: it is made again.
        let window: number;
        let res: Awaited<ReturnType<typeof post>>;
        do {
          window = Math.floor(stack.clock.now().getTime() / WINDOW_MS);
          res = await post(`count check ${name}`, 400, path, '{', headers);
        } while (Math.floor(stack.clock.now().getTime() / WINDOW_MS) !== window);
        const limit = name === 'setup' ? SETUP_LIMIT : HANDSHAKE_LIMIT;
        const expected = limit - (pacer.perWindow.get(window) ?? 0) - 1;
        const remaining = Number(res.headers.get('ratelimit-remaining'));
        if (Math.abs(remaining - expected) > (pacer.nearBoundary.get(window) ?? 0))
          rateLimitDrift.push(`${name}: remaining ${remaining}, expected ${expected}`);
      }
      const busiest = Math.max(...partners.flatMap((p) => [...p.setups.perWindow.values()]));
      const busiestHandshakes = Math.max(...partners.flatMap((p) => [...p.handshakes.perWindow.values()]));

      // Every published event reaches the receiver: wait for the pollers to finish the last ones.
      const orderIdOf = (body: Buffer) =>
        (JSON.parse(body.toString('utf8')) as { data: { order_id: string } }).data.order_id;
      for (let waited = 0; waited < 30_000; waited += 200) {
        if (new Set(receiver.requests.map((r) => orderIdOf(r.rawBody))).size >= stats.published.size) break;
        await new Promise((done) => setTimeout(done, 200));
      }
      await new Promise((done) => setTimeout(done, 500)); // room for a duplicate to show up
      const heapEnd = heapMb();

      const deliveryIds = receiver.requests.map((r) => r.headers['x-service-delivery-id'] as string);
      const byOrder = new Map<string, Set<string>>();
      for (const request of receiver.requests) {
        const orderId = orderIdOf(request.rawBody);
        byOrder.set(
          orderId,
          new Set([...(byOrder.get(orderId) ?? []), request.headers['x-service-delivery-id'] as string]),
        );
        const owner = partners.find((p) => p.partnerId === stats.published.get(orderId));
        if (!owner || !verifyWebhookSignature(request.rawBody, request.headers['x-service-signature'], owner.secret)) {
          stats.unexpected.push(`webhook for ${orderId}: unknown order or bad signature`);
        }
      }
      const percentile = (kind: string, p: number) => {
        const sorted = [...(stats.latencies.get(kind) ?? [])].sort((a, b) => a - b);
        return sorted.length
          ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number)
          : 0;
      };
      const total = [...stats.requests]
        .filter(([k]) => !k.startsWith('order event'))
        .reduce((sum, [, n]) => sum + n, 0);
      const fiveXx = [...stats.requests].filter(([k]) => / 5\d\d$/.test(k));
      const heapGrowth = heapEnd - (heapWarm ?? heapEnd);
      console.log(
        `[soak] ${servedFor.toFixed(1)} s, ${PARTNERS} partners at ${UTILIZATION * 100}% of both limits (busiest window: ${busiest} setups, ${busiestHandshakes} handshakes); ` +
          `${total} requests (${(total / servedFor).toFixed(0)}/s): ${[...stats.requests]
            .sort()
            .map(([k, n]) => `${k}×${n}`)
            .join(', ')}; ` +
          `p50/p99 ms setup ${percentile('setup', 50)}/${percentile('setup', 99)}, handshake ${percentile('handshake', 50)}/${percentile('handshake', 99)}, ` +
          `redeem ${percentile('embed redeem', 50)}/${percentile('embed redeem', 99)}; ` +
          `webhooks ${stats.published.size} published, ${byOrder.size} received, ${receiver.requests.length} POSTs, ${new Set(deliveryIds).size} delivery ids; ` +
          `${logLines} log lines, ${errors.length} errors; heap ${heapWarm?.toFixed(1) ?? '-'} → ${heapEnd.toFixed(1)} MB (${heapGrowth >= 0 ? '+' : ''}${heapGrowth.toFixed(1)}), ` +
          `rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`,
      );

      expect(fiveXx).toEqual([]);
      expect(rateLimitDrift).toEqual([]);
      expect(stats.unexpected).toEqual([]);
      expect(gatewayFailures).toEqual([]);
      expect(errors).toEqual([]);
      expect(stats.published.size).toBeGreaterThan(0);
      expect(byOrder.size).toBe(stats.published.size);
      expect([...byOrder.values()].every((ids) => ids.size === 1)).toBe(true); // one delivery per event
      expect(receiver.requests.length).toBe(new Set(deliveryIds).size); // each delivery received once
      expect(heapGrowth).toBeLessThan(HEAP_GROWTH_LIMIT_MB);
    },
    (SOAK_SECONDS + 90) * 1000,
  );
});
