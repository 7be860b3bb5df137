import { Tracer } from '@aws-lambda-powertools/tracer';
import type { WebhookTransport } from '../../webhooks/webhook-transport';

/**
 * X-Ray through Powertools Tracer, for the functions whose bundle can carry it
 * (aws-xray-sdk-core adds about 125 KB minified): every function but the handshake and
 * the embed host, whose 150 and 280 KB budgets it would break (docs/performance.md).
 * Imported at init: every deployed function traces, so a lazy import would only move its
 * cost into the first request (docs/decisions.md). Tracer turns itself off outside
 * Lambda (no `AWS_EXECUTION_ENV`) and with `POWERTOOLS_TRACE_ENABLED=false`, so the local
 * stack and tests trace nothing.
 */
let tracer: Tracer | undefined;
const lambdaTracer = (): Tracer => (tracer ??= new Tracer());

/** An AWS SDK v3 client whose calls are subsegments of the invocation's trace. */
export const traced = <C>(client: C): C => lambdaTracer().captureAWSv3Client(client as never) as C;

/** Each webhook POST in a subsegment of its own, `webhook POST`, annotated with the receiver's host and the answer. */
export function tracedTransport(transport: WebhookTransport): WebhookTransport {
  return {
    post: (url, headers, body, timeoutMs) => {
      const current = lambdaTracer();
      if (!current.isTracingEnabled()) return transport.post(url, headers, body, timeoutMs);
      return current.provider.captureAsyncFunc('webhook POST', async (subsegment) => {
        try {
          subsegment?.addAnnotation('webhookHost', hostOrEmpty(url));
          const result = await transport.post(url, headers, body, timeoutMs);
          if (result.kind === 'response') subsegment?.addAnnotation('statusCode', result.statusCode);
          else subsegment?.addMetadata('error', result.error);
          return result;
        } finally {
          subsegment?.close();
        }
      }) as ReturnType<WebhookTransport['post']>;
    },
  };
}

const hostOrEmpty = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
};
