/** Sends operator-written plain-text e-mail to a partner (SES). */
export interface AlertMailer {
  send(message: { to: string; subject: string; text: string }): Promise<void>;
}
