import {
  CreateSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  type SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import type { Clock } from '../domain/clock';
import type { PartnerId } from '../domain/partners/partner';
import type { SigningSecretStore } from '../domain/webhooks/signing-secret-store';
import { webhookSecretName } from '../resources/resource-definitions';

/**
 * How long a read secret is reused: a rotation reaches a warm dispatcher within this time
 * (operators are told so by `webhook rotate-secret` and `webhook set --secret`).
 */
export const SIGNING_SECRET_CACHE_SECONDS = 60;
const CACHE_MILLISECONDS = SIGNING_SECRET_CACHE_SECONDS * 1000;

/**
 * Partners' webhook signing secrets in Secrets Manager, one secret per partner
 * (`<prefix>/webhook-secrets/<partnerId>`), cached briefly so a burst of deliveries does
 * not read the same secret again and again.
 */
export class SecretsManagerSigningSecretStore implements SigningSecretStore {
  private readonly cache = new Map<string, { value: string | undefined; until: number }>();

  constructor(
    private readonly client: SecretsManagerClient,
    private readonly prefix: string,
    private readonly clock: Clock,
  ) {}

  async get(partnerId: PartnerId): Promise<string | undefined> {
    const now = this.clock.now().getTime();
    const cached = this.cache.get(partnerId);
    if (cached && cached.until > now) return cached.value;
    let value: string | undefined;
    try {
      const result = await this.client.send(new GetSecretValueCommand({ SecretId: webhookSecretName(this.prefix, partnerId) }));
      value = result.SecretString;
    } catch (error) {
      if ((error as Error).name !== 'ResourceNotFoundException') throw error;
    }
    this.cache.set(partnerId, { value, until: now + CACHE_MILLISECONDS });
    return value;
  }

  async put(partnerId: PartnerId, secret: string): Promise<void> {
    const name = webhookSecretName(this.prefix, partnerId);
    try {
      await this.client.send(new PutSecretValueCommand({ SecretId: name, SecretString: secret }));
    } catch (error) {
      if ((error as Error).name !== 'ResourceNotFoundException') throw error;
      await this.client.send(
        new CreateSecretCommand({ Name: name, SecretString: secret, Description: `Webhook signing secret of partner ${partnerId}` }),
      );
    }
    this.cache.delete(partnerId);
  }
}
