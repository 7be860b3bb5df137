/** Readable output for operators: aligned `label: value` lines and small tables. */

export function fieldLines(fields: readonly (readonly [label: string, value: string])[]): string[] {
  const width = Math.max(0, ...fields.map(([label]) => label.length)) + 1;
  return fields.map(([label, value]) => `${`${label}:`.padEnd(width)} ${value}`);
}

export function tableLines(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  return [header, ...rows].map((row) =>
    header
      .map((_, column) => (row[column] ?? '').padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd(),
  );
}

/** How an absent value reads in text output. */
export const NONE = '-';
