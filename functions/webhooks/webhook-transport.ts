/** What came back from one POST to a partner. */
export type TransportResult =
  | {
      readonly kind: 'response';
      readonly statusCode: number;
      readonly body: string;
      readonly latencyMs: number;
      /** The response's `Retry-After` header, as sent. */
      readonly retryAfter?: string;
    }
  | { readonly kind: 'error'; readonly error: string; readonly latencyMs: number };

/** Sends one webhook POST: no redirects followed, bounded in time, destinations checked. */
export interface WebhookTransport {
  post(url: string, headers: Readonly<Record<string, string>>, body: string): Promise<TransportResult>;
}
