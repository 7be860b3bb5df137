import type { S3Client } from '@aws-sdk/client-s3';
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { SESv2Client } from '@aws-sdk/client-sesv2';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from './aws/dynamodb-client';
import { createS3Client } from './aws/s3-client';
import { createSecretsClient } from './aws/secrets-client';
import { createSesClient } from './aws/ses-client';
import { createSqsClient } from './aws/sqs-client';

/** Every client the service uses, for the local stack and the operator CLI; a Lambda builds only its own. */
export interface AwsClients {
  readonly db: DynamoDBDocumentClient;
  readonly sqs: SQSClient;
  readonly ses: SESv2Client;
  readonly secrets: SecretsManagerClient;
  readonly s3: S3Client;
}

/** Service endpoints of the local stand-ins; absent in AWS, where the SDK's defaults apply. */
export interface LocalEndpoints {
  readonly dynamodb: string;
  readonly sqs: string;
  readonly ses: string;
  readonly secretsManager: string;
  /** fauxqs serves S3 on the same port as SQS. */
  readonly s3: string;
}

export const createAwsClients = (endpoints?: LocalEndpoints): AwsClients => ({
  db: createDocumentClient(endpoints?.dynamodb),
  sqs: createSqsClient(endpoints?.sqs),
  ses: createSesClient(endpoints?.ses),
  secrets: createSecretsClient(endpoints?.secretsManager),
  s3: createS3Client(endpoints?.s3),
});
