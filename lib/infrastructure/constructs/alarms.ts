import { Duration, Validations } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  MathExpression,
  Metric,
  Stats,
  TreatMissingData,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { type IQueue, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { EnvironmentConfig } from '../../../functions/resources/stages';
import { METRIC, type MetricName } from '../../../functions/domain/metrics';
import {
  FUNCTION_TIMEOUT_SECONDS,
  type FunctionName,
  METRICS_NAMESPACE,
  type QueueName,
} from '../../../functions/resources/resource-definitions';

export interface AlarmsProps {
  readonly config: EnvironmentConfig;
  readonly queues: Readonly<Record<QueueName, IQueue>>;
  readonly deadLetterQueues: Readonly<Record<QueueName, IQueue>>;
  readonly apis: Readonly<Record<ApiName, HttpApi>>;
  readonly functions: Readonly<Record<FunctionName, IFunction>>;
}

/** The stack's two HTTP APIs: the partner API and the embed host. */
export type ApiName = 'partner' | 'embed';

/** A function's own alarms, each of which also stops and rolls back a deployment of it (constructs/deployments.ts). */
export interface FunctionAlarms {
  readonly errors: Alarm;
  readonly throttles: Alarm;
  readonly duration: Alarm;
}

const PERIOD = Duration.minutes(5);
/**
 * The alarms that guard a deployment judge one-minute periods: a canary's 10 % runs for five
 * minutes, and five-minute periods would judge it once, perhaps after the shift.
 */
const GUARD_PERIOD = Duration.minutes(1);

/** The service's own metric (domain/metrics.ts) of a stage: its `service` dimension is the stage's resource prefix. */
export const serviceMetric = (
  config: Pick<EnvironmentConfig, 'resourcePrefix'>,
  metricName: MetricName,
  options: {
    readonly dimensions?: Record<string, string>;
    readonly statistic?: string;
    readonly period?: Duration;
    readonly label?: string;
  } = {},
): Metric =>
  new Metric({
    namespace: METRICS_NAMESPACE,
    metricName,
    dimensionsMap: { service: config.resourcePrefix, ...options.dimensions },
    statistic: options.statistic ?? Stats.SUM,
    period: options.period ?? PERIOD,
    ...(options.label ? { label: options.label } : {}),
  });

/**
 * The thresholds of the alarms on rates and times (each judged over three 5-minute periods,
 * two of them breaching, so one slow minute does not page anyone).
 */
const ALARM_THRESHOLDS = {
  /** Share of an API's requests answered 5xx. */
  serverErrorRate: 0.05,
  /** A function's p99 duration as a share of its timeout: a version that nears its timeout is about to fail. */
  durationShareOfTimeout: 0.8,
  /** p99 of order change committed → partner's 2xx, first chain: the first attempt is immediate, so 10 minutes means retries for many. */
  deliveryLagP99Ms: 10 * 60 * 1000,
  /** A busy endpoint's first attempts answered 2xx a minute or more after the change: deliveries queue behind each other. */
  busyEndpointLagMs: 60 * 1000,
  /** Share of webhook attempts that failed (retry scheduled or the last retry failed), judged once 20 attempts were made. */
  webhookFailureRate: 0.25,
  webhookFailureMinimumAttempts: 20,
  /** The oldest message waiting: order events are consumed at once; delivery attempts hop at most 900 s before they are due. */
  oldestMessageAgeSeconds: {
    orderEvents: 5 * 60,
    webhookDeliveries: 30 * 60,
    // The slow path (docs/webhooks.md, "Fast and slow paths"): its messages are due when moved, so 5 minutes means
    // slow receivers wait on each other longer than a retry's first rung.
    webhookSlowDeliveries: 5 * 60,
    // A shipment waits for its invoice while Stripe is down; 30 minutes means an outage, not a slow call.
    invoicing: 30 * 60,
  } satisfies Record<QueueName, number>,
} as const;

/**
 * Every alarm fires on the first occurrence: a message in a dead-letter queue, a 5xx from an
 * API or a function error each mean a partner-visible failure that someone has to look at.
 */
export class Alarms extends Construct {
  readonly topic: Topic;
  /** Every alarm, for the dashboard's alarm status. */
  readonly alarms: Alarm[] = [];
  /** Each function's errors, throttles and p99 duration alarms. */
  readonly functionAlarms: Readonly<Record<FunctionName, FunctionAlarms>>;
  /** Each API's alarm on any 5xx. */
  readonly serverErrors: Readonly<Record<ApiName, Alarm>>;

  constructor(scope: Construct, id: string, { config, queues, deadLetterQueues, apis, functions }: AlarmsProps) {
    super(scope, id);
    // Not KMS-encrypted: CloudWatch cannot publish to a topic under the AWS-managed SNS key.
    this.topic = new Topic(this, 'OperatorAlarms', {
      displayName: `Embed service alarms (${config.stage})`,
      enforceSSL: true,
    });
    // An alarm e-mail SNS cannot deliver (the address bounces, SES throttles) is kept for 14 days instead of lost.
    const undeliveredAlarms = new Queue(this, 'UndeliveredAlarmNotifications', {
      queueName: `${config.resourcePrefix}-undelivered-alarms`,
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    const isTheDeadLetterQueue =
      'This is the dead-letter queue of the alarm subscription: nothing consumes it, operators read it';
    Validations.of(undeliveredAlarms).acknowledge(
      { id: 'Serverless::Serverless-SQSRedrivePolicy', reason: isTheDeadLetterQueue },
      { id: 'AwsSolutions::AwsSolutions-SQS3', reason: isTheDeadLetterQueue },
    );
    this.topic.addSubscription(
      new EmailSubscription(config.operatorAlarmEmail, { deadLetterQueue: undeliveredAlarms }),
    );
    const action = new SnsAction(this.topic);

    const alarmAbove = (
      alarmId: string,
      metric: IMetric,
      threshold: number,
      description: string,
      sustained = false,
    ): Alarm => {
      const alarm = new Alarm(this, alarmId, {
        metric,
        threshold,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: sustained ? 3 : 1,
        datapointsToAlarm: sustained ? 2 : 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: `${config.stage}: ${description}`,
      });
      alarm.addAlarmAction(action);
      alarm.addOkAction(action);
      this.alarms.push(alarm);
      return alarm;
    };
    const alarmOnAny = (alarmId: string, metric: IMetric, description: string): Alarm =>
      alarmAbove(alarmId, metric, 0, description);

    for (const [name, queue] of Object.entries(deadLetterQueues)) {
      alarmOnAny(
        `${name}DeadLetters`,
        queue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period: PERIOD }),
        `messages of ${name} gave up after their last receive and wait in its dead-letter queue`,
      );
    }
    for (const [name, queue] of Object.entries(queues) as [QueueName, IQueue][]) {
      const seconds = ALARM_THRESHOLDS.oldestMessageAgeSeconds[name];
      alarmAbove(
        `${name}OldestMessageAge`,
        queue.metricApproximateAgeOfOldestMessage({ statistic: 'Maximum', period: PERIOD }),
        seconds,
        `the oldest message of ${name} has waited over ${seconds} s: its consumer is stalled or failing`,
        true,
      );
    }
    const serverErrors = {} as Record<ApiName, Alarm>;
    for (const [name, api] of Object.entries(apis) as [ApiName, HttpApi][]) {
      serverErrors[name] = alarmOnAny(
        `${name}ServerErrors`,
        api.metricServerError({ statistic: 'Sum', period: GUARD_PERIOD }),
        `the ${name} HTTP API answered 5xx`,
      );
      // API Gateway's 5xx metric is 0 or 1 per request: its average is the share answered 5xx.
      alarmAbove(
        `${name}ServerErrorRate`,
        api.metricServerError({ statistic: 'Average', period: PERIOD }),
        ALARM_THRESHOLDS.serverErrorRate,
        `over ${ALARM_THRESHOLDS.serverErrorRate * 100} % of the ${name} HTTP API's requests answered 5xx`,
        true,
      );
    }
    alarmAbove(
      'DeliveryLagP99',
      serviceMetric(config, METRIC.deliveryLag, { statistic: 'p99' }),
      ALARM_THRESHOLDS.deliveryLagP99Ms,
      `p99 of webhook delivery lag (order change committed to the partner's 2xx) is over ${ALARM_THRESHOLDS.deliveryLagP99Ms / 60000} minutes`,
      true,
    );
    // Per endpoint (the `partner` dimension, busy endpoints' first attempts only): Metrics Insights has
    // no percentiles, so the alarm takes the worst lag of any of them, sustained like the others.
    alarmAbove(
      'BusyEndpointDeliveryLag',
      new MathExpression({
        expression: `SELECT MAX(${METRIC.deliveryLag}) FROM SCHEMA("${METRICS_NAMESPACE}", partner, service) WHERE service = '${config.resourcePrefix}'`,
        usingMetrics: {},
        period: PERIOD,
        label: 'worst busy-endpoint delivery lag',
      }),
      ALARM_THRESHOLDS.busyEndpointLagMs,
      `a busy, healthy webhook endpoint's deliveries reach it over ${ALARM_THRESHOLDS.busyEndpointLagMs / 60000} minute after the order change (first attempts: queueing, not retries)`,
      true,
    );
    const attempts = (outcome: string) => serviceMetric(config, METRIC.webhookAttempts, { dimensions: { outcome } });
    alarmAbove(
      'WebhookFailureRate',
      new MathExpression({
        expression: `IF(delivered + retried + failed >= ${ALARM_THRESHOLDS.webhookFailureMinimumAttempts}, (retried + failed) / (delivered + retried + failed), 0)`,
        usingMetrics: {
          delivered: attempts('delivered'),
          retried: attempts('retry-scheduled'),
          failed: attempts('failed'),
        },
        period: PERIOD,
        label: 'webhook attempts failed (share)',
      }),
      ALARM_THRESHOLDS.webhookFailureRate,
      `over ${ALARM_THRESHOLDS.webhookFailureRate * 100} % of webhook attempts failed`,
      true,
    );
    // The sweep found a shipped order without an invoice a minute on: its invoicing message was lost or is stuck.
    alarmOnAny(
      'UninvoicedShipments',
      serviceMetric(config, METRIC.uninvoicedShipmentsSwept),
      'the invoice sweep found shipped orders with no invoice a minute after shipping (docs/operations.md, "Uninvoiced shipments")',
    );
    this.serverErrors = serverErrors;
    const functionAlarms = {} as Record<FunctionName, FunctionAlarms>;
    for (const [name, fn] of Object.entries(functions) as [FunctionName, IFunction][]) {
      const timeoutMs = FUNCTION_TIMEOUT_SECONDS[name] * 1000;
      const durationMs = Math.round(timeoutMs * ALARM_THRESHOLDS.durationShareOfTimeout);
      functionAlarms[name] = {
        errors: alarmOnAny(
          `${name}Errors`,
          fn.metricErrors({ statistic: 'Sum', period: GUARD_PERIOD }),
          `function ${name} failed`,
        ),
        // Lambda refused invocations (the account's or the function's concurrency): callers got 429s or queues back up.
        throttles: alarmOnAny(
          `${name}Throttles`,
          fn.metricThrottles({ statistic: 'Sum', period: GUARD_PERIOD }),
          `function ${name} was throttled`,
        ),
        duration: alarmAbove(
          `${name}Duration`,
          fn.metricDuration({ statistic: 'p99', period: GUARD_PERIOD }),
          durationMs,
          `p99 duration of function ${name} is over ${durationMs} ms (${ALARM_THRESHOLDS.durationShareOfTimeout * 100} % of its ${timeoutMs / 1000} s timeout)`,
          true,
        ),
      };
    }
    this.functionAlarms = functionAlarms;
  }
}
