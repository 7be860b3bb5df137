/**
 * `outbox [--to ADDRESS]`: the e-mails the local SES stand-in captured (webhook failure
 * alerts), newest last. Local stack only: a deployed stack sends real mail.
 */
import type { Dependencies } from '../../functions/container';

interface StoredEmail {
  readonly messageId: string;
  readonly from: string;
  readonly destination: { readonly to: readonly string[] };
  readonly subject: string;
  readonly body: { readonly text?: string; readonly html?: string };
  readonly at: number;
}

export async function outbox(deps: Dependencies, options: { readonly to?: string } = {}) {
  const { ses } = deps.aws;
  const endpoint = ses.config.isCustomEndpoint && ses.config.endpoint ? await ses.config.endpoint() : undefined;
  if (!endpoint || !['127.0.0.1', 'localhost'].includes(endpoint.hostname)) {
    throw new Error('outbox is only available against the local stack (it reads the SES stand-in)');
  }
  const response = await fetch(`${endpoint.protocol}//${endpoint.hostname}:${endpoint.port}/store`);
  if (!response.ok) throw new Error(`The SES stand-in answered ${response.status}`);
  const { emails } = (await response.json()) as { emails: StoredEmail[] };
  return {
    emails: emails
      .filter((email) => !options.to || email.destination.to.includes(options.to))
      .map((email) => ({
        messageId: email.messageId,
        sentAt: new Date(email.at * 1000).toISOString(),
        from: email.from,
        to: email.destination.to,
        subject: email.subject,
        text: email.body.text ?? '',
      })),
  };
}
