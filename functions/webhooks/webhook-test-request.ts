/**
 * The body of POST /v1/webhooks/test (docs/webhooks.md, "Test events"): the kind of the
 * sample to send, any an endpoint can subscribe to. Unknown fields are ignored, as in every request body.
 */
// zod/mini: parsed by the webhookTest Lambda at runtime.
import * as z from 'zod/mini';
import { ValidationFailed } from '../domain/errors';
import { requiredField, toValidationIssues } from '../domain/validation';
import { WebhookEventKind } from '../domain/events/order-event-kinds';

export const WebhookTestRequest = z.object(
  { event: z.enum(WebhookEventKind.options, { error: requiredField }) },
  { error: requiredField },
);

export function parseWebhookTestRequest(body: unknown): WebhookEventKind {
  const parsed = WebhookTestRequest.safeParse(body);
  if (!parsed.success) {
    const issues = toValidationIssues(parsed.error);
    throw new ValidationFailed(
      issues,
      `The request body is invalid (${issues.map((issue) => issue.message).join('; ')})`,
    );
  }
  return parsed.data.event;
}
