import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { Alias, Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { EnvironmentConfig } from '../../../functions/resources/stages';
import {
  LAMBDA_BUNDLE,
  lambdaExternals,
  ON_DEMAND_PACKAGE_JSON,
  ON_DEMAND_PACKAGES,
  onDemandPackageDir,
  onDemandPackageFlags,
} from '../bundling';
import {
  FUNCTION_ENTRIES,
  FUNCTION_TIMEOUT_SECONDS,
  type FunctionName,
} from '../../../functions/resources/resource-definitions';

/** FUNCTION_ENTRIES paths are relative to the repository root, whatever the working directory. */
const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** CloudWatch accepts only certain retention periods; a config typo must fail the synth, not the deploy. */
const retentionDays = (days: number): RetentionDays => {
  if (!(Object.values(RetentionDays) as unknown[]).includes(days)) {
    throw new Error(`logRetentionDays ${days} is not a retention period CloudWatch Logs accepts`);
  }
  return days as RetentionDays;
};

/** A log group kept as long as the stage's config says, and kept after stack deletion where data is retained. */
export const serviceLogGroup = (scope: Construct, id: string, config: EnvironmentConfig): LogGroup =>
  new LogGroup(scope, id, {
    retention: retentionDays(config.logRetentionDays),
    removalPolicy: config.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
  });

export interface NodeFunctionProps {
  readonly config: EnvironmentConfig;
  readonly name: FunctionName;
  /** The runtime configuration every handler reads (see ServiceStack). */
  readonly environment: Readonly<Record<string, string>>;
  /** Compile-time constants (esbuild `define`), e.g. the embed host's browser scripts. */
  readonly define?: Readonly<Record<string, string>>;
}

/** A word for `bash -c`, whatever it holds. */
const shellQuote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * After esbuild made `index.mjs`: each of the function's on-demand packages bundled on its
 * own beside it (bundling.ts), by the same local esbuild CDK runs (`npx --no-install`).
 */
const onDemandPackageCommands = (name: FunctionName, outputDir: string): string[] =>
  (ON_DEMAND_PACKAGES[name] ?? []).flatMap((pkg) => {
    const dir = `${outputDir}/${onDemandPackageDir(pkg)}`;
    return [
      ['npx', '--no-install', 'esbuild', ...onDemandPackageFlags(pkg, `${dir}/index.mjs`).map(shellQuote)].join(' '),
      `printf '%s\\n' ${shellQuote(ON_DEMAND_PACKAGE_JSON)} > ${shellQuote(`${dir}/package.json`)}`,
    ];
  });

/** The alias every caller invokes (API Gateway, event sources, schedules); CodeDeploy shifts it between versions. */
const LIVE_ALIAS = 'live';

/**
 * One of the service's Lambda handlers, bundled as ESM for Node.js 22 on Graviton, published
 * as a version on every change behind its `live` alias. Callers invoke `live`, never the
 * function itself ($LATEST), so a deploy reaches them only as the deployment group
 * (constructs/deployments.ts) shifts the alias, and a rollback moves it back.
 */
export class NodeFunction extends NodejsFunction {
  readonly name: FunctionName;
  readonly live: Alias;

  constructor(scope: Construct, id: string, props: NodeFunctionProps) {
    super(scope, id, {
      entry: join(repositoryRoot, FUNCTION_ENTRIES[props.name]),
      handler: 'handler',
      projectRoot: repositoryRoot,
      depsLockFilePath: join(repositoryRoot, 'package-lock.json'),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: 512,
      timeout: Duration.seconds(FUNCTION_TIMEOUT_SECONDS[props.name]),
      tracing: Tracing.ACTIVE,
      logGroup: serviceLogGroup(scope, `${id}Logs`, props.config),
      // No --enable-source-maps: it parsed the map at every cold start (+6 ms setup, +14 ms
      // handshake) and source-maps every stack read, which stripe-node does on each call.
      // Stacks keep their names (keepNames); the map beside the bundle locates a position.
      environment: props.environment,
      bundling: {
        minify: LAMBDA_BUNDLE.minify,
        keepNames: LAMBDA_BUNDLE.keepNames,
        sourceMap: true,
        sourcesContent: false,
        format: OutputFormat.ESM,
        target: LAMBDA_BUNDLE.target,
        mainFields: [...LAMBDA_BUNDLE.mainFields],
        banner: LAMBDA_BUNDLE.banner,
        externalModules: lambdaExternals(props.name),
        commandHooks: {
          beforeBundling: () => [],
          beforeInstall: () => [],
          afterBundling: (_inputDir, outputDir) => onDemandPackageCommands(props.name, outputDir),
        },
        ...(props.define ? { define: { ...props.define } } : {}),
      },
    });
    this.name = props.name;
    this.live = new Alias(this, 'Live', { aliasName: LIVE_ALIAS, version: this.currentVersion });
    Validations.of(this).acknowledge(
      {
        id: 'AwsSolutions::AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason:
          'The managed policy only lets the function write its own CloudWatch logs; a hand-written copy would add drift, not safety',
      },
      {
        id: 'AwsSolutions::AwsSolutions-IAM5[Resource::*]',
        reason:
          'X-Ray tracing (xray:PutTraceSegments, PutTelemetryRecords) has no resource-level permissions; CDK adds it for Tracing.ACTIVE',
      },
      {
        id: 'AwsSolutions::AwsSolutions-L1',
        reason:
          'Node.js 22 on purpose: the code must run on the Node 20 of local and CI machines and on Lambda alike (docs/architecture.md, "Runtime")',
      },
      {
        id: 'Serverless::Serverless-LambdaLatestVersion',
        reason:
          'Node.js 22 on purpose: the code must run on the Node 20 of local and CI machines and on Lambda alike (docs/architecture.md, "Runtime")',
      },
      {
        id: 'Serverless::Serverless-LambdaDLQ',
        reason:
          "Nothing invokes these functions asynchronously: API Gateway waits for the answer, and SQS consumers fail into their queue's own dead-letter queue",
      },
    );
  }
}
