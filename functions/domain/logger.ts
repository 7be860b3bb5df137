/** Structured logging port: one JSON object per line. Callers never pass secrets. */
export interface Logger {
  info(entry: Record<string, unknown>): void;
  error(entry: Record<string, unknown>): void;
}

export const jsonLinesLogger = (write: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Logger => ({
  info: (entry) => write(JSON.stringify({ level: 'info', ...entry })),
  error: (entry) => write(JSON.stringify({ level: 'error', ...entry })),
});
