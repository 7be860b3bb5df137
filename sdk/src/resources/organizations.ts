import type { SetupRequest, SetupResponse } from '../api-types.js';
import type { HttpTransport } from '../http-transport.js';

export interface SetupOptions {
  /**
   * Makes the call safe to repeat: the same key and body answer the first result again.
   * Default: a random key per call, reused by the SDK's own retries of it, so a retried
   * setup never provisions twice. Pass your own (e.g. `setup-<org>-<user>`) to make your
   * retries across processes safe too.
   */
  readonly idempotencyKey?: string;
}

/** `POST /v1/organizations/setup`. */
export class Organizations {
  constructor(private readonly transport: HttpTransport) {}

  setup(body: SetupRequest, options: SetupOptions = {}): Promise<SetupResponse> {
    return this.transport.request<SetupResponse>({
      method: 'POST',
      path: '/v1/organizations/setup',
      credential: 'bearer',
      body,
      headers: { 'Idempotency-Key': options.idempotencyKey ?? `sdk-${globalThis.crypto.randomUUID()}` },
      retryable: 'on-failure',
    });
  }
}
