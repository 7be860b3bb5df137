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
  | {
      readonly kind: 'error';
      readonly error: string;
      readonly latencyMs: number;
      /** The deadline passed before the answer was complete (the receiver may have the request). */
      readonly timedOut?: true;
    };

/** Sends one webhook POST: no redirects followed, bounded in time, destinations checked. */
export interface WebhookTransport {
  /** `timeoutMs`: a shorter deadline than the transport's own (the fast path's budget). */
  post(
    url: string,
    headers: Readonly<Record<string, string>>,
    body: string,
    timeoutMs?: number,
  ): Promise<TransportResult>;
}
