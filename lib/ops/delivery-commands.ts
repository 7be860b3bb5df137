/**
 * The delivery log, for operators:
 *
 *   deliveries list --partner ID [--status delivered|pending|failed] [--limit N]
 *   deliveries show --delivery ID          (includes the frozen body)
 *   deliveries replay --delivery ID        (a new attempt chain, same delivery id and body)
 */
import type { Dependencies } from '../../functions/container';
import { ValidationFailed } from '../../functions/domain/errors';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { DeliveryStatus, type DeliveryId } from '../../functions/domain/webhooks/delivery';
import type { DeliveryWithAttempts } from '../../functions/domain/webhooks/webhook-admin';

export interface DeliveriesListOptions {
  readonly partner: string;
  readonly status?: string;
  readonly limit?: number;
}

const summary = ({ body: _body, queued: _queued, alertLeaseUntil: _lease, ...delivery }: DeliveryWithAttempts) => ({
  ...delivery,
  attempts: delivery.attempts.map((attempt) => ({ ...attempt })),
});

export async function deliveriesList(deps: Dependencies, options: DeliveriesListOptions) {
  const status = options.status === undefined ? undefined : DeliveryStatus.safeParse(options.status);
  if (status && !status.success) {
    throw new ValidationFailed(
      [{ code: 'INVALID_VALUE', message: `status must be one of ${DeliveryStatus.options.join(', ')}`, path: ['status'] }],
    );
  }
  const deliveries = await deps.webhookAdmin.listDeliveries(options.partner as PartnerId, {
    status: status?.data,
    limit: options.limit,
  });
  return { partnerId: options.partner, deliveries: deliveries.map(summary) };
}

export async function deliveriesShow(deps: Dependencies, options: { readonly delivery: string }) {
  const { queued: _queued, alertLeaseUntil: _lease, ...delivery } = await deps.webhookAdmin.getDelivery(options.delivery as DeliveryId);
  return delivery;
}

export async function deliveriesReplay(deps: Dependencies, options: { readonly delivery: string }) {
  const delivery = await deps.webhookAdmin.replay(options.delivery as DeliveryId);
  return {
    deliveryId: delivery.deliveryId,
    status: delivery.status,
    chain: delivery.chain,
    nextAttemptAt: delivery.nextAttemptAt,
    note: 'Queued for an immediate attempt with the same X-Service-Delivery-ID and body; retries follow the usual ladder.',
  };
}
