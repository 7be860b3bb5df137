/**
 * The one definition of the service's data stores and queues.
 *
 * The CDK constructs build AWS resources from it and the local runtime and test
 * harness create the same tables and queues on the stand-ins from it, so the two can
 * never drift. Plain data only: no CDK or AWS SDK imports here. The HTTP routes are
 * functions/routes.ts.
 */
export type TableName =
  | 'partners'
  | 'organizations'
  | 'identityUsers'
  | 'sessions'
  | 'rateLimits'
  | 'idempotency'
  | 'webhooks'
  | 'catalog'
  | 'carts'
  | 'orders';

export interface TableDefinition {
  /** Suffix of the physical name: `${prefix}-${suffix}`. */
  readonly suffix: string;
  readonly partitionKey: string;
  readonly sortKey?: string;
  /** Attribute holding the expiry in epoch seconds, when records expire. */
  readonly ttlAttribute?: string;
  readonly globalIndexes: readonly { readonly name: string; readonly partitionKey: string; readonly sortKey: string }[];
  /** The table's change stream, when a consumer reads it (new images only). */
  readonly stream?: 'NEW_IMAGE';
}

const gsi1 = { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' } as const;
const gsi2 = { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' } as const;

export const TABLES: Readonly<Record<TableName, TableDefinition>> = {
  /** Partners, their hashed API keys (plus a lookup item per key hash) and webhook endpoints. */
  partners: { suffix: 'partners', partitionKey: 'pk', sortKey: 'sk', globalIndexes: [gsi1] },
  /** Organizations, profiles, shipping locations and their uniqueness/lookup items. */
  organizations: { suffix: 'organizations', partitionKey: 'pk', sortKey: 'sk', globalIndexes: [gsi1] },
  /** The service's own identity directory (docs/architecture.md, "Identity provider"). */
  identityUsers: { suffix: 'identity-users', partitionKey: 'pk', sortKey: 'sk', globalIndexes: [] },
  /** Handshake session tokens (hashed) and embedded-app sessions. */
  sessions: {
    suffix: 'sessions',
    partitionKey: 'pk',
    sortKey: 'sk',
    ttlAttribute: 'ttl',
    globalIndexes: [gsi1],
  },
  /** Fixed one-minute rate-limit windows per partner and endpoint. */
  rateLimits: { suffix: 'rate-limits', partitionKey: 'pk', ttlAttribute: 'ttl', globalIndexes: [] },
  /** Idempotency-Key records for setup, kept 24 hours. */
  idempotency: { suffix: 'idempotency', partitionKey: 'pk', ttlAttribute: 'ttl', globalIndexes: [] },
  /**
   * Webhook deliveries with their attempts, and event de-duplication items. gsi1: a
   * partner's deliveries by creation; gsi2 (sparse): a partner's deliveries of one order
   * (`GET /v1/webhooks/deliveries?order_id=`), so that filter reads only that order's.
   */
  webhooks: {
    suffix: 'webhooks',
    partitionKey: 'pk',
    sortKey: 'sk',
    ttlAttribute: 'ttl',
    globalIndexes: [gsi1, gsi2],
  },
  /** The environment's supplies catalog, one item per product, shared by its partners. */
  catalog: { suffix: 'catalog', partitionKey: 'pk', sortKey: 'sk', globalIndexes: [] },
  /** One cart per profile, one item per line; kept 90 days after the last change. */
  carts: { suffix: 'carts', partitionKey: 'pk', sortKey: 'sk', ttlAttribute: 'ttl', globalIndexes: [] },
  /**
   * Orders (listed per organization through gsi1) and their outbox: every change of an
   * order writes its event item in the same transaction, and the table's stream carries
   * those items to the order-events queue.
   */
  orders: {
    suffix: 'orders',
    partitionKey: 'pk',
    sortKey: 'sk',
    ttlAttribute: 'ttl',
    globalIndexes: [gsi1],
    stream: 'NEW_IMAGE',
  },
};

export type QueueName = 'orderEvents' | 'webhookDeliveries' | 'webhookSlowDeliveries' | 'invoicing';

export interface QueueDefinition {
  readonly suffix: string;
  /** Seconds a received message stays invisible; must exceed the consumer's timeout. */
  readonly visibilityTimeoutSeconds: number;
  /** Receives after which a message moves to the dead-letter queue. */
  readonly maxReceiveCount: number;
  /** Messages per invocation of the queue's consumer (Lambda event source and local poller alike). */
  readonly consumerBatchSize: number;
  /**
   * Batches handled at once (the Lambda event source's maximum concurrency, and the local
   * poller's concurrent batches); absent: Lambda's default scaling, a few batches at a time locally.
   */
  readonly consumerConcurrency?: number;
}

export const QUEUES: Readonly<Record<QueueName, QueueDefinition>> = {
  orderEvents: { suffix: 'order-events', visibilityTimeoutSeconds: 60, maxReceiveCount: 5, consumerBatchSize: 10 },
  // The fast path: each POST has the fast path's 2 s budget, then moves to the slow path unanswered.
  // Ten (SQS's most without a batching window): a batch makes one read before its POSTs, so
  // the larger the batch, the fewer reads per delivery.
  // Twenty batches at once: an invocation waits for its slowest POST, at most the budget, so
  // endpoints that start hanging hold a batch for about 2 s, not 30 (docs/webhooks.md, "Fast and slow paths").
  // The visibility stays above the function's timeout, which a crash or a stall may still reach.
  webhookDeliveries: {
    suffix: 'webhook-deliveries',
    visibilityTimeoutSeconds: 180,
    maxReceiveCount: 5,
    consumerBatchSize: 10,
    consumerConcurrency: 20,
  },
  // The slow path: attempts that did not answer within the budget, and every attempt to an endpoint
  // known to be slow, each with the full 30 s. Its own ten batches: slow and hanging receivers wait
  // on each other here, never on the fast path; its oldest message's age alarms past 5 minutes.
  webhookSlowDeliveries: {
    suffix: 'webhook-slow-deliveries',
    visibilityTimeoutSeconds: 180,
    maxReceiveCount: 5,
    consumerBatchSize: 10,
    consumerConcurrency: 10,
  },
  // Shipments and refunds to invoice: a message may wait on Stripe (four calls of up to ~10 s each), so a long
  // visibility; eight receives spread over a Stripe outage of about a quarter hour before the dead-letter queue.
  invoicing: { suffix: 'invoicing', visibilityTimeoutSeconds: 120, maxReceiveCount: 8, consumerBatchSize: 5 },
};

/** Key prefix of the outbox items in the orders table; the stream consumer reads only these. */
export const OUTBOX_KEY_PREFIX = 'OUTBOX#';

/** Records per invocation of the orders stream's consumer (Lambda event source and local poller alike). */
export const ORDER_OUTBOX_BATCH_SIZE = 25;

export const tableName = (prefix: string, table: TableName): string => `${prefix}-${TABLES[table].suffix}`;
export const queueName = (prefix: string, queue: QueueName): string => `${prefix}-${QUEUES[queue].suffix}`;
export const deadLetterQueueName = (prefix: string, queue: QueueName): string =>
  `${prefix}-${QUEUES[queue].suffix}-dlq`;

/**
 * The stage's private bucket of product pictures (the CDK stack's, and fauxqs's locally).
 * Named from the prefix, so the operator CLI finds it without asking CloudFormation.
 */
export const productImagesBucketName = (prefix: string): string => `${prefix}-product-images`;

/**
 * Lambda handlers, by name; each entry (`functions/lambdas/<kebab-case name>.ts`) exports
 * `handler`. The HTTP ones serve the routes of functions/routes.ts.
 */
export type HttpFunctionName = 'setup' | 'handshake' | 'embed' | 'ordersApi' | 'webhookTest' | 'webhooksApi';
export type FunctionName =
  | HttpFunctionName
  | 'orderOutboxRelay'
  | 'orderFanout'
  | 'webhookDispatch'
  | 'webhookSlowDispatch'
  | 'approvalExpiry'
  | 'invoicing'
  | 'invoiceSweep';

export const FUNCTION_ENTRIES: Readonly<Record<FunctionName, string>> = {
  setup: 'functions/lambdas/setup.ts',
  handshake: 'functions/lambdas/handshake.ts',
  embed: 'functions/lambdas/embed.ts',
  ordersApi: 'functions/lambdas/orders-api.ts',
  webhookTest: 'functions/lambdas/webhook-test.ts',
  webhooksApi: 'functions/lambdas/webhooks-api.ts',
  orderOutboxRelay: 'functions/lambdas/order-outbox-relay.ts',
  orderFanout: 'functions/lambdas/order-fanout.ts',
  webhookDispatch: 'functions/lambdas/webhook-dispatch.ts',
  webhookSlowDispatch: 'functions/lambdas/webhook-slow-dispatch.ts',
  approvalExpiry: 'functions/lambdas/approval-expiry.ts',
  invoicing: 'functions/lambdas/invoicing.ts',
  invoiceSweep: 'functions/lambdas/invoice-sweep.ts',
};

/**
 * Each function's Lambda timeout, used by the stack and enforced by the local API
 * Gateway adapter alike. API Gateway gives an integration at most 30 s; setup may wait on
 * Stripe, handshake and embed only on DynamoDB; a dispatch attempt may wait 30 s on a
 * partner (the deliveries queue's 180 s visibility leaves room beyond 120 s).
 */
export const FUNCTION_TIMEOUT_SECONDS: Readonly<Record<FunctionName, number>> = {
  setup: 20,
  handshake: 10,
  embed: 10,
  ordersApi: 10,
  webhookTest: 10,
  webhooksApi: 10,
  orderOutboxRelay: 30,
  orderFanout: 30,
  webhookDispatch: 120,
  webhookSlowDispatch: 120,
  // One sweep expires at most 1000 requests, each a read and a transaction: far under a minute.
  approvalExpiry: 60,
  // Up to five messages, each at most four Stripe calls of ~10 s when Stripe stalls (stripe-client.ts).
  invoicing: 100,
  // At most SWEEP_BATCH (50) orders, each up to four Stripe calls: usually none or a few; the rest wait for the next run.
  invoiceSweep: 240,
};

/**
 * How often the approval expiry sweep runs (an EventBridge schedule in AWS, a timer in
 * `npm start`). Reads already show a request past its expiry as expired; the sweep records
 * it and sends its approval.decided, at most this long after the 7 days.
 */
export const APPROVAL_EXPIRY_SWEEP_MINUTES = 15;

/**
 * How often the invoice sweep runs in AWS (an EventBridge schedule); `npm start` runs it
 * at start-up and every LOCAL_INVOICE_SWEEP_MINUTES (`LOCAL_INVOICE_SWEEP_S` overrides it).
 * A shipped order whose invoicing message was lost is invoiced at most this long after its
 * first minute (the grace, `INVOICE_SWEEP_GRACE_S`).
 */
export const INVOICE_SWEEP_MINUTES = 5;
export const LOCAL_INVOICE_SWEEP_MINUTES = 1;

/** Secrets Manager names, per stage prefix. */
export const webhookSecretName = (prefix: string, partnerId: string): string =>
  `${prefix}/webhook-secrets/${partnerId}`;
export const stripeSecretName = (prefix: string): string => `${prefix}/stripe-secret-key`;

/**
 * The CloudWatch namespace of the service's own metrics (domain/metrics.ts). Both stacks
 * publish to it; the `service` dimension (the stack's resource prefix) keeps them apart.
 */
export const METRICS_NAMESPACE = 'PartnerEmbed';
