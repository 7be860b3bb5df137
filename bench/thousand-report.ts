/**
 * The thousand-partner section's tables and targets (bench/thousand.ts measures): healthy
 * lag with a hundred hanging and a hundred failing receivers against without them, the
 * slow path's depth over time, and the requests and list-price cost per 1,000 deliveries.
 */
import { PRICES } from './cost-model';
import type { ThousandPhase, ThousandResult } from './thousand';
import { judgedRatio, printTable, ratio } from './util';

/** Healthy partners' lag p99 with the sick receivers: at most this times the baseline's, and at most this absolute. */
const MAX_THOUSAND_P99_RATIO = 1.5;
const MAX_THOUSAND_P99_MS = 2000;
/** Slow-path depth samples printed (evenly spread over the run). */
const DEPTH_ROWS = 12;

const per1000 = (count: number, delivered: number) => ((count * 1000) / Math.max(1, delivered)).toFixed(0);

/** DynamoDB and SQS dollars per delivery at list prices (bench/cost-model.ts). */
const dollarsPerDelivery = (phase: ThousandPhase): number =>
  (phase.requests.readUnits * PRICES.dynamoReadPerMillionUnits +
    phase.requests.writeUnits * PRICES.dynamoWritePerMillionUnits +
    phase.requests.sqs * PRICES.sqsPerMillionRequests) /
  1e6 /
  Math.max(1, phase.delivered);

export function printThousand(result: ThousandResult, target: (name: string, ok: boolean) => string): void {
  const [baseline, withSick] = result.phases;
  console.log(`(1,000 partners provisioned in ${result.provisionSeconds.toFixed(0)} s, untimed)\n`);
  printTable(
    result.phases.map((phase) => ({
      phase: phase.phase,
      orders: phase.ordersPlaced,
      'healthy received': phase.healthyReceived,
      'healthy missing': phase.healthyMissing,
      'lag p50 ms': phase.p50Ms.toFixed(0),
      'lag p99 ms': phase.p99Ms.toFixed(0),
      'lag max ms': phase.maxMs.toFixed(0),
      'healthy deliveries/s': phase.healthyPerSecond.toFixed(1),
      'DynamoDB req / 1,000': per1000(phase.requests.dynamodb, phase.delivered),
      'SQS req / 1,000': per1000(phase.requests.sqs, phase.delivered),
      'DynamoDB units r / w per delivery': `${(phase.requests.readUnits / Math.max(1, phase.delivered)).toFixed(1)} / ${(phase.requests.writeUnits / Math.max(1, phase.delivered)).toFixed(1)}`,
      '$ per million deliveries': (dollarsPerDelivery(phase) * 1e6).toFixed(2),
    })),
  );
  console.log(
    "\n(per 1,000 / per delivery: every request of the phase and its drain, orders and retries included, over the webhooks 2xx'd meanwhile; " +
      `$: DynamoDB on-demand and SQS standard, ${PRICES.region} list prices, transactions at 2 write units an item, index writes left out)\n`,
  );
  const p99Ratio = (withSick?.p99Ms ?? Infinity) / (baseline?.p99Ms ?? 1);
  printTable([
    {
      'healthy p99 with / without': judgedRatio(p99Ratio, MAX_THOUSAND_P99_RATIO, '<='),
      'healthy p99 with': `${(withSick?.p99Ms ?? NaN).toFixed(0)} ms (<= ${MAX_THOUSAND_P99_MS} ms)`,
      'healthy p50 with / without': ratio(withSick?.p50Ms ?? 0, baseline?.p50Ms ?? 1),
      'sick on the slow path / circuits open at the end': `${result.sickOnSlowPath} / ${result.sickCircuitsOpen}`,
      target: target(
        `a thousand partners: healthy p99 with 200 sick receivers <= ${MAX_THOUSAND_P99_RATIO}x without and <= ${MAX_THOUSAND_P99_MS} ms`,
        p99Ratio <= MAX_THOUSAND_P99_RATIO &&
          (withSick?.p99Ms ?? Infinity) <= MAX_THOUSAND_P99_MS &&
          (withSick?.healthyMissing ?? 1) === 0 &&
          (baseline?.healthyMissing ?? 1) === 0,
      ),
    },
  ]);
  const samples = result.slowPathDepth;
  const step = Math.max(1, Math.ceil(samples.length / DEPTH_ROWS));
  console.log(
    "\nThe slow path's depth (s: since the sick receivers started; visible / in flight), and the fast path's visible:\n",
  );
  console.log(
    samples
      .filter((_, index) => index % step === 0 || index === samples.length - 1)
      .map((s) => `${s.atSeconds} s: ${s.slowVisible} / ${s.slowInFlight} (fast ${s.fastVisible})`)
      .join(' · '),
  );
}
