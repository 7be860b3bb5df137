import type { Logger } from '../../../functions/domain/logger';
import type { AlertMailer } from '../../../functions/webhooks/alert-mailer';
import type { MessageQueue } from '../../../functions/domain/events/message-queue';
import type { TransportResult, WebhookTransport } from '../../../functions/webhooks/webhook-transport';

/**
 * Ports whose only effect is to be called: each keeps what it was given, so a unit test
 * asserts on what went out (a queued message, an e-mail, a POST, a log line).
 */

export class RecordingQueue<T> implements MessageQueue<T> {
  readonly sent: { message: T; delaySeconds: number }[] = [];
  async send(message: T, delaySeconds: number) {
    this.sent.push({ message, delaySeconds });
  }
}

export class RecordingMailer implements AlertMailer {
  readonly sent: { to: string; subject: string; text: string }[] = [];
  /** Set to make the next sends fail, as SES does when throttled. */
  failure: Error | undefined;
  async send(message: { to: string; subject: string; text: string }) {
    if (this.failure) throw this.failure;
    this.sent.push(message);
  }
}

/** Answers every POST with `answer` (200 by default) and keeps the requests. */
export class RecordingTransport implements WebhookTransport {
  readonly posts: { url: string; headers: Record<string, string>; body: string }[] = [];
  answer: TransportResult = { kind: 'response', statusCode: 200, body: 'ok', latencyMs: 1 };
  async post(url: string, headers: Record<string, string>, body: string) {
    this.posts.push({ url, headers, body });
    return this.answer;
  }
}

export class RecordingLogger implements Logger {
  readonly lines: ({ level: 'info' | 'error' } & Record<string, unknown>)[] = [];
  info(entry: Record<string, unknown>) {
    this.lines.push({ level: 'info', ...entry });
  }
  error(entry: Record<string, unknown>) {
    this.lines.push({ level: 'error', ...entry });
  }
}
