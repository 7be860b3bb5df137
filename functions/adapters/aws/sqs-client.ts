import { SQSClient } from '@aws-sdk/client-sqs';
import { clientOptions } from './client-options';

/** `trace`: wraps the client for X-Ray (observability/tracing.ts) in the functions that trace. */
export const createSqsClient = (endpoint?: string, trace: <C>(client: C) => C = (client) => client): SQSClient =>
  trace(new SQSClient(clientOptions(endpoint)));
