import { SendEmailCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import type { AlertMailer } from '../webhooks/alert-mailer';

/** Plain-text mail through SESv2 SendEmail, from the environment's verified sender identity. */
export class SesAlertMailer implements AlertMailer {
  constructor(
    private readonly ses: SESv2Client,
    private readonly from: string,
  ) {}

  async send(message: { to: string; subject: string; text: string }): Promise<void> {
    if (!this.from) throw new Error('ALERT_SENDER_EMAIL is not configured');
    await this.ses.send(
      new SendEmailCommand({
        FromEmailAddress: this.from,
        Destination: { ToAddresses: [message.to] },
        Content: {
          Simple: {
            Subject: { Data: message.subject, Charset: 'UTF-8' },
            Body: { Text: { Data: message.text, Charset: 'UTF-8' } },
          },
        },
      }),
    );
  }
}
