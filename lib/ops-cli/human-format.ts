/** Readable output for operators: aligned `label: value` lines and small tables. */

export function fieldLines(fields: readonly (readonly [label: string, value: string])[]): string[] {
  const width = Math.max(0, ...fields.map(([label]) => label.length)) + 1;
  return fields.map(([label, value]) => `${`${label}:`.padEnd(width)} ${value}`);
}

export function tableLines(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  return [header, ...rows].map((row) =>
    header
      .map((_, column) => (row[column] ?? '').padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd(),
  );
}

/** How an absent value reads in text output. */
export const NONE = '-';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const scalarText = (value: unknown): string => (value === null || value === undefined ? NONE : String(value));

/**
 * Every field of a JSON document as indented `label: value` lines, nested objects as
 * indented blocks and list items numbered, so the readable output of a `show` command
 * leaves out nothing its `--json` has.
 */
export function documentLines(document: Record<string, unknown>, indent = ''): string[] {
  const scalars = Object.entries(document).filter(([, value]) => !isRecord(value) && !Array.isArray(value));
  const width = Math.max(0, ...scalars.map(([label]) => label.length)) + 1;
  return Object.entries(document).flatMap(([label, value]) => {
    if (Array.isArray(value)) {
      if (value.length === 0) return [`${indent}${label}: ${NONE}`];
      return [
        `${indent}${label}:`,
        ...value.flatMap((item, index) =>
          isRecord(item)
            ? [`${indent}  [${index + 1}]`, ...documentLines(item, `${indent}    `)]
            : [`${indent}  [${index + 1}] ${scalarText(item)}`],
        ),
      ];
    }
    if (isRecord(value)) return [`${indent}${label}:`, ...documentLines(value, `${indent}  `)];
    return [`${indent}${`${label}:`.padEnd(width)} ${scalarText(value)}`];
  });
}
