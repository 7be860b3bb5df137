import { currentCorrelation } from './correlation';

/** What a log line may say of the Lambda invocation under way (a subset of Lambda's context). */
interface InvocationContext {
  readonly awsRequestId: string;
  readonly functionName: string;
}

/** Structured logging port: one JSON object per line, `msg` naming what happened. */
export interface Logger {
  info(entry: Record<string, unknown>): void;
  error(entry: Record<string, unknown>): void;
  /**
   * The Lambda invocation under way: its request id and whether it is a cold start go on
   * every later line (Powertools' addContext); loggers outside Lambda ignore it.
   */
  addContext?(context: InvocationContext): void;
}

export const jsonLinesLogger = (write: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Logger => ({
  info: (entry) => write(JSON.stringify({ level: 'info', ...entry })),
  error: (entry) => write(JSON.stringify({ level: 'error', ...entry })),
});

/**
 * Callers never log secrets on purpose, but a log line can quote caller input (a 404's
 * "No profile with internal_user_id …" when a partner pasted its API key there). Anything
 * shaped like an API key, a webhook secret, a session token or a hash is masked.
 */
const SECRET_SHAPES: readonly [RegExp, string][] = [
  [/sk_(live|test)_[0-9A-Za-z]{4,}/g, 'sk_$1_[REDACTED]'],
  [/whsec_[0-9A-Za-z_+/=-]{8,}/g, 'whsec_[REDACTED]'],
  [/(?<![0-9a-fA-F])[0-9a-fA-F]{64}(?![0-9a-fA-F])/g, '[REDACTED]'],
];

/** Any of the shapes, in one pattern: a text none of them matches is returned as it is, after one scan instead of three. */
const ANY_SECRET_SHAPE = new RegExp(SECRET_SHAPES.map(([shape]) => shape.source).join('|'));

export const redactSecrets = (text: string): string =>
  ANY_SECRET_SHAPE.test(text)
    ? SECRET_SHAPES.reduce((redacted, [shape, mask]) => redacted.replace(shape, mask), text)
    : text;

const hasToJson = (value: unknown): value is { toJSON(): unknown } =>
  typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function';

const redactValue = (value: unknown): unknown => {
  if (typeof value === 'string') return redactSecrets(value);
  // What JSON.stringify would write for it (a Date's ISO string), not its own enumerable fields (none: `{}`).
  if (hasToJson(value)) return redactValue(value.toJSON());
  if (Array.isArray(value)) return value.map(redactValue);
  if (value && typeof value === 'object') return redactEntry(value as Record<string, unknown>);
  return value;
};

const redactEntry = (entry: Record<string, unknown>): Record<string, unknown> => {
  const redacted: Record<string, unknown> = {};
  for (const key of Object.keys(entry)) {
    const value = redactValue(entry[key]);
    // Assigning `__proto__` (a key parsed input can carry) would set the prototype, not a field.
    if (key === '__proto__')
      Object.defineProperty(redacted, key, { value, enumerable: true, writable: true, configurable: true });
    else redacted[key] = value;
  }
  return redacted;
};

export const redactingLogger = (inner: Logger): Logger => ({
  info: (entry) => inner.info(redactEntry(entry)),
  error: (entry) => inner.error(redactEntry(entry)),
  addContext: (context) => inner.addContext?.(context),
});

/**
 * Puts the current correlation ids (request, partner, organization, order, event,
 * delivery: domain/correlation.ts) on every line; a line's own fields win.
 */
export const correlatingLogger = (inner: Logger): Logger => ({
  info: (entry) => inner.info({ ...currentCorrelation(), ...entry }),
  error: (entry) => inner.error({ ...currentCorrelation(), ...entry }),
  addContext: (context) => inner.addContext?.(context),
});
