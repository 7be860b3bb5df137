/**
 * The delivery log, for operators:
 *
 *   deliveries list --partner ID [--status delivered|pending|failed] [--limit N]
 *   deliveries show --delivery ID          (includes the frozen body)
 *   deliveries replay --delivery ID        (a new attempt chain, same delivery id and body)
 *   deliveries replay --partner ID --since TIME [--status failed]   (each one created since TIME, oldest first)
 *
 * Registered in the CLI as `deliveryCommands` (bottom).
 */
import type { Dependencies } from '../../functions/container';
import { ValidationFailed } from '../../functions/domain/errors';
import type { PartnerId } from '../../functions/domain/partners/partner';
import {
  DELIVERY_STATUSES,
  type DeliveryAttempt,
  DeliveryStatus,
  type DeliveryId,
} from '../../functions/webhooks/delivery';
import type { DeliveryWithAttempts } from '../../functions/webhooks/webhook-admin';
import { documentLines, fieldLines, NONE, tableLines } from './human-format';
import { type CommandTable, defineCommand, UsageError } from './ops-command';
import {
  DeliveryIdOption,
  DeliveryStatusOption,
  limitOption,
  PartnerIdOption,
  partnerOption,
  TimeOption,
} from './option-schemas';

const MAX_LIMIT = 500;
const DEFAULT_LIMIT = 50;

export interface DeliveriesListOptions {
  readonly partner: string;
  readonly status?: string;
  readonly limit?: number;
}

/** Drops absent fields, so a record reads in the order its view lists them whatever the store returned. */
const present = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;

const attemptView = (attempt: DeliveryAttempt): DeliveryAttempt =>
  present({
    chain: attempt.chain,
    attempt: attempt.attempt,
    attemptedAt: attempt.attemptedAt,
    url: attempt.url,
    succeeded: attempt.succeeded,
    statusCode: attempt.statusCode,
    error: attempt.error,
    latencyMs: attempt.latencyMs,
    responseBody: attempt.responseBody,
  });

/** A delivery for operators: no body (see `deliveries show`), no internal bookkeeping (`queued`, the alert lease). */
const summary = (delivery: DeliveryWithAttempts) =>
  present({
    deliveryId: delivery.deliveryId,
    partnerId: delivery.partnerId,
    eventId: delivery.eventId,
    event: delivery.event,
    orderId: delivery.orderId,
    status: delivery.status,
    chain: delivery.chain,
    attemptCount: delivery.attemptCount,
    nextAttemptAt: delivery.nextAttemptAt,
    alertStatus: delivery.alertStatus,
    createdAt: delivery.createdAt,
    updatedAt: delivery.updatedAt,
    attempts: delivery.attempts.map(attemptView),
  });

export async function deliveriesList(deps: Dependencies, options: DeliveriesListOptions) {
  const status = options.status === undefined ? undefined : DeliveryStatus.safeParse(options.status);
  if (status && !status.success) {
    throw new ValidationFailed([
      {
        code: 'INVALID_VALUE',
        message: `status must be one of ${DeliveryStatus.options.join(', ')}`,
        path: ['status'],
      },
    ]);
  }
  const deliveries = await deps.webhookAdmin.listDeliveries(options.partner as PartnerId, {
    status: status?.data,
    limit: options.limit,
  });
  return { partnerId: options.partner, deliveries: deliveries.map(summary) };
}

export async function deliveriesShow(deps: Dependencies, options: { readonly delivery: string }) {
  const delivery = await deps.webhookAdmin.getDelivery(options.delivery as DeliveryId);
  return { ...summary(delivery), body: delivery.body };
}

export interface DeliveriesReplayOptions {
  readonly delivery?: string;
  readonly partner?: string;
  readonly since?: Date;
  readonly status?: DeliveryStatus;
}

/** One delivery (`--delivery`), or every delivery of a partner created since a time (`--partner --since [--status]`). */
export async function deliveriesReplay(deps: Dependencies, options: DeliveriesReplayOptions) {
  const single = options.delivery !== undefined;
  const bulk = options.partner !== undefined || options.since !== undefined || options.status !== undefined;
  if (single === bulk || (bulk && (!options.partner || !options.since))) {
    throw new UsageError('give either --delivery ID, or --partner ID --since TIME [--status STATUS]');
  }
  if (!single) {
    const { deliveryIds } = await deps.webhookAdmin.replaySince(
      options.partner as PartnerId,
      options.since as Date,
      options.status,
    );
    return {
      partnerId: options.partner,
      since: (options.since as Date).toISOString(),
      ...(options.status ? { status: options.status } : {}),
      replayed: deliveryIds.length,
      deliveryIds: [...deliveryIds],
      note: 'Each queued for an immediate attempt, oldest first, with its own X-Service-Delivery-ID and body; retries follow the usual ladder.',
    };
  }
  const delivery = await deps.webhookAdmin.replay(options.delivery as DeliveryId);
  return {
    deliveryId: delivery.deliveryId,
    status: delivery.status,
    chain: delivery.chain,
    nextAttemptAt: delivery.nextAttemptAt,
    note: 'Queued for an immediate attempt with the same X-Service-Delivery-ID and body; retries follow the usual ladder.',
  };
}

/** What an attempt produced: the partner's HTTP status, or why there was none (timeout, refused, ...). */
const attemptResult = (attempt: DeliveryAttempt | undefined) =>
  !attempt ? NONE : attempt.statusCode !== undefined ? String(attempt.statusCode) : (attempt.error ?? 'failed');

const deliveryOption = {
  schema: DeliveryIdOption,
  placeholder: 'ID',
  description: 'Delivery id (UUID), as deliveries list shows it',
} as const;

export const deliveryCommands: CommandTable = {
  'deliveries list': defineCommand({
    summary: "List a partner's webhook deliveries, newest first, with their attempts",
    options: {
      partner: partnerOption,
      status: {
        schema: DeliveryStatusOption.optional(),
        placeholder: 'STATUS',
        description: `Only deliveries in this state: ${DELIVERY_STATUSES.join(' | ')}`,
      },
      limit: {
        schema: limitOption(MAX_LIMIT).optional(),
        placeholder: 'N',
        description: `How many, 1-${MAX_LIMIT} (default ${DEFAULT_LIMIT})`,
      },
    },
    async run(deps, options) {
      const result = await deliveriesList(deps, options);
      return {
        json: result,
        text:
          result.deliveries.length === 0
            ? [
                `No deliveries for partner ${result.partnerId}${options.status ? ` with status ${options.status}` : ''}.`,
              ]
            : tableLines(
                [
                  'DELIVERY ID',
                  'EVENT',
                  'ORDER',
                  'STATUS',
                  'CHAIN',
                  'ATTEMPTS',
                  'LAST RESULT',
                  'NEXT ATTEMPT',
                  'ALERT',
                  'CREATED',
                ],
                result.deliveries.map((d) => [
                  d.deliveryId,
                  d.event,
                  d.orderId ?? NONE,
                  d.status,
                  String(d.chain),
                  String(d.attemptCount),
                  attemptResult(d.attempts.at(-1)),
                  d.status === 'pending' ? (d.nextAttemptAt ?? NONE) : NONE,
                  d.alertStatus ?? NONE,
                  d.createdAt,
                ]),
              ),
      };
    },
  }),

  'deliveries show': defineCommand({
    summary: 'Show one delivery: its state, every attempt and the exact body sent',
    options: { delivery: deliveryOption },
    async run(deps, options) {
      const delivery = await deliveriesShow(deps, options);
      return {
        json: delivery,
        text: [
          ...fieldLines([
            ['deliveryId', delivery.deliveryId],
            ['partnerId', delivery.partnerId],
            ['eventId', delivery.eventId],
            ['event', delivery.event],
            ['orderId', delivery.orderId ?? NONE],
            ['status', delivery.status],
            ['chain', String(delivery.chain)],
            ['attemptCount', String(delivery.attemptCount)],
            ['nextAttemptAt', delivery.status === 'pending' ? (delivery.nextAttemptAt ?? NONE) : NONE],
            ['alertStatus', delivery.alertStatus ?? NONE],
            ['createdAt', delivery.createdAt],
            ['updatedAt', delivery.updatedAt],
          ]),
          '',
          ...(delivery.attempts.length === 0
            ? ['No attempts yet.']
            : tableLines(
                ['CHAIN', 'ATTEMPT', 'AT', 'RESULT', 'LATENCY', 'URL'],
                delivery.attempts.map((a) => [
                  String(a.chain),
                  String(a.attempt),
                  a.attemptedAt,
                  attemptResult(a),
                  `${a.latencyMs} ms`,
                  a.url,
                ]),
              )),
          '',
          // Every field of every attempt (the table abbreviates), as --json has them.
          'Details:',
          ...documentLines({ attempts: delivery.attempts }, '  '),
          '',
          'Body:',
          delivery.body,
        ],
      };
    },
  }),

  'deliveries replay': defineCommand({
    summary:
      "Send a delivery again now (same id and body, a new chain of attempts); or all of a partner's since a time",
    options: {
      delivery: { ...deliveryOption, schema: DeliveryIdOption.optional() },
      partner: {
        schema: PartnerIdOption.optional(),
        placeholder: 'ID',
        description: 'Partner id (UUID): replay its deliveries created since --since',
      },
      since: {
        schema: TimeOption.optional(),
        placeholder: 'TIME',
        description: 'With --partner: created at or after this ISO 8601 time',
      },
      status: {
        schema: DeliveryStatusOption.optional(),
        placeholder: 'STATUS',
        description: `With --partner: only deliveries in this state: ${DELIVERY_STATUSES.join(' | ')}`,
      },
    },
    async run(deps, options) {
      const result = await deliveriesReplay(deps, options);
      if ('replayed' in result) {
        return {
          json: result,
          text: [
            `Replayed ${result.replayed} deliveries of partner ${result.partnerId} created since ${result.since}${result.status ? ` with status ${result.status}` : ''}.`,
            ...result.deliveryIds,
            result.note,
          ],
        };
      }
      return {
        json: result,
        text: [
          ...fieldLines([
            ['deliveryId', result.deliveryId],
            ['status', result.status],
            ['chain', String(result.chain)],
            ['nextAttemptAt', result.nextAttemptAt ?? NONE],
          ]),
          result.note,
        ],
      };
    },
  }),
};
