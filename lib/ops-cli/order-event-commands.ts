/**
 * `order-event --partner ID --event KIND --data JSON_OR_@FILE [--event-id ID]`: a raw
 * test tool. It publishes a made-up order event straight to the order-events queue, so
 * the partner's webhook fires for an order that does not exist; it bypasses orders
 * entirely (no order is created or changed). Real order webhooks come from orders
 * (`order confirm|ship|…`, the sandbox API, the module). Registered as `orderEventCommands`.
 */
import { readFile } from 'node:fs/promises';
import type { Dependencies } from '../../functions/container';
import { ValidationFailed } from '../../functions/domain/errors';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { ORDER_EVENT_KINDS } from '../../functions/domain/events/order-events';
import { fieldLines } from './human-format';
import { type CommandTable, defineCommand } from './ops-command';
import { EventIdOption, JsonDataOption, OrderEventKindOption, partnerOption } from './option-schemas';

export interface OrderEventOptions {
  readonly partner: string;
  readonly event: string;
  /** The event's data as JSON, or `@path/to/file.json`. */
  readonly data: string;
  readonly eventId?: string;
}

export async function orderEventPublish(deps: Dependencies, options: OrderEventOptions) {
  const text = options.data.startsWith('@') ? await readFile(options.data.slice(1), 'utf8') : options.data;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ValidationFailed(
      [{ code: 'MALFORMED_JSON', message: `data is not valid JSON: ${(error as Error).message}`, path: ['data'] }],
      'The --data value is not valid JSON',
    );
  }
  // Asked before publishing, so this copy's own fan-out can never be mistaken for an earlier one.
  const earlier =
    options.eventId === undefined
      ? undefined
      : await deps.webhookAdmin.deliveryOfEvent(options.partner as PartnerId, options.eventId);
  const published = await deps.orderEvents.publish({
    partnerId: options.partner as PartnerId,
    event: options.event,
    data,
    eventId: options.eventId,
  });
  return {
    eventId: published.eventId,
    event: published.event,
    partnerId: published.partnerId,
    organizationId: published.organizationId,
    timestamp: published.timestamp,
    data: published.data,
    // Only for an event id published before: the fan-out drops this copy.
    ...(earlier ? { alreadyPublished: true as const, deliveryId: earlier.deliveryId } : {}),
  };
}

export const orderEventCommands: CommandTable = {
  'order-event': defineCommand({
    summary:
      "Raw test tool: publish a made-up order event (no order is created or changed), so the partner's webhook fires",
    options: {
      partner: partnerOption,
      event: {
        schema: OrderEventKindOption,
        placeholder: 'KIND',
        description: `The event kind: ${ORDER_EVENT_KINDS.join(', ')}`,
      },
      data: {
        schema: JsonDataOption,
        placeholder: 'JSON|@FILE',
        description: "The event's data (docs/webhooks.md), as JSON or @path/to/file.json",
      },
      'event-id': {
        schema: EventIdOption.optional(),
        placeholder: 'ID',
        description: "The producer's event id (default: a new UUID); publishing an id again delivers nothing new",
      },
    },
    async run(deps, options) {
      const result = await orderEventPublish(deps, {
        partner: options.partner,
        event: options.event,
        data: options.data,
        eventId: options['event-id'],
      });
      return {
        json: result,
        text: [
          ...fieldLines([
            ['eventId', result.eventId],
            ['event', result.event],
            ['partnerId', result.partnerId],
            ['organizationId', result.organizationId],
            ['timestamp', result.timestamp],
          ]),
          result.alreadyPublished
            ? `Already published: event ${result.eventId} has delivery ${result.deliveryId}; this copy delivers nothing new: npm run ops -- deliveries show --delivery ${result.deliveryId}`
            : `Published: a delivery follows if the partner's webhook takes ${result.event}: npm run ops -- deliveries list --partner ${result.partnerId}`,
        ],
      };
    },
  }),
};
