/**
 * `order-event --partner ID --event KIND --data JSON_OR_@FILE [--event-id ID]`: publishes
 * an order event through the same ingestion path the procurement side uses, so the
 * partner's webhook fires (sandbox testing, support).
 */
import { readFile } from 'node:fs/promises';
import type { Dependencies } from '../../functions/container';
import { ValidationFailed } from '../../functions/domain/errors';
import type { PartnerId } from '../../functions/domain/partners/partner';

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
  };
}
