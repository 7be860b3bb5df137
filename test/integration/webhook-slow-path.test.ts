/**
 * The fast path's budget (docs/webhooks.md, "Fast and slow paths"): a receiver that does not
 * answer within it gives the batch back at once, and its attempt finishes on the slow path,
 * made and recorded once; an endpoint on the slow path starts there, and an answer within the
 * budget brings it back.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { METRIC } from '../../functions/domain/metrics';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { webhookShow } from '../../lib/ops-cli/webhook-commands';
import { runOpsCapturing } from '../support/ops-run';
import { startTestStack, type TestStack } from '../support/test-stack';
import { aPartnerWithOrganization, orderCreatedData, purgeQueues } from '../support/webhook-fixtures';
import { receiverPool } from '../support/webhook-receiver';

const BUDGET_MS = 400;
const TIMEOUT_MS = 4000;
let stack: TestStack;
const receivers = receiverPool();

beforeAll(async () => {
  stack = await startTestStack({
    queuePollers: false,
    extraEnvironment: { WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS), WEBHOOK_FAST_PATH_BUDGET_MS: String(BUDGET_MS) },
  });
});
afterEach(async () => {
  await purgeQueues(stack);
  await receivers.closeAll();
});
afterAll(() => stack.close());

async function publishAndFanOut(partnerId: PartnerId, internalOrgId: string) {
  await stack.deps.orderEvents.publish({ partnerId, event: 'order.created', data: orderCreatedData(internalOrgId) });
  while ((await stack.consumers.orderEvents.pollOnce()).received > 0);
  const [delivery] = await stack.deps.webhookAdmin.listDeliveries(partnerId);
  return delivery!;
}

/** The endpoints' path changes the dispatchers counted since line `from` (the dashboard's and `ops metrics`' EndpointPathChanges). */
const pathChangesSince = (from: number) =>
  stack.metricLines
    .slice(from)
    .filter((line) => METRIC.endpointPathChanges in line)
    .flatMap((line) => Array.from({ length: Number(line[METRIC.endpointPathChanges]) }, () => line.to));

/** One fast-path invocation, timed on the process's own clock. */
async function fastBatch() {
  const started = performance.now();
  const { received } = await stack.consumers.webhookDeliveries.pollOnce();
  return { received, ms: performance.now() - started };
}

describe('A receiver that does not answer within the fast path budget', () => {
  it('leaves the batch within the budget, finishes on the slow path recorded once, and its endpoint starts there next time', async () => {
    // The first request hangs; the slow path's copy answers after 1 s (slower than the budget); later ones at once.
    const receiver = await receivers.start((index) =>
      index === 0 ? 'hang' : index === 1 ? { status: 200, afterMs: 1000 } : 200,
    );
    const partner = await aPartnerWithOrganization(stack);
    await stack.deps.webhookAdmin.configureEndpoint({ partnerId: partner.partnerId, url: receiver.url });
    const first = await publishAndFanOut(partner.partnerId, partner.internalOrgId);
    const metricsFrom = stack.metricLines.length;

    const fast = await fastBatch();
    expect(fast.received).toBe(1);
    expect(fast.ms).toBeGreaterThanOrEqual(BUDGET_MS - 50);
    expect(fast.ms).toBeLessThan(BUDGET_MS + 1500); // gone long before the 4 s deadline
    expect(receiver.requests).toHaveLength(1);
    const moved = await stack.deps.webhookAdmin.getDelivery(first.deliveryId);
    expect(moved).toMatchObject({ status: 'pending', attemptCount: 0, attempts: [] });
    // What the operator's `webhook show` prints: the path and why.
    const shown = await webhookShow(stack.deps, { partner: partner.partnerId });
    expect(shown.dispatch).toMatchObject({ path: 'slow', since: expect.any(String) });
    expect(shown.dispatch.reason).toContain(`no answer within the fast path's ${BUDGET_MS} ms`);
    const shownText = (
      await runOpsCapturing(['webhook', 'show', '--partner', partner.partnerId], { deps: stack.deps })
    ).lines.join('\n');
    expect(shownText).toMatch(/^path: +slow$/m);
    expect(shownText).toMatch(/^pathSince: +\d{4}-/m);
    expect(shownText).toMatch(
      new RegExp(`^pathReason: +an attempt had no answer within the fast path's ${BUDGET_MS} ms`, 'm'),
    );

    expect((await stack.consumers.webhookSlowDeliveries.pollOnce()).received).toBe(1);
    const delivered = await stack.deps.webhookAdmin.getDelivery(first.deliveryId);
    expect(delivered.status).toBe('delivered');
    expect(delivered.attempts).toHaveLength(1);
    expect(delivered.attempts[0]).toMatchObject({ attempt: 1, succeeded: true, statusCode: 200 });
    expect(delivered.attempts[0]!.latencyMs).toBeGreaterThanOrEqual(1000);
    // The request cut off at the budget and the slow path's carry the same delivery id: one attempt, one record.
    expect(receiver.requests.map((r) => r.headers['webhook-id'])).toEqual([first.deliveryId, first.deliveryId]);
    // Its 1 s answer is over the budget: the endpoint stays on the slow path.
    expect((await stack.deps.webhookEndpoints.get(partner.partnerId))?.slowPathSince).toBeDefined();

    // The next delivery moves before any POST on the fast path, and its answer within the budget brings the endpoint back.
    const second = await publishAndFanOut(partner.partnerId, partner.internalOrgId);
    expect((await fastBatch()).received).toBe(1);
    expect(receiver.requests).toHaveLength(2);
    expect((await stack.consumers.webhookSlowDeliveries.pollOnce()).received).toBe(1);
    expect(receiver.requests).toHaveLength(3);
    expect(await stack.deps.webhookAdmin.getDelivery(second.deliveryId)).toMatchObject({
      status: 'delivered',
      attemptCount: 1,
    });
    expect((await webhookShow(stack.deps, { partner: partner.partnerId })).dispatch.path).toBe('fast');
    expect(
      (await runOpsCapturing(['webhook', 'show', '--partner', partner.partnerId], { deps: stack.deps })).lines.join(
        '\n',
      ),
    ).toMatch(/^path: +fast$/m);
    // Operators count endpoints moving, not attempts: one move there (the second attempt found it there already), one back.
    expect(pathChangesSince(metricsFrom)).toEqual(['slow', 'fast']);

    // `npm run ops -- metrics` over what npm start writes (the EMF lines): both paths' batches' oldest message, the moves, the endpoints moving.
    const file = join(mkdtempSync(join(tmpdir(), 'slow-path-')), 'service.jsonl');
    writeFileSync(file, stack.metricLines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    const metrics = await runOpsCapturing(['metrics', '--since', '1h', '--file', file], { deps: stack.deps });
    expect(metrics.code).toBe(0);
    const text = metrics.lines.join('\n');
    for (const row of [
      /^WebhookQueueAge +path=fast +\d+ +\d+ +\d+$/m,
      /^WebhookQueueAge +path=slow +2 +\d+ +\d+$/m,
      /^SlowPathMoves +reason=over-budget +1 /m,
      /^SlowPathMoves +reason=known-slow +1 /m,
      /^EndpointPathChanges +to=slow +1 /m,
      /^EndpointPathChanges +to=fast +1 /m,
    ])
      expect(text).toMatch(row);
  });
});
