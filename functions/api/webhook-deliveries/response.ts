/**
 * A delivery and the webhook endpoint as the partner API answers them (docs/webhooks.md,
 * "Inspecting and retrying deliveries"): snake_case, the fields of each state only when
 * the delivery is in it, never a signing secret or signature. The schemas are strict so
 * the document and the contract tests hold real responses to them; the builders return
 * their types, so the handler cannot answer a field the document lacks.
 */
// zod/mini: the webhooks API Lambda builds these schemas at cold start.
import { FAIRNESS_POLICY, inFlightCap, slowAfterMs } from '../../webhooks/endpoint-circuit';
import * as z from 'zod/mini';
import { DeliveryStatus, type DeliveryAttempt, type DeliveryWithAttempts } from '../../webhooks/delivery';
import type { DeliveryPage } from '../../webhooks/delivery-repository';
import { WebhookEventKind } from '../../domain/events/order-event-kinds';
import { circuitOf } from '../../webhooks/partner-webhooks';
import type { WebhookEndpoint } from '../../webhooks/webhook-endpoint';

/** One POST to your endpoint: when, and what came of it (your status code, or why there was none). */
export const DeliveryAttemptBody = z.strictObject({
  attempted_at: z.iso.datetime(),
  /** 1 for the first sending of the delivery, +1 for each retry (yours or the operator's replay). */
  round: z.int().check(z.gte(1)),
  /** The attempt's number within its round: 1, then the retries of the schedule. */
  attempt: z.int().check(z.gte(1)),
  succeeded: z.boolean(),
  status_code: z.optional(z.int()),
  error: z.optional(z.string()),
  latency_ms: z.int().check(z.gte(0)),
});
export type DeliveryAttemptBody = z.infer<typeof DeliveryAttemptBody>;

const deliveryFields = {
  id: z.uuid(),
  event: WebhookEventKind,
  /** The order the event is about; absent on events that name none. */
  order_id: z.optional(z.string()),
  status: DeliveryStatus,
  /** Rounds so far: 1, +1 for each retry. */
  round: z.int().check(z.gte(1)),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  /** Pending only: when the next attempt is due (absent while held). */
  next_attempt_at: z.optional(z.iso.datetime()),
  /** Pending only: held since this time because your endpoint is paused or disabled. */
  held_since: z.optional(z.iso.datetime()),
  last_attempt: z.optional(DeliveryAttemptBody),
};

export const DeliverySummaryBody = z.strictObject(deliveryFields);
export type DeliverySummaryBody = z.infer<typeof DeliverySummaryBody>;

export const DeliveryBody = z.strictObject({
  ...deliveryFields,
  /** Every attempt, oldest first (of earlier rounds, the newest 14 are kept). */
  attempts: z.array(DeliveryAttemptBody),
  /** The exact bytes sent as the request body on every attempt. */
  body: z.string(),
});
export type DeliveryBody = z.infer<typeof DeliveryBody>;

/** `GET /v1/webhooks/deliveries`: one page, newest first; `has_more` asks for the next with `starting_after` = the last `id`. */
export const DeliveryListBody = z.strictObject({ data: z.array(DeliverySummaryBody), has_more: z.boolean() });
export type DeliveryListBody = z.infer<typeof DeliveryListBody>;

const toAttempt = (attempt: DeliveryAttempt): DeliveryAttemptBody => ({
  attempted_at: attempt.attemptedAt,
  round: attempt.chain,
  attempt: attempt.attempt,
  succeeded: attempt.succeeded,
  ...(attempt.statusCode === undefined ? {} : { status_code: attempt.statusCode }),
  ...(attempt.error === undefined ? {} : { error: attempt.error }),
  latency_ms: Math.max(0, Math.round(attempt.latencyMs)),
});

/** Deliveries stored before `orderId` was kept still name their order in the body they sent. */
const orderIdOf = (delivery: DeliveryWithAttempts): string | undefined => {
  if (delivery.orderId !== undefined) return delivery.orderId;
  try {
    const orderId = (JSON.parse(delivery.body) as { data?: { order_id?: unknown } }).data?.order_id;
    return typeof orderId === 'string' ? orderId : undefined;
  } catch {
    return undefined;
  }
};

const toDeliverySummary = (delivery: DeliveryWithAttempts): DeliverySummaryBody => {
  const last = delivery.attempts.at(-1);
  const pending = delivery.status === 'pending';
  const orderId = orderIdOf(delivery);
  return {
    id: delivery.deliveryId,
    event: delivery.event,
    ...(orderId === undefined ? {} : { order_id: orderId }),
    status: delivery.status,
    round: delivery.chain,
    created_at: delivery.createdAt,
    updated_at: delivery.updatedAt,
    ...(pending && delivery.heldAt === undefined && delivery.nextAttemptAt !== undefined
      ? { next_attempt_at: delivery.nextAttemptAt }
      : {}),
    ...(pending && delivery.heldAt !== undefined ? { held_since: delivery.heldAt } : {}),
    ...(last === undefined ? {} : { last_attempt: toAttempt(last) }),
  };
};

export const toDeliveryResponse = (delivery: DeliveryWithAttempts): DeliveryBody => ({
  ...toDeliverySummary(delivery),
  attempts: delivery.attempts.map(toAttempt),
  body: delivery.body,
});

export const toDeliveryListResponse = (page: DeliveryPage): DeliveryListBody => ({
  data: page.deliveries.map(toDeliverySummary),
  has_more: page.hasMore,
});

/**
 * `active` sends; `paused` (by the operator) and `disabled` (after 410 Gone or 5 days of
 * failures) hold deliveries; `circuit_open`: the endpoint is active but the dispatcher's
 * circuit breaker has stopped sending for now, after consecutive failures.
 */
const ENDPOINT_API_STATUSES = ['active', 'paused', 'disabled', 'circuit_open'] as const;

export const WebhookEndpointBody = z.strictObject({
  url: z.string(),
  events: z.array(WebhookEventKind),
  status: z.enum(ENDPOINT_API_STATUSES),
  /** Why it is paused, disabled or its circuit open, in words. */
  status_reason: z.optional(z.string()),
  /** When it entered `status`. */
  status_since: z.iso.datetime(),
  /** The circuit breaker, when the endpoint record carries one: its state and since when. */
  circuit: z.optional(
    z.strictObject({ state: z.enum(['open', 'half_open', 'closed']), since: z.optional(z.iso.datetime()) }),
  ),
  /** The first failed attempt since the last success: how long every delivery has failed. */
  failing_since: z.optional(z.iso.datetime()),
  /**
   * How fast deliveries go to it now: attempts in flight at once (adaptive: rises while it
   * answers 2xx quickly, falls to 1 on failures), the most it can reach, and the operator's
   * ceiling in attempts per second when one is set. Quickly means against its own latency:
   * `latency_baseline_ms` is the smoothed duration of its recent 2xx answers (absent before
   * the first), and a 2xx that takes longer than `slow_after_ms` halves the concurrency.
   */
  throughput: z.strictObject({
    concurrency: z.int().check(z.gte(1)),
    max_concurrency: z.int().check(z.gte(1)),
    latency_baseline_ms: z.optional(z.int().check(z.gte(0))),
    slow_after_ms: z.int().check(z.gte(1)),
    max_rate_per_second: z.optional(z.int().check(z.gte(1))),
  }),
  /** When the current signing secret was set (never the secret itself). */
  secret_rotated_at: z.iso.datetime(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
export type WebhookEndpointBody = z.infer<typeof WebhookEndpointBody>;

export const toWebhookEndpointResponse = (endpoint: WebhookEndpoint): WebhookEndpointBody => {
  const circuit = circuitOf(endpoint);
  const latencyBaselineMs = endpoint.circuit?.latencyBaselineMs;
  const circuitOpen = endpoint.status === 'enabled' && circuit?.state === 'open';
  return {
    url: endpoint.url,
    events: [...endpoint.events],
    status: circuitOpen ? 'circuit_open' : endpoint.status === 'enabled' ? 'active' : endpoint.status,
    ...(!circuitOpen && endpoint.statusReason !== undefined && endpoint.status !== 'enabled'
      ? { status_reason: endpoint.statusReason }
      : {}),
    status_since: circuitOpen && circuit.since !== undefined ? circuit.since : endpoint.statusSince,
    ...(circuit === undefined
      ? {}
      : { circuit: { state: circuit.state, ...(circuit.since === undefined ? {} : { since: circuit.since }) } }),
    ...(endpoint.failingSince === undefined ? {} : { failing_since: endpoint.failingSince }),
    throughput: {
      concurrency: inFlightCap(endpoint.circuit, FAIRNESS_POLICY),
      max_concurrency: FAIRNESS_POLICY.maxInFlight,
      ...(latencyBaselineMs === undefined ? {} : { latency_baseline_ms: Math.round(latencyBaselineMs) }),
      slow_after_ms: slowAfterMs(latencyBaselineMs, FAIRNESS_POLICY),
      ...(endpoint.maxRate === undefined ? {} : { max_rate_per_second: endpoint.maxRate }),
    },
    secret_rotated_at: endpoint.secretRotatedAt,
    created_at: endpoint.createdAt,
    updated_at: endpoint.updatedAt,
  };
};
