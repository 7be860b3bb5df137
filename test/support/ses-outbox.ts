import { inject } from 'vitest';

export interface CapturedEmail {
  readonly from: string;
  readonly destination: { to: string[] };
  readonly subject: string;
  readonly body: { text?: string; html?: string };
}

/** Mail the SES stand-in captured for `recipient` (the store is shared by every test file of a run). */
export async function emailsTo(recipient: string): Promise<CapturedEmail[]> {
  const response = await fetch(`${inject('standIns').endpoints.ses}/store`);
  const { emails } = (await response.json()) as { emails: CapturedEmail[] };
  return emails.filter((email) => email.destination.to.includes(recipient));
}
