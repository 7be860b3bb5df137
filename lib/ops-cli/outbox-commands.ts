/**
 * `outbox [--to ADDRESS]`: the e-mails the local SES stand-in captured (webhook failure
 * alerts), newest last. Local stack only: a deployed stack sends real mail, so the
 * command refuses `--stage` (`localOnly`) before reaching it. Registered as `outboxCommands`.
 */
import type { Dependencies } from '../../functions/container';
import { fieldLines } from './human-format';
import { type CommandTable, defineCommand } from './ops-command';
import { EmailOption } from './option-schemas';

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

export const outboxCommands: CommandTable = {
  outbox: defineCommand({
    summary:
      'Show the e-mails (webhook failure alerts) the local SES stand-in captured, oldest first; local stack only',
    localOnly: true,
    options: { to: { schema: EmailOption, placeholder: 'EMAIL', description: 'Only e-mails to this address' } },
    async run(deps, options) {
      const result = await outbox(deps, options);
      return {
        json: result,
        text:
          result.emails.length === 0
            ? [options.to ? `No e-mails to ${options.to}.` : 'No e-mails.']
            : result.emails.flatMap((email, index) => [
                ...(index > 0 ? ['', '-'.repeat(72), ''] : []),
                ...fieldLines([
                  ['sentAt', email.sentAt],
                  ['from', email.from],
                  ['to', email.to.join(', ')],
                  ['subject', email.subject],
                ]),
                '',
                ...email.text.split('\n'),
              ]),
      };
    },
  }),
};
