/**
 * Issue 31 (3, 4): one order's story, followed by its ids from the request that placed it
 * to each webhook attempt, in the log lines, the delivery record and `ops order trace`;
 * and the EMF metrics lines a request and a delivery publish.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryId } from '../../functions/webhooks/delivery';
import { runOpsCapturing } from '../support/ops-run';
import { anItem, anOrderingPartner, deliverEverything, importDriftProducts } from '../support/order-pipeline';
import { startTestStack, type TestStack } from '../support/test-stack';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

let stack: TestStack;
let receiver: WebhookReceiver;

beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  receiver = await startWebhookReceiver(() => 200);
  await importDriftProducts(stack);
});
afterAll(async () => {
  await receiver.close();
  await stack.close();
});

/** What `npm start` writes to .local/logs/service.jsonl: the log lines and the EMF lines. */
function logFile(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'obs-')), 'service.jsonl');
  writeFileSync(
    file,
    [...stack.rawLogLines, ...stack.metricLines.map((line) => JSON.stringify(line))]
      .map((line) => `${line}\n`)
      .join(''),
  );
  return file;
}

const ops = (argv: string[]) => runOpsCapturing(argv, { deps: stack.deps });

describe("one order's story", () => {
  it('carries the placing request id from the request to the delivery record and every attempt line, never into the payload; ops order trace prints it', async () => {
    const partner = await anOrderingPartner(stack, receiver);
    const placed = await stack.post(
      '/v1/sandbox/orders',
      { internal_user_id: partner.buyer.profile.internalUserId, items: [anItem('DRIFT-010')] },
      partner.bearer,
    );
    expect(placed.status, placed.text).toBe(201);
    const requestId = placed.headers.get('request-id') as string;
    const orderId = placed.body.order.id as string;
    await deliverEverything(stack);
    const confirmed = await stack.post(`/v1/sandbox/orders/${orderId}/confirm`, {}, partner.bearer);
    expect(confirmed.status, confirmed.text).toBe(200);
    const confirmRequestId = confirmed.headers.get('request-id') as string;
    await deliverEverything(stack);

    const story = stack.logs.filter((line) => line.orderId === orderId);
    const organizationId = partner.buyer.organization.id;
    // Every line of the story names the partner, the organization and a request; the order's requests are the two calls.
    for (const line of story) {
      expect(line, JSON.stringify(line)).toMatchObject({ partnerId: partner.partnerId, organizationId, orderId });
      expect([requestId, confirmRequestId]).toContain(line.requestId);
    }
    const created = story.filter((line) => line.requestId === requestId);
    expect(created.map((line) => line.msg)).toEqual([
      'api_request',
      'order event relayed',
      'webhook delivery queued',
      'webhook delivered',
    ]);
    const delivered = created.find((line) => line.msg === 'webhook delivered')!;
    expect(delivered).toMatchObject({
      event: 'order.created',
      eventId: expect.stringMatching(/^evt_/),
      deliveryId: expect.any(String),
      attempt: 1,
    });
    expect(
      created.filter((line) => line.msg !== 'api_request').every((line) => line.eventId === delivered.eventId),
    ).toBe(true);
    expect(story.filter((line) => line.requestId === confirmRequestId).map((line) => line.msg)).toEqual([
      'api_request',
      'order event relayed',
      'webhook delivery queued',
      'webhook delivered',
    ]);

    const record = await stack.deps.deliveries.get(delivered.deliveryId as DeliveryId);
    expect(record).toMatchObject({ requestId, orderId, organizationId, status: 'delivered' });
    const payloads = receiver.requests
      .map((request) => request.rawBody.toString('utf8'))
      .filter((body) => body.includes(orderId));
    expect(payloads).toHaveLength(2);
    for (const body of payloads) expect(body).not.toContain(requestId);

    const file = logFile();
    const trace = await ops(['order', 'trace', '--order', orderId, '--file', file]);
    expect(trace.code, trace.lines.join('\n')).toBe(0);
    const printed = trace.lines.join('\n');
    expect(trace.lines.filter((line) => line.includes(requestId))).toHaveLength(4);
    expect(printed).toContain('webhook delivered');
    expect(printed).toContain(String(delivered.deliveryId));
    const json = await ops(['order', 'trace', '--order', orderId, '--file', file, '--json']);
    expect(
      JSON.parse(json.lines.join('\n')).map((line: { msg: string; requestId: string }) => [line.msg, line.requestId]),
    ).toEqual(story.map((line) => [line.msg, line.requestId]));
  });
});

describe('ops order trace: what each request did, who did it, when a retry is due', () => {
  it('names the action and the user of each request (the partner for its own changes) and the time of a scheduled retry', async () => {
    const failing = await startWebhookReceiver(() => 500);
    try {
      const partner = await anOrderingPartner(stack, failing);
      const placed = await stack.post(
        '/v1/sandbox/orders',
        { internal_user_id: partner.buyer.profile.internalUserId, items: [anItem('DRIFT-010')] },
        partner.bearer,
      );
      expect(placed.status, placed.text).toBe(201);
      const orderId = placed.body.order.id as string;
      const placing = placed.headers.get('request-id') as string;
      const confirmed = await stack.post(`/v1/sandbox/orders/${orderId}/confirm`, {}, partner.bearer);
      expect(confirmed.status).toBe(200);
      await deliverEverything(stack);

      const requestLine = (requestId: string) =>
        stack.logs.find((line) => line.msg === 'api_request' && line.requestId === requestId);
      expect(requestLine(placing)).toMatchObject({
        action: 'checkout',
        profileId: partner.buyer.profile.id,
        internalUserId: partner.buyer.profile.internalUserId,
      });
      expect(requestLine(confirmed.headers.get('request-id') as string)).toMatchObject({ action: 'confirm' });
      expect(requestLine(confirmed.headers.get('request-id') as string)).not.toHaveProperty('internalUserId');
      const retry = stack.logs.find((line) => line.orderId === orderId && line.outcome === 'retry-scheduled');
      expect(retry, 'a failed attempt schedules a retry').toBeDefined();

      const trace = await ops(['order', 'trace', '--order', orderId.slice(0, 8), '--file', logFile()]);
      expect(trace.code, trace.lines.join('\n')).toBe(0);
      expect(trace.lines[0]).toMatch(/^time\s+level\s+msg\s+request\s+action\s+by\s+event\s+delivery\s+detail$/);
      const placingLine = trace.lines.find((line) => line.includes('api_request') && line.includes(placing))!;
      expect(placingLine).toMatch(new RegExp(`checkout\\s+user ${partner.buyer.profile.internalUserId}`));
      expect(trace.lines.find((line) => line.includes('api_request') && !line.includes(placing))).toMatch(
        /confirm\s+partner/,
      );
      const retryLine = trace.lines.find((line) => line.includes('retry scheduled'))!;
      expect(retryLine).toContain(`retry due ${new Date(String(retry!.nextAttemptAt)).toISOString()}`);
    } finally {
      await failing.close();
    }
  });
});

describe('metrics', () => {
  const linesWith = (metric: string, dimensions: Record<string, string> = {}) =>
    stack.metricLines.filter(
      (line) => metric in line && Object.entries(dimensions).every(([name, value]) => line[name] === value),
    );

  it('a request and a delivery publish EMF lines: namespace, dimensions, values', async () => {
    const partner = await anOrderingPartner(stack, receiver);
    const placed = await stack.post(
      '/v1/sandbox/orders',
      { internal_user_id: partner.buyer.profile.internalUserId, items: [anItem('DRIFT-020')] },
      partner.bearer,
    );
    expect(placed.status).toBe(201);
    await deliverEverything(stack);
    const service = stack.config.RESOURCE_PREFIX;

    const [request] = linesWith('Requests', { route: 'sandbox-order-create', statusClass: '2xx' });
    expect(request).toMatchObject({
      _aws: {
        Timestamp: expect.any(Number),
        CloudWatchMetrics: [
          {
            Namespace: 'PartnerEmbed',
            Dimensions: [['service', 'route', 'statusClass']],
            Metrics: [{ Name: 'Requests', Unit: 'Count' }],
          },
        ],
      },
      service,
      route: 'sandbox-order-create',
      statusClass: '2xx',
      Requests: 1,
    });
    const [latency] = linesWith('RequestLatency', { route: 'sandbox-order-create' });
    expect(latency).toMatchObject({
      _aws: {
        CloudWatchMetrics: [
          { Dimensions: [['service', 'route']], Metrics: [{ Name: 'RequestLatency', Unit: 'Milliseconds' }] },
        ],
      },
    });
    expect(linesWith('OrdersPlaced')[0]).toMatchObject({
      _aws: { CloudWatchMetrics: [{ Dimensions: [['service']], Metrics: [{ Name: 'OrdersPlaced', Unit: 'Count' }] }] },
      OrdersPlaced: 1,
    });

    const [attempt] = linesWith('WebhookAttempts', { outcome: 'delivered' });
    expect(attempt).toMatchObject({
      _aws: {
        CloudWatchMetrics: [
          {
            Namespace: 'PartnerEmbed',
            Dimensions: [['service', 'outcome']],
            Metrics: [{ Name: 'WebhookAttempts', Unit: 'Count' }],
          },
        ],
      },
      service,
      outcome: 'delivered',
    });
    const [lag] = linesWith('DeliveryLag');
    expect(lag).toMatchObject({
      _aws: {
        CloudWatchMetrics: [{ Dimensions: [['service']], Metrics: [{ Name: 'DeliveryLag', Unit: 'Milliseconds' }] }],
      },
    });
    expect(lag!.DeliveryLag).toBeGreaterThanOrEqual(0);

    const summary = await ops(['metrics', '--since', '1h', '--file', logFile(), '--json']);
    expect(summary.code, summary.lines.join('\n')).toBe(0);
    const rows = JSON.parse(summary.lines.join('\n')) as {
      metric: string;
      dimensions: string;
      count: number;
      p50?: number;
      p99?: number;
    }[];
    expect(
      rows.find((row) => row.metric === 'Requests' && row.dimensions === 'route=sandbox-order-create,statusClass=2xx')!
        .count,
    ).toBeGreaterThanOrEqual(1);
    expect(
      rows.find((row) => row.metric === 'RequestLatency' && row.dimensions === 'route=sandbox-order-create'),
    ).toMatchObject({ p50: expect.any(Number), p99: expect.any(Number) });
  });
});
