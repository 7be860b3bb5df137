import { METRIC } from '../../domain/metrics';
import type { PartnerId } from '../../domain/partners/partner';
import type { DeliveryAttempt } from '../delivery';
import type { WebhookEndpoint } from '../webhook-endpoint';
import type { BatchReads } from './batch-reads';
import type { WebhookDispatcherDependencies } from './dispatch-dependencies';

type EndpointHealthDependencies = Pick<
  WebhookDispatcherDependencies,
  'endpoints' | 'partners' | 'mailer' | 'disableAfterSeconds' | 'logger' | 'metrics'
>;

/** The receiver says the endpoint is gone for good. */
const GONE = 410;

/**
 * The endpoint's health after a recorded attempt: a success ends a failing streak; a 410
 * Gone disables the endpoint at once; a failure starts a streak, or disables the
 * endpoint when the streak has lasted `disableAfterSeconds`. A streak's start or end is
 * read again by the next delivery, so the cached endpoint does not repeat the write.
 */
export async function updateEndpointHealth(
  dependencies: EndpointHealthDependencies,
  partnerId: PartnerId,
  attempt: DeliveryAttempt,
  at: Date,
  reads: BatchReads,
): Promise<void> {
  const { endpoints } = dependencies;
  const endpoint = await reads.endpoint(partnerId);
  if (!endpoint) return;
  if (attempt.succeeded) {
    if (endpoint.failingSince) {
      await endpoints.markHealthy(partnerId);
      reads.forget(partnerId);
    }
    return;
  }
  if (endpoint.status !== 'enabled') return;
  if (attempt.statusCode === GONE) return disable(dependencies, endpoint, 'the endpoint answered 410 Gone', at, reads);
  if (!endpoint.failingSince) {
    await endpoints.markFailing(partnerId, new Date(attempt.attemptedAt));
    return reads.forget(partnerId);
  }
  if (at.getTime() - new Date(endpoint.failingSince).getTime() >= dependencies.disableAfterSeconds * 1000) {
    const reason = `every delivery attempt has failed since ${endpoint.failingSince}`;
    return disable(dependencies, endpoint, reason, at, reads);
  }
}

/**
 * Disables the endpoint and tells the partner, once: the status change is conditional on
 * the endpoint being enabled, so only the handler that made it sends the e-mail. An SES
 * failure is logged as an error (alarmed) and not retried: the endpoint's state, shown by
 * `webhook show`, is the lasting record.
 */
async function disable(
  { endpoints, partners, mailer, logger, metrics }: EndpointHealthDependencies,
  endpoint: WebhookEndpoint,
  reason: string,
  at: Date,
  reads: BatchReads,
): Promise<void> {
  const { partnerId } = endpoint;
  const since = at.toISOString();
  if (!(await endpoints.changeStatus(partnerId, { status: 'disabled', reason, since }, ['enabled']))) return;
  reads.forget(partnerId);
  const log = { partnerId, url: endpoint.url, reason };
  logger.error({ msg: 'webhook endpoint disabled', ...log });
  const partner = await partners.getPartner(partnerId);
  if (!partner?.alertEmail) {
    logger.error({ msg: 'webhook endpoint disabled and the partner has no alert address', ...log });
    return;
  }
  try {
    await mailer.send({
      to: partner.alertEmail,
      subject: `Webhook endpoint disabled: ${endpoint.url}`,
      text: [
        'We have stopped sending webhooks to your endpoint.',
        '',
        `Endpoint: ${endpoint.url}`,
        `Reason:   ${reason}`,
        `Since:    ${since}`,
        '',
        'New order events are still recorded and held for you (for 30 days). Once your endpoint is',
        'fixed, contact us to enable it again: everything held is then sent, oldest first, with its',
        'original X-Service-Delivery-ID.',
      ].join('\n'),
    });
    logger.info({ msg: 'webhook endpoint disabled notice sent', ...log });
    metrics?.count(METRIC.alertsSent, { kind: 'endpoint-disabled' });
  } catch (error) {
    logger.error({ msg: 'webhook endpoint disabled notice could not be sent', error: String(error), ...log });
  }
}
