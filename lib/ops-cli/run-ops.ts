import { randomUUID } from 'node:crypto';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { withCorrelation } from '../../functions/domain/correlation';
import { z } from 'zod';
import type { Dependencies } from '../../functions/container';
import { DomainError, ValidationFailed } from '../../functions/domain/errors';
import { fieldLabel, toValidationIssues, type ValidationIssue } from '../../functions/domain/validation';
import type { Stage } from '../../functions/resources/stages';
import { approvalCommands } from './approval-commands';
import { billingCommands } from './billing-commands';
import { catalogCommands } from './catalog-commands';
import { deliveryCommands } from './delivery-commands';
import { invoiceCommands } from './invoice-commands';
import { keyCommands } from './key-commands';
import { logCommands } from './log-commands';
import { type CommandTable, type OpsCommand, UsageError } from './ops-command';
import { orderCommands } from './order-commands';
import { orderEventCommands } from './order-event-commands';
import { organizationCommands } from './organization-commands';
import { outboxCommands } from './outbox-commands';
import { partnerCommands } from './partner-commands';
import { sessionCommands } from './session-commands';
import { commandUsage, generalUsage, isRequired } from './usage-text';
import { webhookCommands } from './webhook-commands';

/**
 * Every operator command. A command group is one `<group>-commands.ts` file: its use cases
 * as functions of the dependencies, and at the bottom its `CommandTable`, spread in here.
 */
export const COMMANDS: CommandTable = {
  ...partnerCommands,
  ...keyCommands,
  ...organizationCommands,
  ...sessionCommands,
  ...webhookCommands,
  ...catalogCommands,
  ...orderCommands,
  ...approvalCommands,
  ...logCommands,
  ...orderEventCommands,
  ...deliveryCommands,
  ...outboxCommands,
  ...invoiceCommands,
  ...billingCommands,
};

const EXIT_OK = 0;
/** The command ran and failed: not found, an invalid option value, the store unreachable. */
const EXIT_FAILED = 1;
/** The command line itself is wrong: nothing ran. (`--help` asked for is a success.) */
export const EXIT_USAGE = 2;

export interface OpsIo {
  /** The stack to act on, or how to reach it; a function is called only once the command line is valid. */
  readonly deps: Dependencies | (() => Promise<Dependencies>);
  readonly out: (line: string) => void;
  /** Errors and unrequested usage text; `out` when absent. */
  readonly err?: (line: string) => void;
  /** The deployed stage `deps` reaches (`--stage`); absent for the local stack. */
  readonly stage?: Stage;
}

/** Runs one operator command line (without `--stage`, which picks `deps`); returns the exit code. */
export async function runOps(argv: readonly string[], io: OpsIo, commands: CommandTable = COMMANDS): Promise<number> {
  const err = io.err ?? io.out;
  const print = (write: (line: string) => void, lines: readonly string[]) => lines.forEach((line) => write(line));

  const found = findCommand(argv, commands);
  if (!found) {
    const words = leadingWords(argv);
    if (words.length === 0) {
      // `--help` asked for the usage and got it; no command at all is a usage error.
      const asked = argv.some(isHelp);
      print(asked || argv.length === 0 ? io.out : err, generalUsage(commands));
      return asked ? EXIT_OK : EXIT_USAGE;
    }
    const group = Object.keys(commands).some((name) => name.split(' ')[0] === words[0]) ? words[0] : undefined;
    if (group && words.length === 1) {
      // `partner` or `partner --help`: the group's commands.
      const asked = argv.some(isHelp);
      if (!asked) err(`Error: "${group}" needs a command`);
      print(asked ? io.out : err, generalUsage(commands, group));
      return asked ? EXIT_OK : EXIT_USAGE;
    }
    err(`Error: unknown command "${words.join(' ')}"`);
    print(err, generalUsage(commands, group));
    return EXIT_USAGE;
  }

  const { name, command, rest } = found;
  let values: Record<string, unknown>;
  try {
    values = parseArgs({
      args: [...rest],
      options: parseArgsOptions(command),
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    err(`Error: ${describeParseFailure(error as Error, command)}`);
    print(err, commandUsage(name, command));
    return EXIT_USAGE;
  }
  const { json, help, ...given } = values;
  if (help) {
    print(io.out, commandUsage(name, command));
    return EXIT_OK;
  }
  if (command.localOnly && io.stage) {
    err(`Error: ${name} works on the local stack only (npm start); it cannot be used with --stage ${io.stage}`);
    return EXIT_USAGE;
  }

  // A required option left out is a usage error (nothing ran), like one given without its value.
  const missing = requiredOptionsMissing(command, given);
  if (missing.length > 0) {
    err(
      `Error: ${missing.map((option) => `--${option} is required: give --${option} ${command.options[option]?.placeholder ?? 'VALUE'}`).join('; ')}`,
    );
    print(err, commandUsage(name, command));
    return EXIT_USAGE;
  }

  const schema = z.object(
    Object.fromEntries(Object.entries(command.options).map(([option, spec]) => [option, spec.schema])),
  );
  const options = schema.safeParse(given);
  if (!options.success) {
    err(`Error: ${toValidationIssues(options.error).map(optionMessage).join('; ')}`);
    return EXIT_FAILED;
  }

  try {
    const deps = command.withoutStack ? NO_STACK : typeof io.deps === 'function' ? await io.deps() : io.deps;
    // An operator's change is a request of its own: its order events carry this id to every delivery attempt.
    const output = await withCorrelation({ requestId: `ops-${randomUUID()}` }, () => command.run(deps, options.data));
    print(io.out, json ? JSON.stringify(output.json, null, 2).split('\n') : output.text);
    return output.exitCode ?? EXIT_OK;
  } catch (error) {
    err(`Error: ${describeFailure(error)}`);
    if (error instanceof UsageError) {
      print(err, commandUsage(name, command));
      return EXIT_USAGE;
    }
    return EXIT_FAILED;
  }
}

/** The required options the command line left out (usage text and this check read the same schemas). */
function requiredOptionsMissing(command: OpsCommand, given: Record<string, unknown>): string[] {
  return Object.entries(command.options)
    .filter(([option, spec]) => given[option] === undefined && isRequired(spec))
    .map(([option]) => option);
}

/** What a command that reads no stack gets instead of one: any use of it is a bug of that command. */
const NO_STACK = new Proxy({} as Dependencies, {
  get: (_target, field) => {
    throw new Error(`this command reads no stack, yet it used ${String(field)}`);
  },
});

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h';

/** The words before the first option: the command name, and anything mistyped after it. */
const leadingWords = (argv: readonly string[]) => {
  const end = argv.findIndex((arg) => arg.startsWith('-'));
  return argv.slice(0, end === -1 ? argv.length : end);
};

/** The longest run of leading words naming a command, so groups may nest (`outbox dead-letters list`). */
function findCommand(argv: readonly string[], commands: CommandTable) {
  const words = leadingWords(argv);
  for (let count = words.length; count > 0; count -= 1) {
    const name = words.slice(0, count).join(' ');
    const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
    if (command) return { name, command, rest: argv.slice(count) };
  }
  return undefined;
}

function parseArgsOptions(command: OpsCommand): NonNullable<ParseArgsConfig['options']> {
  return {
    ...Object.fromEntries(
      Object.entries(command.options).map(([option, spec]) => [option, { type: spec.type ?? 'string' }]),
    ),
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  };
}

/**
 * node:util's wording for an option followed by no value ("argument missing") or by
 * another option ("argument is ambiguous", e.g. `--partner $UNSET --json`) becomes one
 * plain sentence: the value is missing.
 */
function describeParseFailure(error: Error, command: OpsCommand): string {
  const code = (error as { code?: unknown }).code;
  const option = /'--([a-z-]+)/.exec(error.message)?.[1];
  const spec = option && Object.hasOwn(command.options, option) ? command.options[option] : undefined;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && spec) {
    return `--${option} is missing its value: give --${option} ${spec.placeholder ?? 'VALUE'}`;
  }
  return firstLine(error.message);
}

/** `--partner must be a UUID`: the domain's wording, with the option for the field. */
function optionMessage(issue: ValidationIssue): string {
  const [option = '', ...inner] = issue.path;
  const label = fieldLabel(issue.path);
  // The domain's wording names the format but shows none; an operator gets an example.
  const message =
    issue.code === 'INVALID_EMAIL' ? `${label} must be an e-mail address, e.g. ops@example.com` : issue.message;
  const reason = message.startsWith(label) ? message.slice(label.length) : ` ${message}`;
  return `--${option}${inner.length > 0 ? ` (${inner.join('.')})` : ''}${reason}`;
}

/** One line, never a stack trace: operators see what failed, not where. */
function describeFailure(error: unknown): string {
  if (error instanceof UsageError) return error.message;
  if (error instanceof ValidationFailed) {
    const issues = error.issues.map((issue) => issue.message);
    // Some domain messages already list their issues; say each problem once.
    return issues.every((issue) => error.message.includes(issue))
      ? firstLine(error.message)
      : `${error.message}: ${issues.join('; ')}`;
  }
  if (error instanceof DomainError) return firstLine(error.message);
  if (error instanceof Error) {
    const message = firstLine(error.message) || 'failed without a message';
    return error.name && error.name !== 'Error' ? `${error.name}: ${message}` : message;
  }
  return firstLine(String(error));
}

const firstLine = (text: string) => text.split('\n')[0]?.trim() ?? '';
