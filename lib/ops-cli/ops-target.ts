import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { GetQueueUrlCommand } from '@aws-sdk/client-sqs';
import { z } from 'zod';
import { type AwsClients, createAwsClients } from '../../functions/adapters/aws-clients';
import { loadRuntimeConfig, type RuntimeConfig } from '../../functions/config';
import { createDependencies, type Dependencies } from '../../functions/container';
import { jsonLinesLogger, type Logger } from '../../functions/domain/logger';
import { ApiKeyPrefix } from '../../functions/domain/partners/partner';
import { functionEnvironment } from '../../functions/resources/function-environment';
import { ENVIRONMENTS, type Stage, STAGES } from '../../functions/resources/stages';
import { QUEUES, type QueueName, queueName } from '../../functions/resources/resource-definitions';

/** What `npm start` writes to `.local/stack.json` (bin/local.ts) for tools that talk to the running stack. */
const LocalStackFile = z.object({
  url: z.url(),
  resourcePrefix: z.string().min(1),
  stage: z.enum(['production', 'sandbox']),
  apiKeyPrefix: ApiKeyPrefix,
  endpoints: z.object({ dynamodb: z.url(), sqs: z.url(), ses: z.url(), secretsManager: z.url(), s3: z.url() }),
  stripeApiBase: z.url(),
  queueUrls: z.object({
    orderEvents: z.string().min(1),
    webhookDeliveries: z.string().min(1),
    webhookSlowDeliveries: z.string().min(1),
    invoicing: z.string().min(1),
  }),
  pid: z.number().int().positive().optional(),
});

export const LOCAL_STACK_NOT_RUNNING = 'Local stack not running: start it with npm start';

export interface OpsTarget {
  readonly deps: Dependencies;
  /** What the commands act on, for the operator to see, e.g. `production (AWS, embed-production)`. */
  readonly description: string;
}

export interface OpsTargetOptions {
  /** A deployed stage; the local stack when absent. */
  readonly stage?: Stage;
  /** Where `npm start` wrote the local stack's description; `.local/stack.json` like bin/local.ts. */
  readonly stackFile?: string;
  /** Service logs go to stderr by default, so stdout stays the command's output. */
  readonly logger?: Logger;
}

/** Builds the `Dependencies` of the stack the operator CLI acts on. */
export async function openOpsTarget(options: OpsTargetOptions = {}): Promise<OpsTarget> {
  const logger = options.logger ?? jsonLinesLogger((line) => process.stderr.write(`${line}\n`));
  return options.stage
    ? deployedTarget(options.stage, logger)
    : localTarget(options.stackFile ?? resolve('.local', 'stack.json'), logger);
}

function localTarget(stackFile: string, logger: Logger): OpsTarget {
  if (!existsSync(stackFile)) throw new Error(LOCAL_STACK_NOT_RUNNING);
  let stack: z.infer<typeof LocalStackFile>;
  try {
    stack = LocalStackFile.parse(JSON.parse(readFileSync(stackFile, 'utf8')));
  } catch {
    throw new Error(`${stackFile} is not a stack description npm start wrote: restart the local stack with npm start`);
  }
  // A stack killed without its Ctrl-C handler leaves the file behind.
  if (stack.pid !== undefined && !isRunning(stack.pid)) throw new Error(LOCAL_STACK_NOT_RUNNING);

  const config = loadRuntimeConfig(
    functionEnvironment(ENVIRONMENTS[stack.stage], {
      queueUrls: stack.queueUrls,
      resourcePrefix: stack.resourcePrefix,
      embedBaseUrl: stack.url,
      local: { stripeApiBase: stack.stripeApiBase },
    }),
  );
  return {
    deps: createDependencies(config, createAwsClients(stack.endpoints), { logger }),
    description: `local stack at ${stack.url} (${stack.resourcePrefix})`,
  };
}

/** A deployed stack, through the default AWS credential chain, configured exactly as lib/infrastructure/service-stack.ts configures its functions. */
async function deployedTarget(stage: Stage, logger: Logger): Promise<OpsTarget> {
  const environment = ENVIRONMENTS[stage];
  const aws = createAwsClients();
  const queueUrls = await resolveQueueUrls(aws, environment.resourcePrefix).catch((error: Error) => {
    if (error.message === 'Region is missing')
      throw new Error('AWS region is missing: set AWS_REGION (or use a profile with a region)');
    throw error;
  });
  const config: RuntimeConfig = loadRuntimeConfig(functionEnvironment(environment, { queueUrls }));
  return {
    deps: createDependencies(config, aws, { logger }),
    description: `${stage} (AWS, ${environment.resourcePrefix})`,
  };
}

async function resolveQueueUrls(aws: AwsClients, prefix: string): Promise<Record<QueueName, string>> {
  const names = Object.keys(QUEUES) as QueueName[];
  const urls = await Promise.all(
    names.map(async (name) => {
      const { QueueUrl } = await aws.sqs.send(new GetQueueUrlCommand({ QueueName: queueName(prefix, name) }));
      if (!QueueUrl) throw new Error(`Queue ${queueName(prefix, name)} has no URL`);
      return [name, QueueUrl] as const;
    }),
  );
  return Object.fromEntries(urls) as Record<QueueName, string>;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, it is just not ours to signal.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes `--stage <stage>` (or `--stage=<stage>`) out of a command line: it picks the target, not a command option. */
export function takeStageOption(argv: readonly string[]): { stage: Stage | undefined; rest: string[] } {
  const rest: string[] = [];
  let given: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg === '--stage') {
      given = argv[i + 1] ?? '';
      i += 1;
    } else if (arg.startsWith('--stage=')) {
      given = arg.slice('--stage='.length);
    } else {
      rest.push(arg);
    }
  }
  if (given === undefined) return { stage: undefined, rest };
  const stage = STAGES.find((s) => s === given);
  if (!stage) throw new Error(`--stage must be one of ${STAGES.join(', ')}`);
  return { stage, rest };
}
