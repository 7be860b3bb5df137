import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { clientOptions } from './client-options';

export const createSecretsClient = (endpoint?: string): SecretsManagerClient => new SecretsManagerClient(clientOptions(endpoint));
