import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface AwsClients {
  readonly db: DynamoDBDocumentClient;
  readonly sqs: SQSClient;
  readonly ses: SESv2Client;
  readonly secrets: SecretsManagerClient;
}

/** Service endpoints of the local stand-ins; absent in AWS, where the SDK's defaults apply. */
export interface LocalEndpoints {
  readonly dynamodb: string;
  readonly sqs: string;
  readonly ses: string;
  readonly secretsManager: string;
}

export function createAwsClients(endpoints?: LocalEndpoints): AwsClients {
  // The stand-ins accept any credentials; fixed ones keep a developer's real AWS profile out of it.
  const local = (endpoint: string) => ({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const dynamo = new DynamoDBClient(endpoints ? local(endpoints.dynamodb) : {});
  return {
    db: DynamoDBDocumentClient.from(dynamo, { marshallOptions: { removeUndefinedValues: true } }),
    sqs: new SQSClient(endpoints ? local(endpoints.sqs) : {}),
    ses: new SESv2Client(endpoints ? local(endpoints.ses) : {}),
    secrets: new SecretsManagerClient(endpoints ? local(endpoints.secretsManager) : {}),
  };
}
