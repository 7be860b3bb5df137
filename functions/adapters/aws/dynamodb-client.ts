import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { clientOptions } from './client-options';

export const createDocumentClient = (endpoint?: string): DynamoDBDocumentClient =>
  DynamoDBDocumentClient.from(new DynamoDBClient(clientOptions(endpoint)), { marshallOptions: { removeUndefinedValues: true } });
