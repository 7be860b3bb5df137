import type { z } from 'zod';
import type { Dependencies } from '../../functions/container';

/**
 * One option of a command: `--<name> <placeholder>`. The schema validates (and may
 * transform) the raw value; it decides whether the option is required, so usage text
 * and validation cannot disagree. Any zod schema, classic or zod/mini (the domain's
 * field rules are mini, for setup's cold start): both build on zod/v4/core.
 */
export interface OptionSpec<S extends z.core.$ZodType = z.core.$ZodType> {
  readonly schema: S;
  /** `boolean` options take no value (`--dry-run`); everything else takes a string. */
  readonly type?: 'string' | 'boolean';
  /** Stands for the value in usage text, e.g. `ID`. */
  readonly placeholder?: string;
  readonly description: string;
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

type OptionValues<O extends OptionSpecs> = { readonly [K in keyof O]: z.output<O[K]['schema']> };

/** What a command produced: the document printed for `--json`, and the lines printed for people otherwise. */
interface CommandOutput {
  readonly json: unknown;
  readonly text: readonly string[];
  /** 1 when the command found what it looks for (a check's mismatches); 0 by default. */
  readonly exitCode?: 0 | 1;
}

export interface OpsCommand<O extends OptionSpecs = OptionSpecs> {
  /** One line, shown in the command list and the command's usage. */
  readonly summary: string;
  /** `json` and `help` are taken by every command and cannot be used here. */
  readonly options: O;
  /** Reads a local stand-in (e.g. the SES outbox): refused with `--stage`, before any deployed stack is reached. */
  readonly localOnly?: boolean;
  /** Reads only files on this machine (the local stack's log): runs whether or not a stack is up, and `run` gets no dependencies to use. */
  readonly withoutStack?: boolean;
  run(deps: Dependencies, options: OptionValues<O>): Promise<CommandOutput>;
}

/** Command name (its words, e.g. `partner create`) to command: how command groups register. */
export type CommandTable = Readonly<Record<string, OpsCommand>>;

/** Types a command's `run` options from its option specs. */
export const defineCommand = <O extends OptionSpecs>(command: OpsCommand<O>): OpsCommand =>
  command as unknown as OpsCommand;

/**
 * The options given do not go together (e.g. `deliveries replay` with both `--delivery`
 * and `--partner`): a usage error, exit 2 with the command's usage, like a required
 * option left out. A bad value of a well-formed command line is a failure (exit 1).
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
