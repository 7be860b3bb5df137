import { Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  type Alarm,
  AlarmStatusWidget,
  Dashboard,
  GraphWidget,
  MathExpression,
  Stats,
  TextWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { METRIC } from '../../../functions/domain/metrics';
import { METRICS_NAMESPACE, type QueueName } from '../../../functions/resources/resource-definitions';
import type { EnvironmentConfig } from '../../../functions/resources/stages';
import { serviceMetric } from './alarms';

export interface DashboardProps {
  readonly config: EnvironmentConfig;
  readonly queues: Readonly<Record<QueueName, IQueue>>;
  readonly deadLetterQueues: Readonly<Record<QueueName, IQueue>>;
  readonly apis: Readonly<Record<string, HttpApi>>;
  readonly alarms: readonly Alarm[];
}

const PERIOD = Duration.minutes(5);
const WIDTH = 8;
const HEIGHT = 6;

/**
 * The stage's operations dashboard, `<prefix>-operations`: API traffic and errors, p99
 * latency per route, delivery lag, webhook outcomes and open circuits, queue depths and
 * ages, dead-letter queues, and every alarm's state (docs/operations.md, "Dashboard").
 * Per-route and per-state lines come from SEARCH, so a new route appears without a deploy.
 */
export class OperationsDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, { config, queues, deadLetterQueues, apis, alarms }: DashboardProps) {
    super(scope, id);
    const search = (metricName: string, dimensions: readonly string[], statistic: string, label: string) =>
      new MathExpression({
        expression: `SEARCH('{${[METRICS_NAMESPACE, 'service', ...dimensions].join(',')}} MetricName="${metricName}" service="${config.resourcePrefix}"', '${statistic}', ${PERIOD.toSeconds()})`,
        period: PERIOD,
        ...(label ? { label } : {}),
      });

    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: `${config.resourcePrefix}-operations`,
      defaultInterval: Duration.hours(3),
    });
    this.dashboard.addWidgets(
      new TextWidget({
        markdown: `# Embed service (${config.stage})\nQueries, alarms and runbook: docs/operations.md. Follow one order: \`order trace\` / the Logs Insights query there.`,
        width: 24,
        height: 2,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'API requests',
        left: Object.entries(apis).map(([name, api]) =>
          api.metricCount({ statistic: Stats.SUM, period: PERIOD, label: `${name} requests` }),
        ),
        width: WIDTH,
        height: HEIGHT,
      }),
      new GraphWidget({
        title: 'API errors (4xx, 5xx)',
        left: Object.entries(apis).flatMap(([name, api]) => [
          api.metricClientError({ statistic: Stats.SUM, period: PERIOD, label: `${name} 4xx` }),
          api.metricServerError({ statistic: Stats.SUM, period: PERIOD, label: `${name} 5xx` }),
        ]),
        right: [serviceMetric(config, METRIC.rateLimited, { label: '429 (per-partner limit)' })],
        width: WIDTH,
        height: HEIGHT,
      }),
      new GraphWidget({
        title: 'Requests by route and status class',
        left: [search(METRIC.requests, ['route', 'statusClass'], 'Sum', '')],
        width: WIDTH,
        height: HEIGHT,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'p99 latency per route (ms)',
        left: [search(METRIC.requestLatency, ['route'], 'p99', '')],
        width: WIDTH,
        height: HEIGHT,
      }),
      new GraphWidget({
        title: 'Webhook delivery lag (ms): change committed → 2xx',
        left: [
          serviceMetric(config, METRIC.deliveryLag, { statistic: 'p50', label: 'p50' }),
          serviceMetric(config, METRIC.deliveryLag, { statistic: 'p99', label: 'p99' }),
        ],
        width: WIDTH,
        height: HEIGHT,
      }),
      new GraphWidget({
        title: 'Webhook delivery lag p99 per busy endpoint (ms, partner id; first attempts)',
        left: [search(METRIC.deliveryLag, ['partner'], 'p99', '')],
        width: WIDTH,
        height: HEIGHT,
      }),
      new GraphWidget({
        title: 'Webhook attempts by outcome; retries; open circuits',
        left: ['delivered', 'retry-scheduled', 'failed'].map((outcome) =>
          serviceMetric(config, METRIC.webhookAttempts, { dimensions: { outcome }, label: outcome }),
        ),
        right: [
          serviceMetric(config, METRIC.retriesScheduled, { label: 'retries scheduled' }),
          search(METRIC.circuitStateChanges, ['state'], 'Sum', ''),
        ],
        width: WIDTH,
        height: HEIGHT,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Orders, sessions, alerts',
        left: [
          serviceMetric(config, METRIC.ordersPlaced, { label: 'orders placed' }),
          search(METRIC.ordersMoved, ['status'], 'Sum', ''),
          serviceMetric(config, METRIC.handshakes, { label: 'handshakes' }),
          serviceMetric(config, METRIC.sessionsRedeemed, { label: 'sessions redeemed' }),
        ],
        right: [search(METRIC.alertsSent, ['kind'], 'Sum', '')],
        width: WIDTH,
        height: HEIGHT,
      }),
      new GraphWidget({
        // docs/webhooks.md, "Fast and slow paths": the slow path's depth and age (alarm past 5 minutes), what moves there, and which endpoints.
        title: 'Webhooks: fast and slow paths',
        left: [
          queues.webhookDeliveries.metricApproximateNumberOfMessagesVisible({
            statistic: Stats.MAXIMUM,
            period: PERIOD,
            label: 'fast path visible',
          }),
          queues.webhookSlowDeliveries.metricApproximateNumberOfMessagesVisible({
            statistic: Stats.MAXIMUM,
            period: PERIOD,
            label: 'slow path visible',
          }),
          search(METRIC.slowPathMoves, ['reason'], 'Sum', ''),
          // Endpoints moving between the paths (to: slow / fast); `ops webhook show` says where one is and why.
          search(METRIC.endpointPathChanges, ['to'], 'Sum', ''),
        ],
        right: [
          queues.webhookDeliveries.metricApproximateAgeOfOldestMessage({
            statistic: Stats.MAXIMUM,
            period: PERIOD,
            label: 'fast path oldest (s)',
          }),
          queues.webhookSlowDeliveries.metricApproximateAgeOfOldestMessage({
            statistic: Stats.MAXIMUM,
            period: PERIOD,
            label: 'slow path oldest (s)',
          }),
        ],
        width: WIDTH,
        height: HEIGHT,
      }),
      new GraphWidget({
        title: 'Queue depth and oldest message (s)',
        left: Object.entries(queues).map(([name, queue]) =>
          queue.metricApproximateNumberOfMessagesVisible({
            statistic: Stats.MAXIMUM,
            period: PERIOD,
            label: `${name} visible`,
          }),
        ),
        right: Object.entries(queues).map(([name, queue]) =>
          queue.metricApproximateAgeOfOldestMessage({
            statistic: Stats.MAXIMUM,
            period: PERIOD,
            label: `${name} oldest (s)`,
          }),
        ),
        width: WIDTH,
        height: HEIGHT,
      }),
      new GraphWidget({
        title: 'Dead-letter queues',
        left: Object.entries(deadLetterQueues).map(([name, queue]) =>
          queue.metricApproximateNumberOfMessagesVisible({
            statistic: Stats.MAXIMUM,
            period: PERIOD,
            label: `${name} DLQ`,
          }),
        ),
        width: WIDTH,
        height: HEIGHT,
      }),
    );
    // The money loop on one row: an invoicing failure is retried, a dead letter is an order nobody billed.
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Invoices issued, paid; invoicing failures; uninvoiced shipments swept; invoicing DLQ depth',
        left: [
          serviceMetric(config, METRIC.invoicesIssued, { label: 'invoices issued' }),
          serviceMetric(config, METRIC.invoicesPaid, { label: 'invoices paid' }),
          search(METRIC.invoicingFailures, ['event'], 'Sum', ''),
          serviceMetric(config, METRIC.uninvoicedShipmentsSwept, { label: 'uninvoiced shipments swept' }),
        ],
        right: [
          deadLetterQueues.invoicing.metricApproximateNumberOfMessagesVisible({
            statistic: Stats.MAXIMUM,
            period: PERIOD,
            label: 'invoicing DLQ',
          }),
        ],
        width: 24,
        height: HEIGHT,
      }),
    );
    this.dashboard.addWidgets(new AlarmStatusWidget({ title: 'Alarms', alarms: [...alarms], width: 24, height: 4 }));
  }
}
