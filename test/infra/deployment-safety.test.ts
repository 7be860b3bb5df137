import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnTable } from 'aws-cdk-lib/aws-dynamodb';
import type { CfnAlias, CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import {
  FUNCTION_ENTRIES,
  TABLES,
  type FunctionName,
  type TableName,
} from '../../functions/resources/resource-definitions';
import { ENVIRONMENTS, STAGES, type Stage } from '../../functions/resources/stages';
import { routesOn } from '../../functions/routes';
import { addServiceStacks } from '../../lib/infrastructure/service-stack';

/**
 * Issue 44: every deploy reaches callers through a `live` alias that CodeDeploy shifts and rolls
 * back on alarms; nothing invokes a function's $LATEST; every table can be brought back. The
 * facts are read from the synthesized templates, for every function of FUNCTION_ENTRIES and
 * every table of TABLES, so a new function or table is checked without a new test.
 */
type Resource = { Type: string; Properties?: Record<string, any>; UpdatePolicy?: Record<string, any> };

const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
const stacks = addServiceStacks(app);
const resources = Object.fromEntries(
  STAGES.map((stage) => [stage, Template.fromStack(stacks[stage]).toJSON().Resources as Record<string, Resource>]),
) as Record<Stage, Record<string, Resource>>;
const functionNames = Object.keys(FUNCTION_ENTRIES) as FunctionName[];
const tableNames = Object.keys(TABLES) as TableName[];

const ofType = (stage: Stage, type: string): [string, Resource][] =>
  Object.entries(resources[stage]).filter(([, resource]) => resource.Type === type);
const functionId = (stage: Stage, fn: FunctionName): string =>
  stacks[stage].getLogicalId(stacks[stage].functions[fn].node.defaultChild as CfnFunction);
const aliasId = (stage: Stage, fn: FunctionName): string =>
  stacks[stage].getLogicalId(stacks[stage].functions[fn].live.node.defaultChild as CfnAlias);
const mentions = (value: unknown, logicalId: string): boolean => JSON.stringify(value).includes(`"${logicalId}"`);

/** The alarm resources a deployment group names, with their properties. */
const alarmsOf = (stage: Stage, group: Resource) =>
  (group.Properties!.AlarmConfiguration.Alarms as { Name: { Ref: string } }[]).map(
    ({ Name }) => resources[stage][Name.Ref]!.Properties!,
  );
const lambdaAlarm = (metricName: string, stage: Stage, fn: FunctionName) =>
  expect.objectContaining({
    Namespace: 'AWS/Lambda',
    MetricName: metricName,
    Dimensions: [{ Name: 'FunctionName', Value: { Ref: functionId(stage, fn) } }],
  });
const apiServerErrorAlarm = (stage: Stage, apiName: string) => {
  const [apiId] = ofType(stage, 'AWS::ApiGatewayV2::Api').find(([, api]) => api.Properties!.Name === apiName)!;
  return expect.objectContaining({
    Namespace: 'AWS/ApiGateway',
    MetricName: '5xx',
    Statistic: 'Sum',
    Threshold: 0,
    Dimensions: [{ Name: 'ApiId', Value: { Ref: apiId } }],
  });
};

describe.each(STAGES)('the %s stack deploys safely', (stage) => {
  const config = ENVIRONMENTS[stage];
  const expectedConfig =
    stage === 'production' ? 'CodeDeployDefault.LambdaCanary10Percent5Minutes' : 'CodeDeployDefault.LambdaAllAtOnce';

  it.each(functionNames)(
    `publishes %s as a version behind its live alias, which a deployment group shifts (${expectedConfig}) and rolls back on its alarms`,
    (fn) => {
      const alias = resources[stage][aliasId(stage, fn)]!;
      expect(alias.Properties).toMatchObject({ Name: 'live', FunctionName: { Ref: functionId(stage, fn) } });
      const versionId = alias.Properties!.FunctionVersion['Fn::GetAtt'][0] as string;
      expect(resources[stage][versionId]).toMatchObject({
        Type: 'AWS::Lambda::Version',
        Properties: { FunctionName: { Ref: functionId(stage, fn) } },
      });

      const groupId = alias.UpdatePolicy!.CodeDeployLambdaAliasUpdate.DeploymentGroupName.Ref as string;
      const group = resources[stage][groupId]!;
      expect(group.Properties).toMatchObject({
        DeploymentGroupName: `${config.resourcePrefix}-${fn}`,
        DeploymentConfigName: expectedConfig,
        DeploymentStyle: { DeploymentOption: 'WITH_TRAFFIC_CONTROL', DeploymentType: 'BLUE_GREEN' },
        AlarmConfiguration: { Enabled: true },
        AutoRollbackConfiguration: {
          Enabled: true,
          Events: expect.arrayContaining(['DEPLOYMENT_FAILURE', 'DEPLOYMENT_STOP_ON_ALARM']),
        },
      });

      const hosts = new Set(
        routesOn(stage)
          .filter((route) => route.fn === fn)
          .map((route) => route.host),
      );
      const expected = [
        lambdaAlarm('Errors', stage, fn),
        lambdaAlarm('Throttles', stage, fn),
        lambdaAlarm('Duration', stage, fn),
        ...(hosts.has('api') ? [apiServerErrorAlarm(stage, `${config.resourcePrefix}-partner-api`)] : []),
        ...(hosts.has('embed') ? [apiServerErrorAlarm(stage, `${config.resourcePrefix}-embed`)] : []),
      ];
      const alarms = alarmsOf(stage, group);
      expect(alarms).toHaveLength(expected.length);
      expect(alarms).toEqual(expect.arrayContaining(expected));
      // Judged per minute, so a 5-minute canary is judged while it runs.
      for (const alarm of alarms) expect(alarm.Period).toBe(60);
    },
  );

  it('has no function but those of FUNCTION_ENTRIES, each with one deployment group', () => {
    expect(
      ofType(stage, 'AWS::Lambda::Function')
        .map(([id]) => id)
        .sort(),
    ).toEqual(functionNames.map((fn) => functionId(stage, fn)).sort());
    expect(ofType(stage, 'AWS::CodeDeploy::DeploymentGroup')).toHaveLength(functionNames.length);
  });

  it('invokes only live aliases: no integration, event source, schedule or permission names a function ($LATEST)', () => {
    // Only these may name a function itself: its versions and alias, its asynchronous-invoke settings (qualified
    // by the alias, below), and metrics (alarms, the dashboard) of every version.
    const mayNameTheFunction = new Set([
      'AWS::Lambda::Version',
      'AWS::Lambda::Alias',
      'AWS::Lambda::EventInvokeConfig',
      'AWS::CloudWatch::Alarm',
      'AWS::CloudWatch::Dashboard',
    ]);
    const functionIds = functionNames.map((fn) => functionId(stage, fn));
    const offenders = Object.entries(resources[stage])
      .filter(([, resource]) => !mayNameTheFunction.has(resource.Type))
      .flatMap(([id, resource]) =>
        functionIds.filter((fnId) => mentions(resource.Properties, fnId)).map((fnId) => `${id} → ${fnId}`),
      );
    expect(offenders).toEqual([]);

    const invokers = [
      ...ofType(stage, 'AWS::Lambda::EventSourceMapping'),
      ...ofType(stage, 'AWS::Lambda::Permission'),
      ...ofType(stage, 'AWS::ApiGatewayV2::Integration'),
      ...ofType(stage, 'AWS::Events::Rule'),
    ];
    const aliasIds = functionNames.map((fn) => aliasId(stage, fn));
    for (const [id, invoker] of invokers) {
      expect(
        aliasIds.some((alias) => mentions(invoker.Properties, alias)),
        id,
      ).toBe(true);
    }
    // Every queue and stream consumer, every routed function and the schedule: each invokes its alias.
    const invoked = new Set(
      functionNames.filter((fn) => invokers.some(([, invoker]) => mentions(invoker.Properties, aliasId(stage, fn)))),
    );
    const neverInvoked = stage === 'production' ? ['webhookTest'] : [];
    expect([...invoked].sort()).toEqual(functionNames.filter((fn) => !neverInvoked.includes(fn)).sort());
    for (const [id, config] of ofType(stage, 'AWS::Lambda::EventInvokeConfig')) {
      expect(
        aliasIds.some((alias) => mentions(config.Properties!.Qualifier, alias)),
        id,
      ).toBe(true);
    }
  });

  it('keeps point-in-time recovery on every table', () => {
    const tables = ofType(stage, 'AWS::DynamoDB::Table');
    expect(tables).toHaveLength(tableNames.length);
    for (const [id, table] of tables) {
      expect(table.Properties!.PointInTimeRecoverySpecification, id).toEqual({ PointInTimeRecoveryEnabled: true });
    }
  });
});

describe('backups', () => {
  const tableArn = (stage: Stage, table: TableName) => ({
    'Fn::GetAtt': [stacks[stage].getLogicalId(stacks[stage].tables.table[table].node.defaultChild as CfnTable), 'Arn'],
  });

  it('backs every production table up daily (kept 35 days) and monthly (kept a year), beside PITR', () => {
    const plans = ofType('production', 'AWS::Backup::BackupPlan');
    expect(plans).toHaveLength(1);
    const [planId, plan] = plans[0]!;
    const rules = plan.Properties!.BackupPlan.BackupPlanRule as Record<string, any>[];
    expect(rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          ScheduleExpression: 'cron(0 3 * * ? *)',
          Lifecycle: { DeleteAfterDays: 35 },
        }),
        expect.objectContaining({
          ScheduleExpression: 'cron(0 4 1 * ? *)',
          Lifecycle: { DeleteAfterDays: 365 },
        }),
      ]),
    );
    expect(rules).toHaveLength(2);

    const selections = ofType('production', 'AWS::Backup::BackupSelection').filter(([, s]) =>
      mentions(s.Properties!.BackupPlanId, planId),
    );
    const covered = selections.flatMap(([, s]) => s.Properties!.BackupSelection.Resources as unknown[]);
    for (const table of tableNames) expect(covered, table).toContainEqual(tableArn('production', table));
  });

  it('keeps no backup plan on sandbox (its data is disposable; PITR stays on)', () => {
    expect(ofType('sandbox', 'AWS::Backup::BackupPlan')).toEqual([]);
  });
});
