import { Validations } from 'aws-cdk-lib';
import type { IAlarm } from 'aws-cdk-lib/aws-cloudwatch';
import {
  type ILambdaDeploymentConfig,
  LambdaApplication,
  LambdaDeploymentConfig,
  LambdaDeploymentGroup,
} from 'aws-cdk-lib/aws-codedeploy';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import type { FunctionName } from '../../../functions/resources/resource-definitions';
import type { DeploymentStyle, EnvironmentConfig, Stage } from '../../../functions/resources/stages';
import { ROUTES, type Route, routesOn } from '../../../functions/routes';
import type { Alarms, ApiName } from './alarms';
import type { NodeFunction } from './node-function';

/** How CodeDeploy shifts a function's `live` alias to its new version, per the stage's `deploymentStyle`. */
const DEPLOYMENT_CONFIGS: Readonly<Record<DeploymentStyle, ILambdaDeploymentConfig>> = {
  'canary-10-percent-5-minutes': LambdaDeploymentConfig.CANARY_10PERCENT_5MINUTES,
  'all-at-once': LambdaDeploymentConfig.ALL_AT_ONCE,
};

const API_OF_HOST: Readonly<Record<Route['host'], ApiName>> = { api: 'partner', embed: 'embed' };

/** The APIs whose routes (on this stage) reach a function. */
const apisServing = (stage: Stage, name: FunctionName, routes: readonly Route[]): ApiName[] => [
  ...new Set(
    routesOn(stage, routes)
      .filter((route) => route.fn === name)
      .map((route) => API_OF_HOST[route.host]),
  ),
];

interface DeploymentGuard {
  /** What the alarm watches, as docs/operations.md names it. */
  readonly alarm: string;
  /** The alarm guarding this function's deployments, or none when this row does not guard it. */
  readonly of: (alarms: Alarms, name: FunctionName, stage: Stage, routes: readonly Route[]) => IAlarm | undefined;
}

/**
 * Which alarms guard which function: THE table. While CodeDeploy shifts a function's alias,
 * any of its alarms firing stops the shift and moves the alias back to the previous version.
 * Rows apply to every function of FUNCTION_ENTRIES; the API rows to the functions that API's
 * routes reach (the route table), so a new function or route is guarded without a new row.
 */
const DEPLOYMENT_GUARDS: readonly DeploymentGuard[] = [
  { alarm: "the function's errors (any, per minute)", of: (alarms, name) => alarms.functionAlarms[name].errors },
  { alarm: "the function's throttles (any, per minute)", of: (alarms, name) => alarms.functionAlarms[name].throttles },
  {
    alarm: "the function's p99 duration (over 80 % of its timeout, 2 of 3 minutes)",
    of: (alarms, name) => alarms.functionAlarms[name].duration,
  },
  {
    alarm: "the partner API's 5xx (any, per minute), for the functions its routes reach",
    of: (alarms, name, stage, routes) =>
      apisServing(stage, name, routes).includes('partner') ? alarms.serverErrors.partner : undefined,
  },
  {
    alarm: "the embed host's 5xx (any, per minute), for the functions its routes reach",
    of: (alarms, name, stage, routes) =>
      apisServing(stage, name, routes).includes('embed') ? alarms.serverErrors.embed : undefined,
  },
];

export interface DeploymentsProps {
  readonly config: EnvironmentConfig;
  readonly functions: Readonly<Record<FunctionName, NodeFunction>>;
  readonly alarms: Alarms;
  /** The route table (functions/routes.ts). */
  readonly routes?: readonly Route[];
}

/**
 * One CodeDeploy application per stack and a deployment group per function, named
 * `<prefix>-<function>`: each deploy publishes a version and CodeDeploy shifts the
 * function's `live` alias to it (a canary on production, all at once on sandbox), rolling
 * back on its own when a guarding alarm fires, the deployment fails or someone stops it.
 */
export class Deployments extends Construct {
  readonly application: LambdaApplication;
  readonly groups: Readonly<Record<FunctionName, LambdaDeploymentGroup>>;

  constructor(scope: Construct, id: string, { config, functions, alarms, routes = ROUTES }: DeploymentsProps) {
    super(scope, id);
    this.application = new LambdaApplication(this, 'Application', {
      applicationName: `${config.resourcePrefix}-functions`,
    });
    // One role for every group: CodeDeploy only updates aliases and reads alarms on the stack's behalf.
    const role = new Role(this, 'CodeDeployRole', {
      assumedBy: new ServicePrincipal('codedeploy.amazonaws.com'),
      managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSCodeDeployRoleForLambdaLimited')],
    });
    Validations.of(role).acknowledge({
      id: 'AwsSolutions::AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited]',
      reason:
        "AWS's own policy for CodeDeploy on Lambda: update aliases, read alarms, invoke hooks named CodeDeployHook_*; a hand-written copy would add drift, not safety",
    });
    const deploymentConfig = DEPLOYMENT_CONFIGS[config.deploymentStyle];
    this.groups = Object.fromEntries(
      (Object.entries(functions) as [FunctionName, NodeFunction][]).map(([name, fn]) => [
        name,
        new LambdaDeploymentGroup(this, `${name}Deployment`, {
          application: this.application,
          deploymentGroupName: `${config.resourcePrefix}-${name}`,
          alias: fn.live,
          deploymentConfig,
          role,
          alarms: DEPLOYMENT_GUARDS.flatMap((guard) => guard.of(alarms, name, config.stage, routes) ?? []),
          autoRollback: { failedDeployment: true, stoppedDeployment: true, deploymentInAlarm: true },
        }),
      ]),
    ) as Record<FunctionName, LambdaDeploymentGroup>;
  }
}
