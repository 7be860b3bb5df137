import { METRIC } from '../../domain/metrics';
import type { Delivery } from '../delivery';
import type { WebhookDispatcherDependencies } from './dispatch-dependencies';

/** How long a claimed failure alert stays claimed before another handler may send it. */
const ALERT_LEASE_SECONDS = 120;

/**
 * Sends a failed delivery's alert unless it went out already. The claim is a conditional
 * write with a lease: a handler that crashes after claiming leaves it to the next redelivery.
 */
export async function ensureFailureAlert(
  dependencies: Pick<
    WebhookDispatcherDependencies,
    'deliveries' | 'partners' | 'mailer' | 'clock' | 'logger' | 'metrics'
  >,
  delivery: Delivery,
): Promise<void> {
  const { deliveries, clock, logger } = dependencies;
  if (delivery.alertStatus !== 'pending' && delivery.alertStatus !== 'sending') return;
  const now = clock.now();
  const leaseUntil = new Date(now.getTime() + ALERT_LEASE_SECONDS * 1000);
  if (!(await deliveries.claimAlert(delivery.deliveryId, now, leaseUntil))) {
    const current = await deliveries.get(delivery.deliveryId);
    // Someone else holds the claim: fail this message so SQS brings it back after the lease.
    if (current?.alertStatus === 'sending')
      throw new Error(`failure alert of ${delivery.deliveryId} is being sent by another handler`);
    return;
  }

  const partner = await dependencies.partners.getPartner(delivery.partnerId);
  const log = { deliveryId: delivery.deliveryId, partnerId: delivery.partnerId, event: delivery.event };
  if (!partner?.alertEmail) {
    logger.error({ msg: 'webhook delivery failed and the partner has no alert address', ...log });
    await deliveries.settleAlert(delivery.deliveryId, 'no-address', now);
    return;
  }
  const attempts = await deliveries.listAttempts(delivery.deliveryId);
  const last = attempts.filter((a) => a.chain === delivery.chain).at(-1);
  const lastError = last ? (last.error ?? `HTTP ${last.statusCode}`) : 'unknown';
  try {
    await dependencies.mailer.send({
      to: partner.alertEmail,
      subject: `Webhook delivery failed: ${delivery.event} (${delivery.deliveryId})`,
      text: [
        `We could not deliver a webhook to your endpoint after ${delivery.attemptCount} attempts and have stopped retrying.`,
        '',
        `Event:        ${delivery.event}`,
        `Delivery ID:  ${delivery.deliveryId}`,
        `Endpoint:     ${last?.url || '(none configured)'}`,
        `Last attempt: ${last?.attemptedAt ?? 'unknown'}`,
        `Last error:   ${lastError}`,
        '',
        'Please check that your endpoint is reachable and answers with a 2xx status within 30 seconds.',
        'Once it is fixed, contact us to replay the delivery; it keeps the same X-Service-Delivery-ID.',
      ].join('\n'),
    });
  } catch (error) {
    await deliveries.settleAlert(delivery.deliveryId, 'pending', now);
    throw error;
  }
  await deliveries.settleAlert(delivery.deliveryId, 'sent', clock.now());
  logger.info({ msg: 'webhook failure alert sent', ...log });
  dependencies.metrics?.count(METRIC.alertsSent, { kind: 'delivery-failed' });
}
