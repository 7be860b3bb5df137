import { z } from 'zod';
import type { CommandTable, OpsCommand, OptionSpec } from './ops-command';

const PROGRAM = 'npm run ops --';

/** Whether the option's schema refuses its absence: the one place that says an option is required. */
export const isRequired = (option: OptionSpec) => !z.safeParse(option.schema, undefined).success;

const optionSynopsis = (name: string, option: OptionSpec) =>
  option.type === 'boolean' ? `--${name}` : `--${name} ${option.placeholder ?? 'VALUE'}`;

const twoColumns = (rows: readonly (readonly [string, string])[]) => {
  const width = Math.max(0, ...rows.map(([left]) => left.length)) + 2;
  return rows.map(([left, right]) => `  ${left.padEnd(width)}${right}`);
};

const GLOBAL_OPTIONS: readonly (readonly [string, string])[] = [
  ['--json', 'Machine-readable JSON on stdout'],
  [
    '--stage STAGE',
    'production | sandbox: act on that deployed stack (default AWS credentials) instead of the local one',
  ],
  ['--help', "This text, or a command's options"],
];

/** The command list; only `group`'s commands when given (e.g. after `npm run ops -- partner`). */
export function generalUsage(commands: CommandTable, group?: string): string[] {
  const names = Object.keys(commands).filter((name) => !group || name.split(' ')[0] === group);
  return [
    `Usage: ${PROGRAM} <command> [options]`,
    '',
    'Operator commands. They act on the local stack started by `npm start`, or with --stage on a deployed stack.',
    '',
    'Commands:',
    ...twoColumns(names.map((name) => [name, (commands[name] as OpsCommand).summary])),
    '',
    'Options of every command:',
    ...twoColumns(GLOBAL_OPTIONS),
    '',
    `Run \`${PROGRAM} <command> --help\` for a command's options.`,
  ];
}

export function commandUsage(name: string, command: OpsCommand): string[] {
  const options = Object.entries(command.options);
  const synopsis = options.map(([option, spec]) =>
    isRequired(spec) ? optionSynopsis(option, spec) : `[${optionSynopsis(option, spec)}]`,
  );
  return [
    `Usage: ${PROGRAM} ${[name, ...synopsis, '[--json]', '[--stage STAGE]'].join(' ')}`,
    '',
    command.summary,
    ...(options.length > 0
      ? [
          '',
          'Options:',
          ...twoColumns(
            options.map(([option, spec]) => [
              optionSynopsis(option, spec),
              `${spec.description}${isRequired(spec) ? '' : ' (optional)'}`,
            ]),
          ),
        ]
      : []),
    '',
    'Options of every command:',
    ...twoColumns(GLOBAL_OPTIONS),
  ];
}
