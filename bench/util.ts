/** Runs `fn` over `items` with at most `concurrency` calls in flight; results keep the input order. */
export async function inParallel<T, R>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await fn(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

/** The middle value; of an even count, the mean of the two middle ones. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Nearest-rank percentile (0 < p <= 100). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

export const ratio = (value: number, baseline: number): string => `${(value / baseline).toFixed(2)}x`;

/**
 * A ratio judged against its limit, with the limit: two decimals, or three where two would
 * round it across the limit (0.896 against >= 0.9 prints 0.896x, not a failing "0.90x").
 */
export function judgedRatio(value: number, limit: number, sense: '<=' | '>='): string {
  const rounded = Number(value.toFixed(2));
  const crosses = sense === '>=' ? value < limit && rounded >= limit : value > limit && rounded <= limit;
  return `${value.toFixed(crosses ? 3 : 2)}x (${sense} ${limit}x)`;
}

export const verdict = (ok: boolean): string => (ok ? 'PASS' : 'FAIL');

/** Prints rows as a Markdown table (so a run's output can go straight into docs/performance.md). */
export function printTable(rows: readonly Record<string, string | number>[]): void {
  const first = rows[0];
  if (!first) return;
  const columns = Object.keys(first);
  const cell = (row: Record<string, string | number>, column: string) => String(row[column] ?? '');
  const widths = columns.map((column) => Math.max(column.length, ...rows.map((row) => cell(row, column).length)));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  console.log(line(columns));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const row of rows) console.log(line(columns.map((column) => cell(row, column))));
}
