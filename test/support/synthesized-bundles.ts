/**
 * The Lambda bundles exactly as `cdk synth` makes them: the CDK app synthesized in
 * process with bundling on (the local esbuild, as `npx cdk synth` uses), into a directory
 * inside the repository, so a bundle's external `@aws-sdk/*` imports resolve from our
 * node_modules the way the Lambda runtime provides them.
 *
 * Only the sandbox stack is bundled (CDK's `aws:cdk:bundling-stacks`): production's
 * functions are built from the same entries with the same options (NodeFunction), and
 * bundling both would double the CPU the test costs.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { queueName, QUEUES, type FunctionName, type QueueName } from '../../functions/resources/resource-definitions';
import { ENVIRONMENTS, type Stage } from '../../functions/resources/stages';
import { addServiceStacks } from '../../lib/infrastructure/service-stack';

const repositoryRoot = new URL('../../', import.meta.url).pathname;

/** A template value: a literal, or an intrinsic (`Ref`, `Fn::GetAtt`) the test must resolve. */
type TemplateValue = string | { Ref: string } | Record<string, unknown>;

export interface SynthesizedFunction {
  readonly name: FunctionName;
  /** The bundle's entry file (`index.mjs` of its asset directory). */
  readonly bundle: string;
  /** The export the template's `Handler` names (`index.handler` → `handler`). */
  readonly handlerExport: string;
  readonly timeoutSeconds: number;
  /** Environment variables as the template gives them. */
  readonly environment: Readonly<Record<string, TemplateValue>>;
}

export interface SynthesizedApp {
  readonly outdir: string;
  readonly stage: Stage;
  /** Every function of the stack, by the name the stack gives it. */
  readonly functions: readonly SynthesizedFunction[];
  /** The queue a template `Ref` names, by logical id. */
  readonly queueOfLogicalId: Readonly<Record<string, QueueName>>;
}

export function synthesizeBundledApp(stage: Stage = 'sandbox'): SynthesizedApp {
  const parent = join(repositoryRoot, '.local', 'bundle-tests');
  mkdirSync(parent, { recursive: true, mode: 0o700 });
  const outdir = mkdtempSync(join(parent, 'cdk-'));
  const stackName = `EmbedService-${stage}`;
  const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [stackName] } });
  const stack = addServiceStacks(app)[stage];
  const template = app.synth().getStackByName(stackName).template as {
    Resources: Record<string, { Type: string; Properties: Record<string, any> }>;
  };

  const functions = (Object.entries(stack.functions) as [FunctionName, (typeof stack.functions)[FunctionName]][]).map(
    ([name, fn]) => {
      const logicalId = stack.getLogicalId(fn.node.defaultChild as CfnFunction);
      const properties = template.Resources[logicalId]?.Properties;
      if (!properties) throw new Error(`${name}: no ${logicalId} in the template`);
      const [file, handlerExport] = String(properties.Handler).split('.') as [string, string];
      const assetHash = String(properties.Code.S3Key).replace(/\.zip$/, '');
      return {
        name,
        bundle: join(outdir, `asset.${assetHash}`, `${file}.mjs`),
        handlerExport,
        timeoutSeconds: Number(properties.Timeout),
        environment: properties.Environment?.Variables ?? {},
      };
    },
  );

  const prefix = ENVIRONMENTS[stage].resourcePrefix;
  const queueOfLogicalId = Object.fromEntries(
    Object.entries(template.Resources)
      .filter(([, resource]) => resource.Type === 'AWS::SQS::Queue')
      .flatMap(([id, resource]) => {
        const queue = (Object.keys(QUEUES) as QueueName[]).find(
          (q) => queueName(prefix, q) === resource.Properties.QueueName,
        );
        return queue ? [[id, queue]] : [];
      }),
  );
  return { outdir, stage, functions, queueOfLogicalId };
}

/**
 * A function's template environment made concrete for a test: queue `Ref`s become the
 * test's queue URLs, and the stage's resource prefix (table and queue names, secret
 * names) becomes the test's own. Anything else unresolved fails loudly.
 */
export function environmentFor(
  app: SynthesizedApp,
  fn: SynthesizedFunction,
  test: { resourcePrefix: string; queueUrls: Readonly<Record<QueueName, string>> },
): Record<string, string> {
  const stagePrefix = new RegExp(`^${ENVIRONMENTS[app.stage].resourcePrefix}(?=$|[-/])`);
  return Object.fromEntries(
    Object.entries(fn.environment).map(([name, value]) => {
      if (typeof value === 'string') return [name, value.replace(stagePrefix, test.resourcePrefix)];
      const queue = 'Ref' in value && typeof value.Ref === 'string' ? app.queueOfLogicalId[value.Ref] : undefined;
      if (!queue) throw new Error(`${fn.name}: cannot resolve ${name} = ${JSON.stringify(value)} for a test`);
      return [name, test.queueUrls[queue]];
    }),
  );
}
