import type { WebhookTestRequest, WebhookTestResponse } from '../api-types.js';
import type { HttpTransport } from '../http-transport.js';

/**
 * `POST /v1/webhooks/test` (sandbox only; production answers 404): a realistic sample
 * event of one kind, marked `"test": true` in its data, sent to your endpoint through the
 * real pipeline. Each call sends another sample, so only a 429 (answered before anything
 * happens) is retried.
 */
export class WebhookTests {
  constructor(private readonly transport: HttpTransport) {}

  /** Resolves to `{ delivery_id }`: the `webhook-id` your receiver will get. */
  sendTest(input: { event: WebhookTestRequest['event'] }): Promise<WebhookTestResponse> {
    return this.transport.request<WebhookTestResponse>({
      method: 'POST',
      path: '/v1/webhooks/test',
      credential: 'bearer',
      body: { event: input.event },
      retryable: 'on-rate-limit',
    });
  }
}
