/**
 * Fair delivery under load (docs/performance.md, "Fairness"): 50 partners with receivers
 * on 127.0.0.1 (40 healthy, 5 that never answer, 5 that answer 500), each placing orders
 * at a steady rate through the sandbox order API, so every webhook goes the real way:
 * order and outbox committed → stream → relay → order-events → fan-out →
 * webhook-deliveries → dispatcher, the local stack's own pollers throughout (as `npm start`).
 *
 * Two phases in one run, the same stack and the same load (all 50 partners place orders in
 * both), after an untimed warm-up (the JIT, DynamoDB Local and the pollers warm up for tens
 * of seconds): first the 10 "bad" receivers answer 204 like the others ("without"), then
 * they misbehave ("with"). So the two phases differ only in how those 10 receivers answer. Each healthy webhook's lag is the time from its order's change
 * (the body's `timestamp`) to its arrival at the receiver. The retry ladder is shortened
 * (WEBHOOK_RETRY_DELAYS_S = 5 s each) so the bad endpoints retry, open their circuits and
 * probe within the run; the 30 s attempt timeout is the contract's.
 */
import { percentile, inParallel } from './util';
import { aPartnerWithEndpoint, type Receiver, startQuietStack, startReceiver } from './webhook-receivers';

type ReceiverKind = 'healthy' | 'never-answers' | 'answers-500';

export interface FairnessOptions {
  readonly healthy: number;
  readonly neverAnswers: number;
  readonly answers500: number;
  /** Seconds each phase places orders. */
  readonly seconds: number;
  /** Each partner places one order every this many milliseconds (its start offset is random). */
  readonly orderIntervalMs: number;
}

export interface PhaseResult {
  readonly phase: 'without bad receivers' | 'with bad receivers';
  readonly ordersPlaced: number;
  readonly healthyReceived: number;
  /** Healthy partners' orders whose webhook had not arrived when the phase's drain ended. */
  readonly healthyMissing: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** POSTs received by all receivers per second of the phase (attempts that reached a receiver). */
  readonly attemptsPerSecond: number;
  readonly circuitsOpened: number;
  readonly circuitsClosed: number;
}

const RETRY_DELAYS = '5,5,5,5,5,5';
/** How long after a phase's last order its healthy webhooks may still arrive. */
const DRAIN_MS = 20_000;

export async function measureFairness(options: FairnessOptions): Promise<PhaseResult[]> {
  const circuitLines: { msg: string; at: number }[] = [];
  const { stack, close } = await startQuietStack('fair', {
    extraEnvironment: { WEBHOOK_RETRY_DELAYS_S: RETRY_DELAYS },
    onLogLine: (line) => {
      if (line.includes('webhook_circuit_')) circuitLines.push({ msg: JSON.parse(line).msg, at: Date.now() });
    },
  });
  const receivers: Receiver[] = [];
  /** Every POST any receiver got, with its time; healthy ones with the order's lag. */
  const posts: number[] = [];
  const healthyArrivals = new Map<string, number>(); // order id → lag ms (first arrival)
  /** Whether the bad receivers misbehave now; before, they answer like the healthy ones. */
  const misbehaving = { on: false };
  try {
    const { deps } = stack;
    const kinds: ReceiverKind[] = [
      ...Array<ReceiverKind>(options.healthy).fill('healthy'),
      ...Array<ReceiverKind>(options.neverAnswers).fill('never-answers'),
      ...Array<ReceiverKind>(options.answers500).fill('answers-500'),
    ];
    const partners = await inParallel(kinds, 4, async (kind, index) => {
      const receiver = await startReceiver(
        (orderId, lagMs) => {
          posts.push(Date.now());
          if (kind === 'healthy' && orderId && !healthyArrivals.has(orderId)) healthyArrivals.set(orderId, lagMs);
        },
        (res) => {
          const now = misbehaving.on ? kind : 'healthy';
          if (now === 'never-answers') return;
          res.writeHead(now === 'healthy' ? 204 : 500).end();
        },
      );
      receivers.push(receiver);
      const partner = await aPartnerWithEndpoint(
        deps,
        {
          partner: `Fairness ${kind} ${index}`,
          organization: 'Acme Dental',
          alertEmail: `ops${index}@partner.example.com`,
        },
        receiver.url,
      );
      return { kind, apiKey: partner.apiKey, internalUserId: partner.internalUserId };
    });

    const results: PhaseResult[] = [];
    for (const phase of ['warm-up', 'without bad receivers', 'with bad receivers'] as const) {
      const sending = partners;
      misbehaving.on = phase === 'with bad receivers';
      const placed = new Map<string, ReceiverKind>();
      const postsBefore = posts.length;
      const circuitsBefore = circuitLines.length;
      const started = Date.now();
      const stopAt = started + options.seconds * 1000;
      await Promise.all(
        sending.map(async (partner) => {
          let next = started + Math.random() * options.orderIntervalMs;
          while (next < stopAt) {
            await new Promise((done) => setTimeout(done, Math.max(0, next - Date.now())));
            next += options.orderIntervalMs;
            const response = await fetch(`${stack.url}/v1/sandbox/orders`, {
              method: 'POST',
              headers: { Authorization: `Bearer ${partner.apiKey}`, 'Content-Type': 'application/json' },
              body: JSON.stringify({
                internal_user_id: partner.internalUserId,
                items: [{ product_id: 'GLV-NIT-M-100', quantity: 1 }],
              }),
            }).catch(() => undefined);
            if (response?.status === 201)
              placed.set(((await response.json()) as { order: { id: string } }).order.id, partner.kind);
            else await response?.text();
          }
        }),
      );
      const healthyOrders = [...placed].filter(([, kind]) => kind === 'healthy').map(([orderId]) => orderId);
      const drainUntil = Date.now() + DRAIN_MS;
      while (Date.now() < drainUntil && healthyOrders.some((orderId) => !healthyArrivals.has(orderId))) {
        await new Promise((done) => setTimeout(done, 250));
      }
      const elapsedSeconds = (Date.now() - started) / 1000;
      const lags = healthyOrders.flatMap((orderId) =>
        healthyArrivals.has(orderId) ? [healthyArrivals.get(orderId) as number] : [],
      );
      const phaseCircuits = circuitLines.slice(circuitsBefore);
      if (phase === 'warm-up') continue;
      results.push({
        phase,
        ordersPlaced: placed.size,
        healthyReceived: lags.length,
        healthyMissing: healthyOrders.length - lags.length,
        p50Ms: percentile(lags, 50),
        p99Ms: percentile(lags, 99),
        maxMs: Math.max(...lags),
        attemptsPerSecond: (posts.length - postsBefore) / elapsedSeconds,
        circuitsOpened: phaseCircuits.filter((line) => line.msg === 'webhook_circuit_opened').length,
        circuitsClosed: phaseCircuits.filter((line) => line.msg === 'webhook_circuit_closed').length,
      });
    }
    return results;
  } finally {
    await Promise.all(receivers.map((receiver) => receiver.close()));
    await close();
  }
}
