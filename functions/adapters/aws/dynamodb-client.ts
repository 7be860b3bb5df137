import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { clientOptions } from './client-options';

/** `trace`: wraps the base client for X-Ray (observability/tracing.ts) in the functions that trace. */
export const createDocumentClient = (
  endpoint?: string,
  trace: <C>(client: C) => C = (client) => client,
): DynamoDBDocumentClient =>
  DynamoDBDocumentClient.from(trace(new DynamoDBClient(clientOptions(endpoint))), {
    marshallOptions: { removeUndefinedValues: true },
  });
