import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { classifyAddress } from '../../webhooks/destination-address';
import { hostOf } from '../../webhooks/webhook-url';
import type { TransportResult, WebhookTransport } from '../../webhooks/webhook-transport';
import { publicOnlyLookup } from './public-only-lookup';

const RESPONSE_BODY_LIMIT = 1024;

export interface HttpWebhookTransportOptions {
  /** The contract's 30 seconds; tests shorten it. */
  readonly timeoutMs: number;
  /** Production: HTTPS only, public destinations only, checked at connection time. */
  readonly requireHttpsPublic: boolean;
}

/**
 * POSTs a webhook with node:http(s): one fresh connection per attempt (no pooled socket
 * outlives a DNS check), redirects never followed (a 3xx is just a non-2xx answer), and
 * one deadline for the whole exchange: connecting, the status line and the body (to its
 * end or its first KiB). A receiver that sends its status line in time and then trickles
 * its body is cut off at the deadline and the attempt is a timeout, whatever the status:
 * the contract's "answers within 30 seconds" is the whole answer, so a slow body cannot
 * hold a dispatcher slot longer than a receiver that never answers.
 */
export class HttpWebhookTransport implements WebhookTransport {
  constructor(private readonly options: HttpWebhookTransportOptions) {}

  post(
    rawUrl: string,
    headers: Readonly<Record<string, string>>,
    body: string,
    timeoutMs = this.options.timeoutMs,
  ): Promise<TransportResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const failure = (error: string) => ({ kind: 'error' as const, error, latencyMs: elapsed() });

    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return Promise.resolve(failure('the webhook URL is not a valid URL'));
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      return Promise.resolve(failure('the webhook URL is not http(s)'));
    if (this.options.requireHttpsPublic) {
      if (url.protocol !== 'https:')
        return Promise.resolve(failure('refused: webhook URLs must use HTTPS in production'));
      // Node skips the lookup for literal addresses, so those are checked here.
      const host = hostOf(url);
      const literal = isIP(host) ? classifyAddress(host) : undefined;
      if (literal && !literal.public) return Promise.resolve(failure(`refused: ${host} is a ${literal.range} address`));
    }

    return new Promise((resolve) => {
      let response: IncomingMessage | undefined;
      const chunks: Buffer[] = [];
      let received = 0;
      let settled = false;
      const answered = (): TransportResult => {
        const retryAfter = response?.headers['retry-after'];
        return {
          kind: 'response',
          statusCode: response?.statusCode ?? 0,
          body: Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8'),
          latencyMs: elapsed(),
          ...(retryAfter === undefined ? {} : { retryAfter }),
        };
      };
      /**
       * After a complete answer the connection is left to close itself: the request asked
       * for `Connection: close` and has no agent, so Node ends it once the response ends.
       * Destroying it there cost the dispatcher about a tenth of its deliveries a second in
       * the bench (docs/performance.md); an answer cut short (body limit, deadline, error) is cut.
       */
      const finish = (result: TransportResult, connection: 'closing' | 'cut' = 'cut') => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (connection === 'cut') request.destroy();
        resolve(result);
      };

      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const request = send(
        url,
        {
          method: 'POST',
          headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
          agent: false,
          ...(this.options.requireHttpsPublic ? { lookup: publicOnlyLookup } : {}),
        },
        (res) => {
          response = res;
          res.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            received += chunk.length;
            if (received >= RESPONSE_BODY_LIMIT) finish(answered());
          });
          res.on('end', () => finish(answered(), 'closing'));
          res.on('error', () => finish(answered()));
        },
      );
      const timer = setTimeout(
        () =>
          finish({
            ...failure(
              response
                ? `timed out after ${timeoutMs} ms: the response body (HTTP ${response.statusCode ?? 0}) did not end in time`
                : `timed out after ${timeoutMs} ms`,
            ),
            timedOut: true,
          }),
        timeoutMs,
      );
      request.on('error', (error: NodeJS.ErrnoException) => finish(response ? answered() : failure(describe(error))));
      request.end(body);
    });
  }
}

function describe(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'EDESTINATIONREFUSED':
      return `refused: ${error.message}`;
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset by the receiver';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `DNS lookup failed (${error.code})`;
    default:
      return error.code ? `${error.code}: ${error.message}` : error.message;
  }
}
