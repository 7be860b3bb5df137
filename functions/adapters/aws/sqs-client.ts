import { SQSClient } from '@aws-sdk/client-sqs';
import { clientOptions } from './client-options';

export const createSqsClient = (endpoint?: string): SQSClient => new SQSClient(clientOptions(endpoint));
