/**
 * One big partner (docs/performance.md, "One big partner"): one partner whose receiver
 * answers every POST after `answerMs`, offered `perSecond` order events a second for
 * `seconds`, each published as the order pipeline does (order-events queue) and delivered
 * by the local stack's own pollers: fan-out → webhook-deliveries → dispatcher, as
 * `npm start` runs them. Delivered counts the events whose webhook arrived by the end of a
 * short drain; lag is the time from the event's publication (the body's `timestamp`) to the receiver's 2xx.
 * An untimed warm-up at the same rate comes first: the JIT, DynamoDB Local and the pollers
 * warm up, and the endpoint's adaptive concurrency starts where a busy partner's is.
 */
import { randomUUID } from 'node:crypto';
import { orderCreatedData } from '../test/support/webhook-fixtures';
import { percentile } from './util';
import { aPartnerWithEndpoint, startQuietStack, startReceiver } from './webhook-receivers';

export interface BigPartnerOptions {
  readonly perSecond: number;
  readonly seconds: number;
  readonly warmUpSeconds: number;
  readonly answerMs: number;
  /** How long after the last event its webhook may still arrive. */
  readonly drainMs: number;
}

export interface BigPartnerResult {
  readonly offered: number;
  readonly delivered: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** The endpoint's adaptive concurrency at the end, as stored. */
  readonly concurrency: number | undefined;
}

export async function measureBigPartner(options: BigPartnerOptions): Promise<BigPartnerResult> {
  const { stack, close } = await startQuietStack('big');
  const arrivals = new Map<string, number>(); // order id → lag ms to the 2xx (first arrival)
  const receiver = await startReceiver(
    (orderId, lagMs) => {
      if (orderId && !arrivals.has(orderId)) arrivals.set(orderId, lagMs + options.answerMs);
    },
    (res) => setTimeout(() => res.writeHead(204).end(), options.answerMs),
  );
  try {
    const { deps } = stack;
    const { partnerId, internalOrgId } = await aPartnerWithEndpoint(
      deps,
      { partner: 'Big partner', organization: 'Big DSO', alertEmail: 'ops@big.partner.example.com' },
      receiver.url,
    );
    const offer = async (seconds: number): Promise<string[]> => {
      const orderIds: string[] = [];
      const started = Date.now();
      const total = seconds * options.perSecond;
      const publishing: Promise<unknown>[] = [];
      for (let n = 0; n < total; n += 1) {
        const due = started + (n * 1000) / options.perSecond;
        await new Promise((done) => setTimeout(done, Math.max(0, due - Date.now())));
        const orderId = randomUUID();
        orderIds.push(orderId);
        publishing.push(
          deps.orderEvents
            .publish({
              partnerId,
              event: 'order.created',
              data: orderCreatedData(internalOrgId, orderId),
            })
            .catch(() => undefined),
        );
      }
      await Promise.all(publishing);
      const drainUntil = Date.now() + options.drainMs;
      while (Date.now() < drainUntil && orderIds.some((orderId) => !arrivals.has(orderId)))
        await new Promise((done) => setTimeout(done, 250));
      return orderIds;
    };

    await offer(options.warmUpSeconds);
    const orderIds = await offer(options.seconds);
    const lags = orderIds.flatMap((orderId) => (arrivals.has(orderId) ? [arrivals.get(orderId) as number] : []));
    const endpoint = await deps.webhookEndpoints.get(partnerId);
    return {
      offered: orderIds.length,
      delivered: lags.length,
      p50Ms: percentile(lags, 50),
      p99Ms: percentile(lags, 99),
      maxMs: lags.length ? Math.max(...lags) : 0,
      concurrency: endpoint?.circuit?.concurrency,
    };
  } finally {
    await receiver.close();
    await close();
  }
}
