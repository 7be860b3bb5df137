/**
 * What `npm start` reads from its environment besides the port and the log switch: the
 * overrides an operator or a test shortens to watch something happen in seconds rather
 * than minutes. Checked here, at start, so a bad value is one line naming the variable,
 * not a stack trace from deep inside the stack.
 */
import { z } from 'zod';

const wholeSeconds = z.coerce.number().int().positive();

const StartEnvironment = z.object({
  /** How often the invoice sweep runs; a minute by default (AWS: every five). */
  LOCAL_INVOICE_SWEEP_S: wholeSeconds.optional(),
  /** The sweep's grace: a shipment younger than this is left to the invoicing queue; a minute by default. */
  INVOICE_SWEEP_GRACE_S: wholeSeconds.optional(),
  // Validated by the runtime configuration (functions/config.ts); passed on as given.
  WEBHOOK_RETRY_DELAYS_S: z.string().optional(),
  WEBHOOK_DISABLE_AFTER_S: z.string().optional(),
  EMBED_SESSION_IDLE_S: z.string().optional(),
});

/** The variables the functions read themselves, handed on through the stack's function environment. */
const FUNCTION_VARIABLES = [
  'WEBHOOK_RETRY_DELAYS_S',
  'WEBHOOK_DISABLE_AFTER_S',
  'EMBED_SESSION_IDLE_S',
  'INVOICE_SWEEP_GRACE_S',
] as const;

export interface StartSettings {
  /** Added to every function's environment. */
  readonly extraEnvironment: Record<string, string>;
  /** Undefined: the stack's default (LOCAL_INVOICE_SWEEP_MINUTES). */
  readonly invoiceSweepIntervalSeconds: number | undefined;
}

export class StartSettingsInvalid extends Error {
  override readonly name = 'StartSettingsInvalid';
}

export function readStartSettings(env: Record<string, string | undefined>): StartSettings {
  // An empty variable is an unset one, as a shell's `VAR= npm start` means.
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = StartEnvironment.safeParse(given);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0]);
    throw new StartSettingsInvalid(
      `${name} must be a whole number of seconds above 0 (was ${JSON.stringify(given[name])})`,
    );
  }
  const settings = parsed.data;
  return {
    extraEnvironment: Object.fromEntries(
      FUNCTION_VARIABLES.flatMap((name) => (settings[name] === undefined ? [] : [[name, String(settings[name])]])),
    ),
    invoiceSweepIntervalSeconds: settings.LOCAL_INVOICE_SWEEP_S,
  };
}
