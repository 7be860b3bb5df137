import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type Stripe from 'stripe';
import type { RuntimeConfig } from '../config';

type StripeSettings = Pick<RuntimeConfig, 'STRIPE_SECRET_KEY' | 'STRIPE_API_BASE' | 'STRIPE_SECRET_NAME'>;
type EndpointSecretSettings = Pick<RuntimeConfig, 'STRIPE_WEBHOOK_SECRET' | 'STRIPE_WEBHOOK_SECRET_NAME'>;

/**
 * A stalled Stripe fails a call after 2 x 4 s plus the SDK's backoff (under 2 s), about
 * 10 s, so setup answers its 500 inside the Lambda's 20 s even after a slow Secrets
 * Manager read (at most ~6.5 s, request-bounds.ts).
 */
const REQUEST_TIMEOUT_MS = 4_000;
/** The SDK reuses our idempotency key on its retries, so retrying a create is safe. */
const NETWORK_RETRIES = 1;

/**
 * The Stripe client, built on first use and then reused for the life of the process
 * (a Lambda cold start). Deployed stacks read the secret key from Secrets Manager once;
 * the local runtime and tests give it directly and point the SDK at the stand-in. A
 * failed build is forgotten, so a transient Secrets Manager error does not poison the
 * whole cold start.
 */
export function stripeClientSource(settings: StripeSettings, secrets: SecretsManagerClient): () => Promise<Stripe> {
  let client: Promise<Stripe> | undefined;
  const build = async (): Promise<Stripe> => {
    const apiKey = settings.STRIPE_SECRET_KEY ?? (await readSecretKey(secrets, settings.STRIPE_SECRET_NAME));
    // Loaded on first use: only a new organization needs Stripe. The setup Lambda ships it beside its handler, not inside
    // it (ON_DEMAND_PACKAGES, lib/infrastructure/bundling.ts), so its cold start neither reads nor evaluates the SDK.
    const { default: StripeClient } = await import('stripe');
    return new StripeClient(apiKey, {
      timeout: REQUEST_TIMEOUT_MS,
      maxNetworkRetries: NETWORK_RETRIES,
      ...(settings.STRIPE_API_BASE ? standInLocation(settings.STRIPE_API_BASE) : {}),
    });
  };
  return () => {
    client ??= build().catch((error: unknown) => {
      client = undefined;
      throw error;
    });
    return client;
  };
}

/**
 * The endpoint secret Stripe signs its events with, read once per process like the key
 * (a failed read is forgotten, so the next event tries again).
 */
export function stripeEndpointSecretSource(
  settings: EndpointSecretSettings,
  secrets: SecretsManagerClient,
): () => Promise<string> {
  let secret: Promise<string> | undefined;
  return () => {
    secret ??= (
      settings.STRIPE_WEBHOOK_SECRET !== undefined
        ? Promise.resolve(settings.STRIPE_WEBHOOK_SECRET)
        : readSecret(
            secrets,
            settings.STRIPE_WEBHOOK_SECRET_NAME,
            'STRIPE_WEBHOOK_SECRET',
            'STRIPE_WEBHOOK_SECRET_NAME',
          )
    ).catch((error: unknown) => {
      secret = undefined;
      throw error;
    });
    return secret;
  };
}

const readSecretKey = (secrets: SecretsManagerClient, secretName: string): Promise<string> =>
  readSecret(secrets, secretName, 'STRIPE_SECRET_KEY', 'STRIPE_SECRET_NAME');

async function readSecret(
  secrets: SecretsManagerClient,
  secretName: string,
  direct: string,
  named: string,
): Promise<string> {
  if (!secretName) throw new Error(`Neither ${direct} nor ${named} is configured`);
  const { SecretString } = await secrets.send(new GetSecretValueCommand({ SecretId: secretName }));
  const key = SecretString?.trim();
  if (!key) throw new Error(`The Stripe secret ${secretName} is empty`);
  return key;
}

function standInLocation(apiBase: string): { host: string; port: number; protocol: 'http' | 'https' } {
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: Number(url.port || (protocol === 'http' ? 80 : 443)), protocol };
}
