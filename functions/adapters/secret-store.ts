import {
  CreateSecretCommand,
  DeleteSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  type SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import type { Clock } from '../domain/clock';
import type { PartnerId } from '../domain/partners/partner';
import { ReadCache } from '../domain/read-cache';
import type { SigningSecrets, SigningSecretStore } from '../webhooks/signing-secret-store';
import { webhookSecretName } from '../resources/resource-definitions';

/**
 * How long a read secret is reused when nothing says it changed. A rotation does say so:
 * the endpoint's `secretRotatedAt`, which the dispatcher reads with the endpoint, is
 * newer than the rotation the copy was read for, and the secret is read again.
 */
export const SIGNING_SECRET_CACHE_SECONDS = 60;
const CACHE_MILLISECONDS = SIGNING_SECRET_CACHE_SECONDS * 1000;

/**
 * The stored form: `{"current":"…","retiring":[{"secret":"…","expiresAt":"…"}]}`. A value
 * that is not such an object is a secret stored before rotation had an overlap: the
 * whole string is the current secret (partner-chosen secrets are printable ASCII
 * without spaces, so one is never mistaken for this object in practice).
 */
function parseStored(value: string): SigningSecrets {
  try {
    const parsed = JSON.parse(value) as Partial<SigningSecrets> | null;
    if (parsed && typeof parsed === 'object' && typeof parsed.current === 'string' && Array.isArray(parsed.retiring)) {
      return { current: parsed.current, retiring: parsed.retiring };
    }
  } catch {
    // Not JSON: a plain secret.
  }
  return { current: value, retiring: [] };
}

/**
 * Partners' webhook signing secrets in Secrets Manager, one secret per partner
 * (`<prefix>/webhook-secrets/<partnerId>`) holding the current secret and any still in a
 * rotation's overlap, cached briefly so a burst of deliveries does not read it again and again.
 */
export class SecretsManagerSigningSecretStore implements SigningSecretStore {
  private readonly cache: ReadCache<PartnerId, SigningSecrets | undefined>;

  constructor(
    private readonly client: SecretsManagerClient,
    private readonly prefix: string,
    clock: Clock,
  ) {
    this.cache = new ReadCache(clock, CACHE_MILLISECONDS);
  }

  /** The rotation (`secretRotatedAt`) each cached read was made for, when the caller said. */
  private readonly readFor = new Map<PartnerId, string>();

  get(partnerId: PartnerId, rotatedAt?: string): Promise<SigningSecrets | undefined> {
    const cachedFor = this.readFor.get(partnerId);
    if (rotatedAt !== undefined && cachedFor !== rotatedAt) {
      // Read for another rotation, or not known for which: the cached copy may hold the old secret.
      this.cache.forget(partnerId);
      this.readFor.set(partnerId, rotatedAt);
    }
    return this.cache.get(partnerId, () => this.read(partnerId));
  }

  private async read(partnerId: PartnerId): Promise<SigningSecrets | undefined> {
    try {
      const result = await this.client.send(
        new GetSecretValueCommand({ SecretId: webhookSecretName(this.prefix, partnerId) }),
      );
      return result.SecretString === undefined ? undefined : parseStored(result.SecretString);
    } catch (error) {
      if ((error as Error).name !== 'ResourceNotFoundException') throw error;
      return undefined;
    }
  }

  async put(partnerId: PartnerId, secrets: SigningSecrets): Promise<void> {
    const name = webhookSecretName(this.prefix, partnerId);
    const stored = JSON.stringify({ current: secrets.current, retiring: secrets.retiring });
    try {
      await this.client.send(new PutSecretValueCommand({ SecretId: name, SecretString: stored }));
    } catch (error) {
      if ((error as Error).name !== 'ResourceNotFoundException') throw error;
      await this.client.send(
        new CreateSecretCommand({
          Name: name,
          SecretString: stored,
          Description: `Webhook signing secret of partner ${partnerId}`,
        }),
      );
    }
    this.cache.forget(partnerId);
    this.readFor.delete(partnerId);
  }

  async remove(partnerId: PartnerId): Promise<void> {
    try {
      // Without recovery: a removed endpoint's secret must not linger, and `webhook set` may create the name again at once.
      await this.client.send(
        new DeleteSecretCommand({
          SecretId: webhookSecretName(this.prefix, partnerId),
          ForceDeleteWithoutRecovery: true,
        }),
      );
    } catch (error) {
      if ((error as Error).name !== 'ResourceNotFoundException') throw error;
    }
    this.cache.forget(partnerId);
    this.readFor.delete(partnerId);
  }
}
