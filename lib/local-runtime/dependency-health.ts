import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { DescribeSecretCommand } from '@aws-sdk/client-secrets-manager';
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import type { AwsClients } from '../../functions/adapters/aws-clients';

/** Longer than any stand-in needs when healthy, short enough that /health itself answers promptly. */
const PROBE_TIMEOUT_MS = 2_000;

type DependencyState = 'ok' | 'not answering' | 'failing';

export interface HealthReport {
  readonly status: 'ok' | 'unavailable';
  readonly dependencies: Record<'dynamodb' | 'sqs' | 'secretsManager', DependencyState>;
}

/**
 * Asks each stand-in the service depends on for something cheap, at once, each with its
 * own deadline: a /health that said ok while DynamoDB stalled told the developer nothing.
 */
export async function checkDependencies(aws: AwsClients, anyQueueUrl: string): Promise<HealthReport> {
  const probe = async (ask: (abortSignal: AbortSignal) => Promise<unknown>): Promise<DependencyState> => {
    const abortSignal = AbortSignal.timeout(PROBE_TIMEOUT_MS);
    try {
      await ask(abortSignal);
      return 'ok';
    } catch (error) {
      if (abortSignal.aborted) return 'not answering';
      // A 4xx (the probe's secret does not exist) is an answer: the dependency is up.
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      return status !== undefined && status < 500 ? 'ok' : 'failing';
    }
  };
  const [dynamodb, sqs, secretsManager] = await Promise.all([
    probe((abortSignal) => aws.db.send(new ListTablesCommand({ Limit: 1 }), { abortSignal })),
    probe((abortSignal) =>
      aws.sqs.send(new GetQueueAttributesCommand({ QueueUrl: anyQueueUrl, AttributeNames: ['QueueArn'] }), {
        abortSignal,
      }),
    ),
    probe((abortSignal) => aws.secrets.send(new DescribeSecretCommand({ SecretId: 'health-probe' }), { abortSignal })),
  ]);
  const dependencies = { dynamodb, sqs, secretsManager };
  return { status: Object.values(dependencies).every((state) => state === 'ok') ? 'ok' : 'unavailable', dependencies };
}
