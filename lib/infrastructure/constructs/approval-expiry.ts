import { Duration, Validations } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import { APPROVAL_EXPIRY_SWEEP_MINUTES } from '../../../functions/resources/resource-definitions';
import type { EnvironmentConfig } from '../../../functions/resources/stages';
import { NodeFunction } from './node-function';

export interface ApprovalExpiryProps {
  readonly config: EnvironmentConfig;
  readonly environment: Readonly<Record<string, string>>;
}

/**
 * The approval expiry sweep: an EventBridge schedule runs the function every
 * APPROVAL_EXPIRY_SWEEP_MINUTES, which records the expiry of every request undecided 7
 * days after it was made (with its approval.decided). Its table access is the stack's
 * TABLE_ACCESS; its errors alarm like every function's.
 */
export class ApprovalExpiry extends Construct {
  readonly sweep: NodeFunction;
  readonly schedule: Rule;

  constructor(scope: Construct, id: string, { config, environment }: ApprovalExpiryProps) {
    super(scope, id);
    this.sweep = new NodeFunction(this, 'Sweep', { config, name: 'approvalExpiry', environment });
    // A run does whatever is due when it runs and the next one comes on schedule, so neither EventBridge nor Lambda retries a failed one.
    this.sweep.live.configureAsyncInvoke({
      retryAttempts: 0,
      maxEventAge: Duration.minutes(APPROVAL_EXPIRY_SWEEP_MINUTES),
    });
    this.schedule = new Rule(this, 'Schedule', {
      description: `${config.stage}: expire approval requests undecided for 7 days`,
      schedule: Schedule.rate(Duration.minutes(APPROVAL_EXPIRY_SWEEP_MINUTES)),
      targets: [
        new LambdaFunction(this.sweep.live, {
          retryAttempts: 0,
          maxEventAge: Duration.minutes(APPROVAL_EXPIRY_SWEEP_MINUTES),
        }),
      ],
    });
    const nextRunRetries =
      "A missed or failed run needs no replay: the next scheduled run finds the same requests due (reads show them expired meanwhile), and a failure raises the function's errors alarm";
    Validations.of(this.sweep).acknowledge(
      { id: 'Serverless::Serverless-LambdaDLQ', reason: nextRunRetries },
      { id: 'Serverless::Serverless-LambdaAsyncFailureDestination', reason: nextRunRetries },
    );
    Validations.of(this.schedule).acknowledge({ id: 'Serverless::Serverless-EventBusDLQ', reason: nextRunRetries });
  }
}
