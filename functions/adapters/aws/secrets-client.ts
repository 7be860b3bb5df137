import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { clientOptions } from './client-options';

/** `trace`: wraps the client for X-Ray (observability/tracing.ts) in the functions that trace. */
export const createSecretsClient = (
  endpoint?: string,
  trace: <C>(client: C) => C = (client) => client,
): SecretsManagerClient => trace(new SecretsManagerClient(clientOptions(endpoint)));
