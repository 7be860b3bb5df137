/**
 * `npm run bench`: every target measured side by side with its baseline in one run and
 * reported as a ratio against its limit. Exits 0 whatever the verdicts; the last line says
 * how many targets hold. What is measured, and why so: docs/performance.md.
 *
 * `npm run bench -- bundles api dispatcher` runs only the sections named (all by default).
 * A section is one entry of SECTIONS; a later one (say `fairness`) is added there.
 * BENCH_SECONDS sets the measured seconds per side of each latency series (default 20).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BenchStack, startBenchStack } from './bench-stack';
import { bundleBudgetKb } from '../lib/infrastructure/bundle-budgets';
import { EMBED_SDK_BUDGET_GZIP_KB, MAX_INIT_RATIO, measureBundles, measureEmbedBrowserScripts } from './bundle-budget';
import { type CapacityCount, type CapacityRow, measureApiCapacity } from './capacity';
import { dynamoDollarsPerMillion, PRICES } from './cost-model';
import { measureDispatcher } from './dispatcher';
import { measureFairness } from './fairness';
import { measureBigPartner } from './big-partner';
import { activeResources, describeSurvivors, type ResourceCounts, runSection } from './section-leftovers';
import { measureThousand } from './thousand';
import { printThousand } from './thousand-report';
import { EMBED_SDK_BUDGET_KB, EMBED_SDK_PATH, measureEmbedSdkScript } from './embed-sdk-budget';
import { type FloorServer, startFloorServer } from './floors';
import { measureHttpPipeline } from './http-pipeline';
import { openModuleSessions } from './module-sessions';
import { pendingOrderPool, placeOriginals } from './order-pool';
import { judgedRatio, median, printTable, ratio, verdict } from './util';
import {
  handshakeWorkload,
  moduleCatalogWorkload,
  moveOrderWorkload,
  placeOrderWorkload,
  sameOnBothSides,
  setupExistingWorkload,
  setupNewWorkload,
} from './workloads';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const SECONDS_PER_SIDE = Math.max(1, Math.round(Number(process.env.BENCH_SECONDS ?? 20)));
/** Stretches the latency series is cut into, to show how far a ratio moves within a run (they are not judged). */
const LATENCY_STRETCHES = 5;
/** Untimed load per side and endpoint before the latency series, at as many connections as saturate this machine. */
const WARMUP_SECONDS = 4;
const WARMUP_CONNECTIONS = 8;
/** 128 partners allow 12,800 setups and 38,400 handshakes a minute, several times what this machine serves. */
const PARTNERS = 128;
const ORGANIZATIONS_PER_PARTNER = 2;
/** Each endpoint against its floor: the same unavoidable calls (DynamoDB, and Stripe for a new organization), one after another. */
const FLOOR_TARGETS: Record<string, { p50: number; p99?: number }> = {
  handshake: { p50: 1.0, p99: 1.2 },
  'setup, existing org': { p50: 1.1 },
  'setup, new org': { p50: 1.1 },
  'place order': { p50: 1.3 },
  'move order': { p50: 1.3 },
  'module catalog page': { p50: 1.3 },
};
/** The dispatcher against its floor: a batch's read, then each slot's claim, POST, release and the conditional write of its outcome, in the queue's batches. */
const MIN_DISPATCH_FLOOR_RATIO = 0.9;
/** Pending orders per side for "move order": enough for the warm-up and the series at this many confirms a second. */
const MOVE_ORDER_CEILING_PER_SECOND = 400;
const CAPACITY_REQUESTS = 20;
/** Rounds of 300, each well under a second, so that one slow second of this VM does not decide the ratio. */
const DISPATCH_ROUNDS = 32;
const DELIVERIES = 9600;
const DISPATCH_WARMUP = 300;
/** Two invocations in flight with SQS events of the deliveries queue's batch size (10). */
const DISPATCH_CONCURRENCY = 20;
/** Endpoints the deliveries go to, a batch's worth in each half: none gets more than its cap of 2 in flight (bench/dispatcher.ts). */
const DISPATCH_PARTNERS = 20;

const targets: { name: string; ok: boolean }[] = [];
const target = (name: string, ok: boolean) => {
  targets.push({ name, ok });
  return verdict(ok);
};
const ms = (value: number) => value.toFixed(1);
const range = (values: readonly number[]) => `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;
const units = (count: CapacityCount) => `${count.read.toFixed(1)} / ${count.write.toFixed(1)}`;
const calls = (count: CapacityCount) =>
  Object.entries(count.calls)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([op, n]) => `${op}×${Number.isInteger(n) ? n : n.toFixed(2)}`)
    .join(' ');

/** What a section of the run that needs the stack gets: the stack and the floor server, started once for all of them. */
interface Context {
  readonly bench: BenchStack;
  readonly floor: FloorServer;
  /** Capacity rows, printed together at the end. */
  readonly capacity: CapacityRow[];
}

/** A section of the run; `stack()` starts the stack and the floors on first use. */
type Section = (stack: () => Promise<Context>) => Promise<void>;

async function bundles(): Promise<void> {
  console.log(
    '\n1. Lambda bundles (minified ESM, AWS SDK from the runtime) vs. a bundle of only the SDK clients each uses\n',
  );
  const measured = await measureBundles();
  printTable(
    measured.map((b) => {
      const budget = bundleBudgetKb(b.fn);
      return {
        function: b.fn,
        'size KB': b.sizeKb.toFixed(1),
        'budget KB': budget,
        'on demand KB': b.onDemand.map((p) => `${p.pkg} ${p.sizeKb.toFixed(1)}`).join(', ') || '-',
        'init ms': ms(b.initMs),
        'baseline init ms': ms(b.baselineInitMs),
        'init ratio': judgedRatio(b.initRatio, MAX_INIT_RATIO, '<='),
        target: target(
          `bundle ${b.fn}: <= ${budget} KB and init <= ${MAX_INIT_RATIO}x`,
          b.sizeKb <= budget && b.initRatio <= MAX_INIT_RATIO,
        ),
      };
    }),
  );
  console.log();
  printTable(
    measureEmbedBrowserScripts().map((s) => ({
      script: s.script === 'sdk' ? 'embed SDK (/sdk/v1/embed.js)' : 'module bridge',
      'minified KB': s.minifiedKb.toFixed(1),
      'gzip KB': s.gzipKb.toFixed(1),
      target:
        s.script === 'sdk'
          ? target(`embed SDK: <= ${EMBED_SDK_BUDGET_GZIP_KB} KB gzipped`, s.gzipKb <= EMBED_SDK_BUDGET_GZIP_KB)
          : '',
    })),
  );
}

async function api({ bench, floor, capacity }: Context): Promise<void> {
  console.log(`\n1b. The embed SDK script as served (${EMBED_SDK_PATH}), minified and gzipped\n`);
  const embedSdk = await measureEmbedSdkScript(bench.stack.url);
  printTable([
    {
      script: EMBED_SDK_PATH,
      'served KB': embedSdk.servedKb.toFixed(1),
      'min+gzip KB': embedSdk.minifiedGzipKb.toFixed(1),
      'budget KB': EMBED_SDK_BUDGET_KB,
      target: target(
        `embed SDK script: <= ${EMBED_SDK_BUDGET_KB} KB minified and gzipped`,
        embedSdk.minifiedGzipKb <= EMBED_SDK_BUDGET_KB,
      ),
    },
  ]);

  const products = await bench.stack.deps.functions.ordersApi.catalog.listActive();
  const productIds = [products[0]?.productId, products[1]?.productId] as [string, string];
  const poolPerSide = (WARMUP_SECONDS + SECONDS_PER_SIDE) * MOVE_ORDER_CEILING_PER_SECOND;
  console.log(
    `\nOpening ${bench.organizations.length} embedded sessions; placing ${bench.organizations.length} orders through the sandbox use case ` +
      `and writing ${2 * poolPerSide + 2 * CAPACITY_REQUESTS} pending copies of them for "move order" ...`,
  );
  const sessions = await openModuleSessions(bench, bench.organizations);
  const halfOf = <T>(items: readonly T[], side: 0 | 1) =>
    items.slice(side * Math.floor(items.length / 2), (side + 1) * Math.floor(items.length / 2));
  const originals = await placeOriginals(bench, bench.organizations, productIds);
  const [capacityOrders, servicePool, floorPool] = [
    await pendingOrderPool(bench, originals, 2 * CAPACITY_REQUESTS),
    await pendingOrderPool(bench, originals, poolPerSide),
    await pendingOrderPool(bench, originals, poolPerSide),
  ];

  capacity.push(
    ...(await measureApiCapacity(bench, floor, CAPACITY_REQUESTS, {
      placeOrder: sameOnBothSides(placeOrderWorkload(bench.capacityOrganizations, productIds)),
      moveOrder: {
        service: moveOrderWorkload(halfOf(capacityOrders, 0)),
        baseline: moveOrderWorkload(halfOf(capacityOrders, 1)),
      },
      moduleCatalog: {
        service: moduleCatalogWorkload(halfOf(sessions, 0)),
        baseline: moduleCatalogWorkload(halfOf(sessions, 1)),
      },
    })),
  );

  console.log(
    `\n2. Latency against each endpoint's floor (its unavoidable calls one after another behind plain node:http), one request at a time ` +
      `as one Lambda instance serves them, the sides taking turns request by request (undici, one connection each; pairs alternate which ` +
      `side goes first), about ${SECONDS_PER_SIDE} s per side after ${WARMUP_SECONDS} s per side at ${WARMUP_CONNECTIONS} connections. ` +
      `Keys rotate over ${PARTNERS} partners (rate limits never bind); the request log is built and discarded. ` +
      `stretches: the p50 ratios of the series' ${LATENCY_STRETCHES} consecutive fifths\n`,
  );
  const workloads = [
    sameOnBothSides(handshakeWorkload(bench.organizations)),
    sameOnBothSides(setupExistingWorkload(bench.organizations)),
    sameOnBothSides(setupNewWorkload(bench.partners)),
    sameOnBothSides(placeOrderWorkload(bench.organizations, productIds)),
    { service: moveOrderWorkload(servicePool), baseline: moveOrderWorkload(floorPool) },
    { service: moduleCatalogWorkload(halfOf(sessions, 0)), baseline: moduleCatalogWorkload(halfOf(sessions, 1)) },
  ];
  const pipeline = await measureHttpPipeline(bench, floor.url, workloads, {
    seconds: SECONDS_PER_SIDE,
    stretches: LATENCY_STRETCHES,
    warmupSeconds: WARMUP_SECONDS,
    warmupConnections: WARMUP_CONNECTIONS,
  });
  printTable(
    pipeline.map(({ endpoint, latency: { service, baseline, stretchP50Ratios } }) => {
      const p50Ratio = service.p50 / baseline.p50;
      const p99Ratio = service.p99 / baseline.p99;
      const goal = FLOOR_TARGETS[endpoint] ?? { p50: 1.0 };
      return {
        endpoint,
        'p50 ms': ms(service.p50),
        'floor p50 ms': ms(baseline.p50),
        'p50 ratio': judgedRatio(p50Ratio, goal.p50, '<='),
        stretches: range(stretchP50Ratios),
        'p99 ms': ms(service.p99),
        'floor p99 ms': ms(baseline.p99),
        'p99 ratio': goal.p99 === undefined ? ratio(service.p99, baseline.p99) : judgedRatio(p99Ratio, goal.p99, '<='),
        'CPU ms/req': `${service.cpuMsPerRequest.toFixed(2)} / ${baseline.cpuMsPerRequest.toFixed(2)}`,
        'non-200': `${service.unexpected}/${service.requests} · ${baseline.unexpected}/${baseline.requests}`,
        target: target(
          `${endpoint}: p50 <= ${goal.p50}x${goal.p99 === undefined ? '' : `, p99 <= ${goal.p99}x`} its floor`,
          p50Ratio <= goal.p50 && (goal.p99 === undefined || p99Ratio <= goal.p99),
        ),
      };
    }),
  );
  console.log(
    "\nCPU ms/req: this process's CPU per request, service / floor (server side plus the identical load generator). " +
      'non-200: responses other than the expected status (201 for place order), connection errors and timeouts, service · floor; should be 0.',
  );
}

async function dispatcher({ bench, floor, capacity }: Context): Promise<void> {
  console.log(
    `\n3. Webhook dispatcher (real fan-out, SQS-triggered handler) vs. its floor (in the same batches: one read of the batch's deliveries ` +
      `and endpoints, then per attempt the claim of an in-flight slot, the signed POST, the slot's release and the conditional write of its outcome): ` +
      `after a warm-up of ${DISPATCH_WARMUP} each, ${DELIVERIES} deliveries each to ${DISPATCH_PARTNERS} endpoints (a batch's 10 distinct), ` +
      `${DISPATCH_CONCURRENCY} POSTs in flight, ${DISPATCH_ROUNDS} rounds, every other one in reverse order. ` +
      "ratio: the median of the rounds' own (their range beside it); all rounds: the ratio of the rates over all of them\n",
  );
  const result = await measureDispatcher(bench, floor, {
    deliveries: DELIVERIES,
    partners: DISPATCH_PARTNERS,
    warmup: DISPATCH_WARMUP,
    rounds: DISPATCH_ROUNDS,
    concurrency: DISPATCH_CONCURRENCY,
  });
  const floorRatio = median(result.floorRatioByRound);
  printTable([
    {
      'deliveries/s': result.service.perSecond.toFixed(0),
      'floor/s': result.floor.perSecond.toFixed(0),
      ratio: judgedRatio(floorRatio, MIN_DISPATCH_FLOOR_RATIO, '>='),
      rounds: range(result.floorRatioByRound),
      'all rounds': ratio(result.service.perSecond, result.floor.perSecond),
      'CPU ms/delivery': `${result.service.cpuMsPerDelivery.toFixed(2)} / ${result.floor.cpuMsPerDelivery.toFixed(2)}`,
      failures: `${result.service.failures} / ${result.floor.failures}`,
      target: target(
        `webhook dispatch: >= ${MIN_DISPATCH_FLOOR_RATIO}x its floor`,
        floorRatio >= MIN_DISPATCH_FLOOR_RATIO,
      ),
    },
  ]);
  console.log(
    `\n(SQS events of ${result.batchSize} records, ${DISPATCH_CONCURRENCY / result.batchSize} invocations in flight; CPU ms/delivery: this process's CPU per delivery, ` +
      'service / floor, the receiver included on both sides; failures: not delivered / non-200, service / floor; should be 0)',
  );
  capacity.push(
    { operation: 'webhook fan-out (one delivery)', service: result.capacityPerFanout },
    {
      operation: 'webhook delivery attempt',
      service: result.capacityPerAttempt,
      floor: result.floorCapacityPerAttempt,
    },
  );
}

function printCapacity(rows: readonly CapacityRow[]): void {
  console.log(
    '\n4. DynamoDB read / write units per request, one request at a time (ReturnConsumedCapacity from DynamoDB Local; transactions by ' +
      "DynamoDB's per-item rule, as Local under-counts them, its own figure beside), the calls, and whether the floor makes the same; " +
      `DynamoDB on-demand cost per million requests (${PRICES.region}: $${PRICES.dynamoReadPerMillionUnits} per million read units, ` +
      `$${PRICES.dynamoWritePerMillionUnits} per million write units)\n`,
  );
  printTable(
    rows.map((row) => ({
      operation: row.operation,
      'read / write units': units(row.service),
      'of which index (in transactions)': row.service.transactionIndexWrite.toFixed(1),
      'Local reported writes': row.service.localReportedWrite.toFixed(1),
      'DynamoDB calls': calls(row.service),
      'same calls as floor': row.floor
        ? calls(row.service) === calls(row.floor)
          ? 'yes'
          : `NO: ${calls(row.floor)}`
        : '-',
      'DynamoDB $ per million': dynamoDollarsPerMillion(row.service).toFixed(2),
    })),
  );
}

/** Healthy partners' webhook lag p99 with 5 never-answering and 5 failing receivers, against without them. */
const MAX_FAIRNESS_P99_RATIO = 1.5;
const FAIRNESS_SECONDS = Math.max(10, Math.round(Number(process.env.FAIRNESS_SECONDS ?? 60)));

async function fairness(): Promise<void> {
  console.log(
    `\n5. Fair delivery: 50 partners with receivers on 127.0.0.1 (40 healthy, 5 never answer, 5 answer 500), each placing an order ` +
      `every 6 s through the sandbox order API, delivered by the local stack's own pollers (outbox → relay → fan-out → dispatcher, ` +
      `retries every 5 s, the contract's 30 s timeout); after an untimed warm-up of the same length, ${FAIRNESS_SECONDS} s with the 10 bad receivers ` +
      `answering 204 like the rest, then ${FAIRNESS_SECONDS} s with them misbehaving: the same load in both, in its own stack. ` +
      'lag: order change → 2xx received, healthy partners only; attempts/s: POSTs that reached any receiver\n',
  );
  const phases = await measureFairness({
    healthy: 40,
    neverAnswers: 5,
    answers500: 5,
    seconds: FAIRNESS_SECONDS,
    orderIntervalMs: 6000,
  });
  const [without, withBad] = phases;
  const p99Ratio = (withBad?.p99Ms ?? 0) / (without?.p99Ms ?? 1);
  printTable(
    phases.map((phase) => ({
      phase: phase.phase,
      orders: phase.ordersPlaced,
      'healthy received': phase.healthyReceived,
      'healthy missing': phase.healthyMissing,
      'lag p50 ms': phase.p50Ms.toFixed(0),
      'lag p99 ms': phase.p99Ms.toFixed(0),
      'lag max ms': phase.maxMs.toFixed(0),
      'attempts/s': phase.attemptsPerSecond.toFixed(1),
      'circuits opened / closed': `${phase.circuitsOpened} / ${phase.circuitsClosed}`,
    })),
  );
  console.log('');
  printTable([
    {
      'healthy p99 with / without': judgedRatio(p99Ratio, MAX_FAIRNESS_P99_RATIO, '<='),
      'healthy p50 with / without': ratio(withBad?.p50Ms ?? 0, without?.p50Ms ?? 1),
      target: target(
        `fair delivery: healthy p99 with bad receivers <= ${MAX_FAIRNESS_P99_RATIO}x without`,
        p99Ratio <= MAX_FAIRNESS_P99_RATIO && (withBad?.healthyMissing ?? 1) === 0,
      ),
    },
  ]);
}

/** One big partner: delivered of offered, and its webhooks' lag p99 (docs/webhooks.md, "How throughput adapts"). */
const MIN_BIG_PARTNER_DELIVERED = 0.95;
const MAX_BIG_PARTNER_P99_MS = 2000;
const BIG_PARTNER_PER_SECOND = Math.max(1, Math.round(Number(process.env.BIG_PARTNER_PER_SECOND ?? 50)));
const BIG_PARTNER_ANSWER_MS = 250;
const BIG_PARTNER_SECONDS = Math.max(10, Math.round(Number(process.env.BIG_PARTNER_SECONDS ?? 60)));

async function bigPartner(): Promise<void> {
  console.log(
    `\n6. One big partner: one receiver on 127.0.0.1 answering every POST in ${BIG_PARTNER_ANSWER_MS} ms, offered ` +
      `${BIG_PARTNER_PER_SECOND} order events/s for ${BIG_PARTNER_SECONDS} s (after an untimed warm-up of 15 s at the same rate), ` +
      "published as the order pipeline does and delivered by the local stack's own pollers (fan-out → dispatcher), in its own stack. " +
      "delivered: webhooks 2xx'd by 10 s after the last event; lag: publication → 2xx\n",
  );
  const result = await measureBigPartner({
    perSecond: BIG_PARTNER_PER_SECOND,
    seconds: BIG_PARTNER_SECONDS,
    warmUpSeconds: 15,
    answerMs: BIG_PARTNER_ANSWER_MS,
    drainMs: 10_000,
  });
  const deliveredShare = result.delivered / Math.max(1, result.offered);
  const ok = deliveredShare >= MIN_BIG_PARTNER_DELIVERED && result.p99Ms <= MAX_BIG_PARTNER_P99_MS;
  printTable([
    {
      offered: result.offered,
      delivered: `${result.delivered} (${(deliveredShare * 100).toFixed(1)} %)`,
      'lag p50 ms': result.p50Ms.toFixed(0),
      'lag p99 ms': result.p99Ms.toFixed(0),
      'lag max ms': result.maxMs.toFixed(0),
      'concurrency at the end': result.concurrency ?? '-',
      target: target(
        `one big partner: delivered >= ${MIN_BIG_PARTNER_DELIVERED}x offered, lag p99 <= ${MAX_BIG_PARTNER_P99_MS} ms`,
        ok,
      ),
    },
  ]);
}

/** What `npm start` adds to a handshake: its ratio to the floor as `npm start` runs the stack, against as the bench does. */
const MAX_NPM_START_EXTRA = 1.05;

async function local(): Promise<void> {
  console.log(
    `\n8. What npm start adds: the handshake against its floor (four sequential DynamoDB calls), request by request, ` +
      `${SECONDS_PER_SIDE} s per side, first in a stack run as the bench runs it (pollers off, log lines dropped), then in one ` +
      'run as npm start runs it (DynamoDB Local on disk, queue and stream pollers on and idle, every log and metrics line appended to a file)\n',
  );
  const rows: { stack: string; p50: number; floorP50: number; p99: number }[] = [];
  for (const asNpmStart of [false, true]) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-local-'));
    const bench = await startBenchStack({
      partners: 8,
      organizationsPerPartner: 2,
      capacityOrganizations: 0,
      ...(asNpmStart ? { asNpmStart: { dataDir: dir } } : {}),
    });
    const floor = await startFloorServer(bench);
    try {
      const [handshake] = await measureHttpPipeline(
        bench,
        floor.url,
        [{ service: handshakeWorkload(bench.organizations), baseline: handshakeWorkload(bench.organizations) }],
        {
          seconds: SECONDS_PER_SIDE,
          stretches: LATENCY_STRETCHES,
          warmupSeconds: WARMUP_SECONDS,
          warmupConnections: WARMUP_CONNECTIONS,
        },
      );
      if (!handshake) throw new Error('no handshake series measured');
      const { service, baseline } = handshake.latency;
      rows.push({
        stack: asNpmStart ? 'as npm start' : 'as the bench',
        p50: service.p50,
        floorP50: baseline.p50,
        p99: service.p99,
      });
    } finally {
      await floor.close();
      await bench.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const [bench, npmStart] = rows.map((row) => row.p50 / row.floorP50) as [number, number];
  printTable(
    rows.map((row, index) => ({
      stack: row.stack,
      'handshake p50 ms': ms(row.p50),
      'floor p50 ms': ms(row.floorP50),
      'p50 ratio': ratio(row.p50, row.floorP50),
      'p99 ms': ms(row.p99),
      target:
        index === 1
          ? target(
              `npm start: handshake/floor within ${MAX_NPM_START_EXTRA}x of the bench's stack`,
              npmStart <= bench * MAX_NPM_START_EXTRA,
            )
          : '',
    })),
  );
}

const THOUSAND_SECONDS = Math.max(10, Math.round(Number(process.env.THOUSAND_SECONDS ?? 45)));
const THOUSAND_ORDERS_PER_SECOND = Math.max(1, Number(process.env.THOUSAND_ORDERS_PER_SECOND ?? 8));

async function thousand(): Promise<void> {
  console.log(
    `\n7. A thousand partners: 1,000 partners with endpoints on one receiver on 127.0.0.1, ordering ${THOUSAND_ORDERS_PER_SECOND} a second ` +
      `in turn through the sandbox order API (each about every ${Math.round(1000 / THOUSAND_ORDERS_PER_SECOND)} s), delivered by the local stack's ` +
      `own pollers (retries every 5 s); after an untimed 20 s warm-up, ${THOUSAND_SECONDS} s with every receiver answering 204, then at one moment ` +
      `100 start hanging and 100 start answering 500, ${THOUSAND_SECONDS} s more: the same load, in its own stack. ` +
      'lag: order change → 2xx, healthy partners only\n',
  );
  const result = await measureThousand({
    partners: 1000,
    hanging: 100,
    failing: 100,
    ordersPerSecond: THOUSAND_ORDERS_PER_SECOND,
    warmUpSeconds: 20,
    seconds: THOUSAND_SECONDS,
  });
  printThousand(result, target);
}

/** A section, and whether it uses the stack that `stack()` starts once for all of them. */
const SECTIONS: Record<string, { run: Section; shared?: true }> = {
  bundles: { run: () => bundles() },
  api: { run: async (stack) => api(await stack()), shared: true },
  dispatcher: { run: async (stack) => dispatcher(await stack()), shared: true },
  fairness: { run: () => fairness() },
  bigpartner: { run: () => bigPartner() },
  thousand: { run: () => thousand() },
  local: { run: () => local() },
};

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in SECTIONS));
if (unknown.length) {
  console.error(`unknown section ${unknown.join(', ')}; known: ${Object.keys(SECTIONS).join(', ')}`);
  process.exit(2);
}
const chosen = Object.keys(SECTIONS).filter((name) => asked.length === 0 || asked.includes(name));
const started = Date.now();
console.log(
  `Benchmark on ${availableParallelism()} cores, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}: ${chosen.join(', ')}. ` +
    'Service, floors, load generator and stand-ins share this process; DynamoDB Local runs in its own JVM.',
);
let context: Promise<Context> | undefined;
const stack = () =>
  (context ??= (async () => {
    console.log(
      `\nStarting the stand-ins and the local stack; provisioning ${PARTNERS} partners and their organizations through the setup use case ...`,
    );
    const bench = await startBenchStack({
      partners: PARTNERS,
      organizationsPerPartner: ORGANIZATIONS_PER_PARTNER,
      capacityOrganizations: 2 * CAPACITY_REQUESTS,
    });
    return { bench, floor: await startFloorServer(bench), capacity: [] };
  })());
const closeShared = async () => {
  if (!context) return;
  const { bench, floor, capacity } = await context;
  context = undefined;
  await floor.close();
  await bench.close();
  printCapacity(capacity);
};
const lastShared = chosen.filter((name) => SECTIONS[name]?.shared).at(-1);
try {
  // What a section leaves running takes from the ones after it (issue 47, item 5): each must end all it started.
  // The shared stack's sections are judged together, against what ran before the first of them, once the last has closed it.
  let sharedBaseline: ResourceCounts | undefined;
  for (const name of chosen) {
    const section = SECTIONS[name] as { run: Section; shared?: true };
    if (section.shared && name !== lastShared) {
      sharedBaseline ??= activeResources();
      await section.run(stack);
      continue;
    }
    const baseline = section.shared ? (sharedBaseline ??= activeResources()) : activeResources();
    const { left, heapMb } = await runSection(async () => {
      await section.run(stack);
      if (name === lastShared) await closeShared();
    }, baseline);
    console.log(
      `\nSection ${name} left running: ${describeSurvivors(left)}; heap after collection ${heapMb.toFixed(0)} MB`,
    );
    target(`section ${name}: leaves nothing running`, Object.keys(left).length === 0);
  }
} finally {
  await closeShared();
}

const failed = targets.filter((t) => !t.ok);
console.log(`\nFinished in ${Math.round((Date.now() - started) / 1000)} s.`);
for (const t of failed) console.log(`FAIL  ${t.name}`);
console.log(
  failed.length
    ? `FAIL: ${failed.length} of ${targets.length} targets missed (${targets.length - failed.length} hold).`
    : `PASS: all ${targets.length} targets hold.`,
);
