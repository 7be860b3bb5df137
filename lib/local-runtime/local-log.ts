import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { jsonLinesLogger, type Logger } from '../../functions/domain/logger';

/** Where `npm start` appends every JSON log line and EMF metrics line; `ops order trace` and `ops metrics` read it. */
export const LOCAL_LOG_FILE = resolve('.local', 'logs', 'service.jsonl');

export interface LocalLog {
  /** Appends one line to the file. */
  readonly append: (line: string) => void;
  /** Log lines, each with its time: appended; errors (every line, with `echo: 'all'`) also printed. */
  readonly logger: Logger;
  close(): Promise<void>;
}

/**
 * The local stack's log: the file is the owner's only (0600, under `.local/`, itself 0700).
 * Only errors reach the console unless `echo` is `'all'`: a request's lines would scroll
 * the banner's key and curl lines away.
 */
export function openLocalLog(
  file = LOCAL_LOG_FILE,
  options: { readonly echo?: 'errors' | 'all'; readonly print?: (line: string) => void } = {},
): LocalLog {
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const stream = createWriteStream(file, { flags: 'a', mode: 0o600 });
  // A request's lines (its log, its metrics) go out in one write after it, not one file write each.
  let pending: string[] = [];
  const flush = () => {
    if (pending.length === 0) return; // flushed by close already
    const lines = pending;
    pending = [];
    stream.write(lines.join(''));
  };
  const append = (line: string) => {
    if (pending.length === 0) setImmediate(flush);
    pending.push(`${line}\n`);
  };
  const printed = jsonLinesLogger((line) => {
    print(line);
    append(line);
  });
  const lines = options.echo === 'all' ? printed : { info: jsonLinesLogger(append).info, error: printed.error };
  const stamped = (entry: Record<string, unknown>) => ({ timestamp: new Date().toISOString(), ...entry });
  return {
    append,
    logger: { info: (entry) => lines.info(stamped(entry)), error: (entry) => lines.error(stamped(entry)) },
    close: () =>
      new Promise<void>((done) => {
        flush();
        stream.end(() => done());
      }),
  };
}
