/**
 * The Stripe stand-in's memory on disk (`npm start`: `.local/stripe-stand-in.json`), as
 * DynamoDB Local's data is: the port it served at, so the hosted-page and PDF links stored
 * on invoices keep working after a restart, and each object kind under its own key, so a
 * part of the stand-in adds its own kind without touching the others.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

export interface StandInState {
  /** The port the stand-in served at; a restart listens there again. */
  port?: number;
  /** Each object kind's snapshot, by the name its owner gives it (e.g. `invoices`). */
  kinds: Record<string, unknown>;
}

export class StandInStateFile {
  constructor(private readonly path: string) {}

  read(): StandInState {
    if (!existsSync(this.path)) return { kinds: {} };
    const parsed = JSON.parse(readFileSync(this.path, 'utf8')) as Partial<StandInState>;
    return { ...(typeof parsed.port === 'number' ? { port: parsed.port } : {}), kinds: parsed.kinds ?? {} };
  }

  /** Replaces the file whole (a write then a rename), so a crash mid-write leaves the last state, never half of one. */
  write(state: StandInState): void {
    const partial = `${this.path}.partial`;
    writeFileSync(partial, `${JSON.stringify(state)}\n`, { mode: 0o600 });
    renameSync(partial, this.path);
  }
}
