import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { BackupPlan, BackupPlanRule, BackupResource, BackupVault, BackupVaultEvents } from 'aws-cdk-lib/aws-backup';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Schedule } from 'aws-cdk-lib/aws-events';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import type { EnvironmentConfig } from '../../../functions/resources/stages';

/** How long each kind of recovery point is kept (docs/operations.md, "Restoring a table"). */
const BACKUP_RETENTION_DAYS = { daily: 35, monthly: 365 } as const;

export interface TableBackupsProps {
  readonly config: EnvironmentConfig;
  /** The tables the stack's functions use (a restored table included). */
  readonly tables: readonly ITable[];
  /** The operators' alarm topic: a failed backup job e-mails them. */
  readonly alarmTopic: ITopic;
}

/**
 * AWS Backup beside point-in-time recovery: PITR reaches back 35 days to the second, these
 * recovery points survive a table's deletion and reach back a year (the 1st of each
 * month). Times are UTC, after the night's quietest hours.
 */
export class TableBackups extends Construct {
  readonly vault: BackupVault;
  readonly plan: BackupPlan;

  constructor(scope: Construct, id: string, { config, tables, alarmTopic }: TableBackupsProps) {
    super(scope, id);
    this.vault = new BackupVault(this, 'Vault', {
      backupVaultName: `${config.resourcePrefix}-tables`,
      // Recovery points outlive the stack: they are what a deleted stack is rebuilt from.
      removalPolicy: RemovalPolicy.RETAIN,
      notificationTopic: alarmTopic,
      notificationEvents: [BackupVaultEvents.BACKUP_JOB_FAILED, BackupVaultEvents.COPY_JOB_FAILED],
    });
    this.plan = new BackupPlan(this, 'Plan', {
      backupPlanName: `${config.resourcePrefix}-tables`,
      backupVault: this.vault,
      backupPlanRules: [
        new BackupPlanRule({
          ruleName: 'daily',
          scheduleExpression: Schedule.cron({ hour: '3', minute: '0' }),
          deleteAfter: Duration.days(BACKUP_RETENTION_DAYS.daily),
        }),
        new BackupPlanRule({
          ruleName: 'monthly',
          scheduleExpression: Schedule.cron({ day: '1', hour: '4', minute: '0' }),
          deleteAfter: Duration.days(BACKUP_RETENTION_DAYS.monthly),
        }),
      ],
    });
    const selection = this.plan.addSelection('Tables', {
      backupSelectionName: `${config.resourcePrefix}-tables`,
      resources: tables.map((table) => BackupResource.fromDynamoDbTable(table)),
      allowRestores: true,
    });
    const awsBackupsOwnPolicy =
      "AWS Backup's own service-role policy, the one its console attaches; a hand-written copy would add drift, not safety";
    Validations.of(selection).acknowledge(
      {
        id: 'AwsSolutions::AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForBackup]',
        reason: awsBackupsOwnPolicy,
      },
      {
        id: 'AwsSolutions::AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForRestores]',
        reason: awsBackupsOwnPolicy,
      },
    );
  }
}
