import { createHmac } from 'node:crypto';

/** `X-Service-Signature`: `sha256=` + lowercase hex HMAC-SHA256 of the raw body, keyed with the secret. */
export const signWebhookBody = (rawBody: string, secret: string): string =>
  `sha256=${createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex')}`;
