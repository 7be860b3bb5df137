import { epochSeconds } from '../../domain/clock';
import type { Delivery } from '../delivery';
import { liveSecrets } from '../signing-secret-store';
import { signWebhookBody, standardSignatureHeader } from '../webhook-signature';
import type { TransportResult } from '../webhook-transport';
import type { BatchReads } from './batch-reads';
import type { WebhookDispatcherDependencies } from './dispatch-dependencies';

export const USER_AGENT = 'PartnerEmbed-Webhooks/1.0';

/** What one attempt got back, and where it went (empty when the partner has no endpoint). */
export type PostResult = TransportResult & { readonly url: string };

export const isSuccess = (result: TransportResult): boolean =>
  result.kind === 'response' && result.statusCode >= 200 && result.statusCode <= 299;

/**
 * The attempt itself: the delivery's body POSTed to the partner's endpoint, signed with
 * its live secrets at the time of sending. A partner without an endpoint or a secret gets
 * no request; the attempt fails with the reason.
 */
export async function postSigned(
  { secrets, transport }: Pick<WebhookDispatcherDependencies, 'secrets' | 'transport'>,
  delivery: Delivery,
  at: Date,
  reads: BatchReads,
  /** The fast path's budget; absent: the transport's own deadline. */
  timeoutMs?: number,
): Promise<PostResult> {
  const endpoint = await reads.endpoint(delivery.partnerId);
  if (!endpoint)
    return { kind: 'error', error: 'no webhook endpoint is configured for the partner', latencyMs: 0, url: '' };
  const signing = await secrets.get(delivery.partnerId, endpoint.secretRotatedAt);
  if (!signing)
    return {
      kind: 'error',
      error: 'no signing secret is configured for the partner',
      latencyMs: 0,
      url: endpoint.url,
    };
  // Oldest first: during a rotation's overlap the contract header keeps the old secret, the standard one carries both.
  const live = liveSecrets(signing, at);
  const timestamp = epochSeconds(at);
  const headers = {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    'X-Service-Event': delivery.event,
    'X-Service-Signature': signWebhookBody(delivery.body, live[0] as string),
    'X-Service-Delivery-ID': delivery.deliveryId,
    'X-Service-Timestamp': String(timestamp),
    'webhook-id': delivery.deliveryId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standardSignatureHeader(delivery.deliveryId, timestamp, delivery.body, live),
  };
  return { ...(await transport.post(endpoint.url, headers, delivery.body, timeoutMs)), url: endpoint.url };
}
