import { Duration, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { type IQueue, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { EnvironmentConfig } from '../../../functions/resources/stages';
import type { FunctionName, QueueName } from '../../../functions/resources/resource-definitions';

export interface AlarmsProps {
  readonly config: EnvironmentConfig;
  readonly deadLetterQueues: Readonly<Record<QueueName, IQueue>>;
  readonly apis: Readonly<Record<string, HttpApi>>;
  readonly functions: Readonly<Record<FunctionName, IFunction>>;
}

const PERIOD = Duration.minutes(5);

/**
 * Every alarm fires on the first occurrence: a message in a dead-letter queue, a 5xx from an
 * API or a function error each mean a partner-visible failure that someone has to look at.
 */
export class Alarms extends Construct {
  readonly topic: Topic;

  constructor(scope: Construct, id: string, { config, deadLetterQueues, apis, functions }: AlarmsProps) {
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
    const isTheDeadLetterQueue = 'This is the dead-letter queue of the alarm subscription: nothing consumes it, operators read it';
    Validations.of(undeliveredAlarms).acknowledge(
      { id: 'Serverless::Serverless-SQSRedrivePolicy', reason: isTheDeadLetterQueue },
      { id: 'AwsSolutions::AwsSolutions-SQS3', reason: isTheDeadLetterQueue },
    );
    this.topic.addSubscription(new EmailSubscription(config.operatorAlarmEmail, { deadLetterQueue: undeliveredAlarms }));
    const action = new SnsAction(this.topic);

    const alarmOnAny = (alarmId: string, metric: IMetric, description: string): void => {
      const alarm = new Alarm(this, alarmId, {
        metric,
        threshold: 0,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: `${config.stage}: ${description}`,
      });
      alarm.addAlarmAction(action);
      alarm.addOkAction(action);
    };

    for (const [name, queue] of Object.entries(deadLetterQueues)) {
      alarmOnAny(
        `${name}DeadLetters`,
        queue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period: PERIOD }),
        `messages of ${name} gave up after their last receive and wait in its dead-letter queue`,
      );
    }
    for (const [name, api] of Object.entries(apis)) {
      alarmOnAny(
        `${name}ServerErrors`,
        api.metricServerError({ statistic: 'Sum', period: PERIOD }),
        `the ${name} HTTP API answered 5xx`,
      );
    }
    for (const [name, fn] of Object.entries(functions)) {
      alarmOnAny(`${name}Errors`, fn.metricErrors({ statistic: 'Sum', period: PERIOD }), `function ${name} failed`);
    }
  }
}
