// zod/mini: every Lambda parses this at cold start, and the classic API alone is ~440 KB bundled.
import * as z from 'zod/mini';
import { ApiKeyPrefix } from './domain/partners/partner';
import type { TableName } from './resources/resource-definitions';

const withDefault = <T extends z.ZodMiniType>(schema: T, value: z.output<T>) => z._default(schema, value as never);

const commaList = z.pipe(
  withDefault(z.string(), ''),
  z.transform((s: string) =>
    s
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean),
  ),
);

const retryDelays = z.pipe(
  withDefault(z.string(), '60,300,900,3600,21600,86400'),
  z.transform((s: string, ctx) => {
    const delays = s.split(',').map((v) => Number(v.trim()));
    if (delays.some((d) => !Number.isInteger(d) || d < 0)) {
      ctx.issues.push({
        code: 'custom',
        message: 'WEBHOOK_RETRY_DELAYS_S must be comma-separated whole seconds',
        input: s,
      });
      return [];
    }
    return delays;
  }),
);

/**
 * The environment variable naming each table. The stack writes every one (a restored table's
 * name where the stage has one: functions/resources/stages.ts); `${RESOURCE_PREFIX}-<suffix>`
 * stands in for a variable left empty.
 */
export const TABLE_NAME_VARIABLES = {
  partners: 'PARTNERS_TABLE',
  organizations: 'ORGANIZATIONS_TABLE',
  identityUsers: 'IDENTITY_USERS_TABLE',
  sessions: 'SESSIONS_TABLE',
  rateLimits: 'RATE_LIMITS_TABLE',
  idempotency: 'IDEMPOTENCY_TABLE',
  webhooks: 'WEBHOOKS_TABLE',
  catalog: 'CATALOG_TABLE',
  carts: 'CARTS_TABLE',
  orders: 'ORDERS_TABLE',
} as const satisfies Record<TableName, string>;
export type TableNameVariable = (typeof TABLE_NAME_VARIABLES)[TableName];

const tableNameVariable = withDefault(z.string(), '');

/**
 * The runtime configuration, read from the environment the CDK stack (or the local
 * runner) sets. Only the composition roots call `loadRuntimeConfig`.
 */
export const RuntimeConfig = z.object({
  STAGE: z.enum(['production', 'sandbox']),
  API_KEY_PREFIX: ApiKeyPrefix,
  RESOURCE_PREFIX: z.string().check(z.minLength(1)),
  PARTNERS_TABLE: tableNameVariable,
  ORGANIZATIONS_TABLE: tableNameVariable,
  IDENTITY_USERS_TABLE: tableNameVariable,
  SESSIONS_TABLE: tableNameVariable,
  RATE_LIMITS_TABLE: tableNameVariable,
  IDEMPOTENCY_TABLE: tableNameVariable,
  WEBHOOKS_TABLE: tableNameVariable,
  CATALOG_TABLE: tableNameVariable,
  CARTS_TABLE: tableNameVariable,
  ORDERS_TABLE: tableNameVariable,
  /** `{embed_host}` with its scheme, e.g. `https://embed.example.com`. */
  EMBED_BASE_URL: z.url(),
  ORDER_EVENTS_QUEUE_URL: withDefault(z.string(), ''),
  WEBHOOK_DELIVERIES_QUEUE_URL: withDefault(z.string(), ''),
  /** The slow path's queue (docs/webhooks.md, "Fast and slow paths"). */
  WEBHOOK_SLOW_DELIVERIES_QUEUE_URL: withDefault(z.string(), ''),
  /** Shipments and refunds to invoice (the outbox relay feeds it, the invoicing consumer reads it). */
  INVOICING_QUEUE_URL: withDefault(z.string(), ''),
  /** Where the Stripe secret key lives in Secrets Manager (deployed stacks). */
  STRIPE_SECRET_NAME: withDefault(z.string(), ''),
  /** A Stripe key given directly (local runtime and tests only). */
  STRIPE_SECRET_KEY: z.optional(z.string()),
  /** Where Stripe's endpoint secret (`whsec_…`, signs the events it sends us) lives in Secrets Manager (deployed stacks). */
  STRIPE_WEBHOOK_SECRET_NAME: withDefault(z.string(), ''),
  /** The endpoint secret given directly (local runtime: the stand-in returns it when `npm start` registers the route). */
  STRIPE_WEBHOOK_SECRET: z.optional(z.string()),
  /** Points the Stripe SDK at the local stand-in, e.g. `http://127.0.0.1:12111`. */
  STRIPE_API_BASE: z.optional(z.url()),
  ALERT_SENDER_EMAIL: withDefault(z.string(), ''),
  /** The private bucket of product pictures (the embed host reads it, the catalog import writes it). */
  PRODUCT_IMAGES_BUCKET: withDefault(z.string(), ''),
  WEBHOOK_REQUIRE_HTTPS_PUBLIC: z.pipe(
    withDefault(z.enum(['true', 'false']), 'true'),
    z.transform((v: 'true' | 'false') => v === 'true'),
  ),
  DEFAULT_FRAME_ANCESTORS: commaList,
  /** How long a partner has to answer a webhook (contract: 30 seconds); tests shorten it. */
  WEBHOOK_TIMEOUT_MS: withDefault(z.coerce.number().check(z.int(), z.positive()), 30_000),
  /** How long the fast path waits for an answer before the attempt moves to the slow path (FAST_PATH_BUDGET_MS); tests shorten it. */
  WEBHOOK_FAST_PATH_BUDGET_MS: withDefault(z.coerce.number().check(z.int(), z.positive()), 2000),
  WEBHOOK_RETRY_DELAYS_S: retryDelays,
  /** An endpoint whose every attempt has failed for this long is disabled: 5 days. */
  WEBHOOK_DISABLE_AFTER_S: withDefault(z.coerce.number().check(z.int(), z.positive()), 5 * 24 * 3600),
  /** An embedded session ends after this long without a request: 30 minutes; `npm start` and tests may shorten it. */
  EMBED_SESSION_IDLE_S: withDefault(z.coerce.number().check(z.int(), z.positive()), 30 * 60),
  /** The invoice sweep leaves a shipment younger than this to the invoicing queue: a minute; `npm start` may shorten it. */
  INVOICE_SWEEP_GRACE_S: withDefault(z.coerce.number().check(z.int(), z.positive()), 60),
});
export type RuntimeConfig = z.output<typeof RuntimeConfig>;
export type RuntimeEnvironment = z.input<typeof RuntimeConfig>;

export const loadRuntimeConfig = (env: Record<string, string | undefined>): RuntimeConfig => RuntimeConfig.parse(env);
