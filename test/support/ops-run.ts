/** Runs an operator command in-process against a test stack and keeps what it printed. */
import type { Dependencies } from '../../functions/container';
import type { Stage } from '../../functions/resources/stages';
import { runOps } from '../../lib/ops-cli/run-ops';

export interface OpsRun {
  readonly code: number;
  /** Standard output, a line each (with errors too, unless `separateErrors`). */
  readonly lines: string[];
  /** Standard error when `separateErrors`, else empty. */
  readonly err: string[];
  readonly text: string;
  /** `text` parsed as JSON, when it is JSON. */
  readonly json: any;
}

export interface OpsRunOptions {
  readonly deps: Dependencies | (() => Promise<Dependencies>);
  readonly stage?: Stage;
  /** Keep errors apart from output, as a shell's `2>` would. */
  readonly separateErrors?: boolean;
}

export async function runOpsCapturing(argv: readonly string[], options: OpsRunOptions): Promise<OpsRun> {
  const lines: string[] = [];
  const err: string[] = [];
  const code = await runOps(argv, {
    deps: options.deps,
    stage: options.stage,
    out: (line) => lines.push(line),
    ...(options.separateErrors ? { err: (line: string) => err.push(line) } : {}),
  });
  const text = lines.join('\n');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { code, lines, err, text, json };
}
