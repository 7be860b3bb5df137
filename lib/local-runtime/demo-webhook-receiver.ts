/**
 * The demo partner's webhook receiver, local runtime only: `POST /demo/webhooks` is where
 * the demo points the sandbox partner's webhook endpoint. It verifies each delivery's
 * signature the way a partner would (`verifyWebhookSignature`, on the raw bytes) and
 * keeps what arrived in memory, so the demo can show the loop close: an order placed in
 * the module, its signed `order.created` here.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PartnerId } from '../../functions/domain/partners/partner';
import type { WebhookAdmin } from '../../functions/webhooks/webhook-admin';
import { verifyWebhookSignature } from '../../sdk/src/webhooks/verify-webhook-signature';
import type { LocalPage } from './api-gateway-adapter';

export const DEMO_WEBHOOK_PATH = '/demo/webhooks';

export interface ReceivedWebhook {
  readonly receivedAt: string;
  readonly deliveryId: string | undefined;
  /** The signature matched the demo's secret. */
  readonly verified: boolean;
  readonly rawBody: string;
  /** The parsed body; undefined when it was no JSON. */
  readonly body: { readonly event?: string; readonly data?: Record<string, unknown> } | undefined;
}

export class DemoWebhookReceiver {
  /** Generated per process: only this receiver and the sandbox partner's endpoint know it. */
  readonly secret = `whsec_${randomBytes(32).toString('base64')}`;
  private readonly received: ReceivedWebhook[] = [];

  /** Newest first. */
  list(): readonly ReceivedWebhook[] {
    return [...this.received].reverse();
  }

  /** Answers `POST /demo/webhooks` with 200 once the delivery is recorded (valid or not: the page shows which). */
  readonly page: LocalPage = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    if (req.method !== 'POST' || new URL(req.url ?? '/', 'http://localhost').pathname !== DEMO_WEBHOOK_PATH)
      return false;
    const rawBody = body.toString('utf8');
    let parsed: ReceivedWebhook['body'];
    try {
      parsed = JSON.parse(rawBody) as ReceivedWebhook['body'];
    } catch {
      parsed = undefined;
    }
    const deliveryId = req.headers['x-service-delivery-id'];
    this.received.push({
      receivedAt: new Date().toISOString(),
      deliveryId: typeof deliveryId === 'string' ? deliveryId : undefined,
      verified: verifyWebhookSignature(body, req.headers['x-service-signature'], this.secret),
      rawBody,
      body: parsed,
    });
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"received":true}');
    return true;
  };
}

/**
 * Points the partner's webhooks at the demo receiver, with the receiver's secret, unless
 * the partner already sends them somewhere else (an endpoint someone set with the CLI is
 * left alone; the demo then says so). Returns whether the receiver is wired.
 */
export async function wireDemoWebhooks(
  admin: Pick<WebhookAdmin, 'showEndpoint' | 'configureEndpoint'>,
  partnerId: PartnerId,
  receiverUrl: string,
  secret: string,
): Promise<boolean> {
  const current = await admin.showEndpoint(partnerId).catch(() => undefined);
  if (current && current.url !== new URL(receiverUrl).href) return false;
  await admin.configureEndpoint({ partnerId, url: receiverUrl, secret });
  return true;
}
