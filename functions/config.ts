import { z } from 'zod';
import { ApiKeyPrefix } from './domain/partners/partner';

const commaList = z
  .string()
  .default('')
  .transform((s) => s.split(',').map((v) => v.trim()).filter(Boolean));

/**
 * The runtime configuration, read from the environment the CDK stack (or the local
 * runner) sets. Only the composition roots call `loadRuntimeConfig`.
 */
export const RuntimeConfig = z.object({
  STAGE: z.enum(['production', 'sandbox']),
  API_KEY_PREFIX: ApiKeyPrefix,
  RESOURCE_PREFIX: z.string().min(1),
  /** `{embed_host}` with its scheme, e.g. `https://embed.example.com`. */
  EMBED_BASE_URL: z.url(),
  ORDER_EVENTS_QUEUE_URL: z.string().default(''),
  WEBHOOK_DELIVERIES_QUEUE_URL: z.string().default(''),
  /** Where the Stripe secret key lives in Secrets Manager (deployed stacks). */
  STRIPE_SECRET_NAME: z.string().default(''),
  /** A Stripe key given directly (local runtime and tests only). */
  STRIPE_SECRET_KEY: z.string().optional(),
  /** Points the Stripe SDK at the local stand-in, e.g. `http://127.0.0.1:12111`. */
  STRIPE_API_BASE: z.url().optional(),
  ALERT_SENDER_EMAIL: z.string().default(''),
  WEBHOOK_REQUIRE_HTTPS_PUBLIC: z.enum(['true', 'false']).default('true').transform((v) => v === 'true'),
  DEFAULT_FRAME_ANCESTORS: commaList,
  /** How long a partner has to answer a webhook (contract: 30 seconds); tests shorten it. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  WEBHOOK_RETRY_DELAYS_S: z
    .string()
    .default('60,300,900,3600,21600,86400')
    .transform((s, ctx) => {
      const delays = s.split(',').map((v) => Number(v.trim()));
      if (delays.some((d) => !Number.isInteger(d) || d < 0)) {
        ctx.addIssue({ code: 'custom', message: 'WEBHOOK_RETRY_DELAYS_S must be comma-separated whole seconds' });
        return z.NEVER;
      }
      return delays;
    }),
});
export type RuntimeConfig = z.output<typeof RuntimeConfig>;
export type RuntimeEnvironment = z.input<typeof RuntimeConfig>;

export const loadRuntimeConfig = (env: Record<string, string | undefined>): RuntimeConfig => RuntimeConfig.parse(env);
