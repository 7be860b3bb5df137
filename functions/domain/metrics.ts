/**
 * Metrics port: counts and timings, published as CloudWatch metrics (EMF lines in the
 * function's log, by the Powertools adapter) and kept in memory by the tests' fake.
 * Buffered per invocation; the handler flushes once at its end.
 */
export interface Metrics {
  /** Adds `value` (default 1) to the count `name` for these dimensions. */
  count(name: MetricName, dimensions?: MetricDimensions, value?: number): void;
  /** One observation of a duration, in milliseconds (percentiles come from these). */
  observe(name: MetricName, milliseconds: number, dimensions?: MetricDimensions): void;
  /** Publishes what was recorded since the last flush. */
  flush(): void;
}

export type MetricDimensions = Readonly<Record<string, string>>;

/**
 * Every metric the service publishes, and its dimensions. The dashboard and alarms
 * (lib/infrastructure/constructs/dashboard.ts, alarms.ts) read them by these names.
 */
export const METRIC = {
  /** API and embed requests; `route`, `statusClass` (2xx, 4xx, 5xx). */
  requests: 'Requests',
  /** Milliseconds from the request's arrival to its answer; `route`. */
  requestLatency: 'RequestLatency',
  /** Requests refused with 429 by the per-partner limit; `route`. */
  rateLimited: 'RateLimited',
  /** Session tokens issued. */
  handshakes: 'Handshakes',
  /** Session tokens redeemed by the embed host. */
  sessionsRedeemed: 'SessionsRedeemed',
  /** Orders placed (module, sandbox API). */
  ordersPlaced: 'OrdersPlaced',
  /**
   * Order changes; `status`: the change made (a partial refund is `refunded`, though the order
   * stays `delivered`, so `delivered` counts deliveries only).
   */
  ordersMoved: 'OrdersMoved',
  /** Webhook attempts; `outcome`: delivered, retry-scheduled, failed (the last retry failed). */
  webhookAttempts: 'WebhookAttempts',
  /**
   * Milliseconds from the order change's commit to the partner's 2xx (first chain only: a
   * replay is not lag); also with `partner` for a busy endpoint's first attempts (60 a minute and more).
   */
  deliveryLag: 'DeliveryLag',
  /** Retries put on the ladder after a failed attempt. */
  retriesScheduled: 'RetriesScheduled',
  /** E-mails to a partner's alert address; `kind`: delivery-failed, endpoint-disabled, approval-requested. */
  alertsSent: 'AlertsSent',
  /** Approval requests by `outcome`: submitted, approved, rejected, expired, withdrawn. */
  approvalRequests: 'ApprovalRequests',
  /** A webhook endpoint's circuit changed state; `state`: the new one, open, half-open (its probe went) or closed. */
  circuitStateChanges: 'CircuitStateChanges',
  /** Webhook attempts that moved to the slow path; `reason`: known-slow (before sending) or over-budget (unanswered in time). */
  slowPathMoves: 'SlowPathMoves',
  /** Webhook endpoints that changed path; `to`: slow (an attempt unanswered within the budget) or fast (an answer within it). */
  endpointPathChanges: 'EndpointPathChanges',
  /**
   * Milliseconds the oldest message of a dispatcher's batch waited since it was sent (delays
   * included), by `path` (fast / slow): what `ops metrics` shows of a path's oldest message locally.
   */
  webhookQueueAge: 'WebhookQueueAge',
  /** Invoices finalized and recorded (one per shipped order). */
  invoicesIssued: 'InvoicesIssued',
  /** Invoices Stripe reported paid. */
  invoicesPaid: 'InvoicesPaid',
  /** Credit notes issued on invoices (one per refund of an invoiced order). */
  invoicesCredited: 'InvoicesCredited',
  /** Invoices Stripe reported overdue (each counted when it falls overdue). */
  invoicesOverdue: 'InvoicesOverdue',
  /** Invoicing messages that failed (each is retried; the dead-letter queue holds those that failed for good); `event` (`order.shipped`, `order.refunded`, or `sweep` for the invoice sweep's). */
  invoicingFailures: 'InvoicingFailures',
  /**
   * Shipped orders the invoice sweep found without an invoice a minute after shipping (their
   * invoicing message was lost or is stuck): each is one the normal path missed, so it alarms.
   */
  uninvoicedShipmentsSwept: 'UninvoicedShipmentsSwept',
} as const;

export type MetricName = (typeof METRIC)[keyof typeof METRIC];

/** 2xx, 4xx, 5xx: the status class a route's traffic is counted under. */
export const statusClass = (status: number): string => `${Math.floor(status / 100)}xx`;

/** Records nothing: for code built without metrics (unit tests of one class). */
export const noMetrics: Metrics = { count: () => undefined, observe: () => undefined, flush: () => undefined };
