import { afterEach, describe, expect, it, vi } from 'vitest';
import { powertoolsMetrics } from '../../functions/adapters/observability/powertools-metrics';
import { createLambdaBase } from '../../functions/composition/base';
import { loadRuntimeConfig } from '../../functions/config';
import { withCorrelation } from '../../functions/domain/correlation';
import { METRIC } from '../../functions/domain/metrics';

const config = loadRuntimeConfig({
  STAGE: 'sandbox',
  API_KEY_PREFIX: 'sk_test_',
  RESOURCE_PREFIX: 'embed-unit',
  EMBED_BASE_URL: 'https://embed.example.test',
});

afterEach(() => vi.restoreAllMocks());

describe('the Lambda logger (Powertools behind the Logger port)', () => {
  it('writes one JSON line on stdout with the correlation ids and the Lambda context, secrets masked', () => {
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (lines.push(String(chunk)), true));
    const { logger } = createLambdaBase(config);
    logger.addContext?.({ awsRequestId: 'lambda-req-1', functionName: 'embed-unit-dispatch' });
    withCorrelation({ requestId: 'req-1', orderId: 'order-1' }, () =>
      logger.error({ msg: 'boom', reason: 'key sk_live_abcdefgh1234 pasted' }),
    );
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 'error',
      msg: 'boom',
      service: 'embed-unit',
      lambdaRequestId: 'lambda-req-1',
      functionName: 'embed-unit-dispatch',
      requestId: 'req-1',
      orderId: 'order-1',
      reason: 'key sk_live_[REDACTED] pasted',
    });
  });
});

describe('the EMF metrics (Powertools behind the Metrics port)', () => {
  it('publishes one line per set of dimensions, counts summed, durations in lines of at most 99 values', () => {
    const lines: Record<string, unknown>[] = [];
    const metrics = powertoolsMetrics({
      namespace: 'PartnerEmbed',
      service: 'embed-unit',
      write: (line) => lines.push(JSON.parse(line)),
    });
    metrics.count(METRIC.webhookAttempts, { outcome: 'delivered' });
    metrics.count(METRIC.webhookAttempts, { outcome: 'delivered' });
    metrics.count(METRIC.webhookAttempts, { outcome: 'failed' });
    for (let i = 0; i < 150; i += 1) metrics.observe(METRIC.deliveryLag, i);
    metrics.flush();
    metrics.flush();

    expect(lines.filter((line) => line.outcome === 'delivered')).toMatchObject([{ WebhookAttempts: 2 }]);
    expect(lines.filter((line) => line.outcome === 'failed')).toMatchObject([{ WebhookAttempts: 1 }]);
    const lag = lines.filter((line) => 'DeliveryLag' in line);
    expect(lag.map((line) => (line.DeliveryLag as number[]).length)).toEqual([99, 51]);
    expect(lag[0]).toMatchObject({
      _aws: {
        CloudWatchMetrics: [
          {
            Namespace: 'PartnerEmbed',
            Dimensions: [['service']],
            Metrics: [{ Name: 'DeliveryLag', Unit: 'Milliseconds' }],
          },
        ],
      },
    });
    expect(lines).toHaveLength(4);
  });
});
