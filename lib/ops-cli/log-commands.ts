/**
 * Operator commands that read the local stack's log file (`.local/logs/service.jsonl`,
 * which `npm start` appends to): `order trace`, one order's story from the request that
 * placed it to each webhook attempt, and `metrics`, the EMF metrics lines summarised.
 * Deployed stacks have the same lines in CloudWatch: docs/operations.md has the queries.
 */
import { existsSync, readFileSync } from 'node:fs';
import { NotFound } from '../../functions/domain/errors';
import { LOCAL_LOG_FILE } from '../local-runtime/local-log';
import { NONE, tableLines } from './human-format';
import { type CommandTable, defineCommand, UsageError } from './ops-command';
import { DurationOption, FilePathOption, OrderIdOption } from './option-schemas';

type LogLine = Record<string, unknown>;

/** The ids that tie a line to an order's story. */
const LINK_FIELDS = ['requestId', 'eventId', 'deliveryId', 'approvalRequestId'] as const;

/** Every JSON line of the file, in order; a line that is not JSON (a crash's stack) is skipped. */
function readLogLines(file: string): LogLine[] {
  if (!existsSync(file))
    throw new NotFound(`No log file ${file}: start the local stack with npm start (it writes one)`);
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((text) => {
      if (!text.startsWith('{')) return [];
      try {
        const parsed: unknown = JSON.parse(text);
        return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? [parsed as LogLine] : [];
      } catch {
        return [];
      }
    });
}

const isMetricsLine = (line: LogLine) => typeof line._aws === 'object' && line._aws !== null;

/**
 * The lines of one order's story, in the order they were written: every line naming the
 * order, and every line sharing a request, event, delivery or approval request id with one
 * of them, and so on (the fan-out's and dispatcher's lines of its events, the request's own
 * lines before it knew the order, the request that submitted it for approval).
 */
function traceOrder(lines: readonly LogLine[], orderId: string): LogLine[] {
  const logLines = lines.filter((line) => !isMetricsLine(line));
  const linked = new Set<string>();
  const linkIds = (line: LogLine) =>
    LINK_FIELDS.flatMap((field) => (typeof line[field] === 'string' ? [`${field}:${line[field]}`] : []));
  const inStory = (line: LogLine) => line.orderId === orderId || linkIds(line).some((id) => linked.has(id));
  let size = -1;
  while (linked.size !== size) {
    size = linked.size;
    for (const line of logLines) if (inStory(line)) for (const id of linkIds(line)) linked.add(id);
  }
  return oldestFirst(logLines.filter(inStory));
}

/**
 * Strictly oldest first, by each line's time: a request's line is written when it ends, with
 * the time it began, so a Stripe event that a sandbox `pay` set off can be written before the
 * `pay` itself. Lines of one time keep the file's order (the sort is stable).
 */
function oldestFirst(lines: readonly LogLine[]): LogLine[] {
  const time = (line: LogLine) => (typeof line.timestamp === 'string' ? Date.parse(line.timestamp) : Number.NaN);
  const known = lines.map((line, index) => ({ line, index, at: time(line) }));
  // A line without a time (none is written so) stays after the one before it.
  let last = Number.NEGATIVE_INFINITY;
  for (const entry of known) last = entry.at = Number.isNaN(entry.at) ? last : entry.at;
  return known.sort((a, b) => a.at - b.at || a.index - b.index).map(({ line }) => line);
}

/** What each request did and who did it, from its lines (the request log line carries both). */
function actionsByRequest(lines: readonly LogLine[]): Map<string, { action: string; user: string }> {
  const found = new Map<string, { action: string; user: string }>();
  for (const line of lines) {
    if (typeof line.requestId !== 'string' || typeof line.action !== 'string') continue;
    const user =
      typeof line.internalUserId === 'string'
        ? `user ${line.internalUserId}`
        : line.msg === 'stripe_event' || found.get(line.requestId)?.user === 'stripe'
          ? 'stripe'
          : 'partner';
    found.set(line.requestId, { action: line.action, user });
  }
  return found;
}

/** The order id the log names that `given` (a UUID or the module's short id) is, or starts. */
function orderIdInLog(lines: readonly LogLine[], given: string): string {
  const ids = [
    ...new Set(
      lines.map((line) => line.orderId).filter((id): id is string => typeof id === 'string' && id.startsWith(given)),
    ),
  ];
  if (ids.length > 1)
    throw new UsageError(
      [`Order id ${given} is ambiguous: the log names ${ids.length} orders starting with it. Give more of the id:`]
        .concat(ids.map((id) => `  ${id}`))
        .join('\n'),
    );
  const [id] = ids;
  if (id === undefined)
    throw new NotFound(`No log line names ${given.length === 36 ? 'order' : 'an order starting with'} ${given}`);
  return id;
}

const text = (value: unknown) => (value === undefined || value === null ? NONE : String(value));

function traceText(lines: readonly LogLine[]): string[] {
  const actions = actionsByRequest(lines);
  const doneBy = (line: LogLine) => {
    const requestId = typeof line.requestId === 'string' ? line.requestId : undefined;
    const known = requestId === undefined ? undefined : actions.get(requestId);
    if (known) return known;
    // An operator's change (order confirm|ship|…) logs on the operator's terminal, not here.
    return requestId?.startsWith('ops-') ? { action: 'operator', user: 'operator' } : { action: NONE, user: NONE };
  };
  return tableLines(
    ['time', 'level', 'msg', 'request', 'action', 'by', 'event', 'delivery', 'detail'],
    lines.map((line) => [
      text(line.timestamp),
      text(line.level),
      text(line.msg),
      text(line.requestId),
      doneBy(line).action,
      doneBy(line).user,
      text(line.eventId),
      text(line.deliveryId),
      [
        line.endpoint && `${String(line.endpoint)} ${text(line.status)}`,
        line.event && String(line.event),
        line.msg === 'stripe_event' &&
          `stripe ${text(line.type)} ${text(line.stripeEventId)} created ${text(line.created)}`,
        line.outcome && `outcome=${String(line.outcome)}`,
        line.attempt !== undefined && `attempt=${String(line.attempt)}`,
        line.statusCode !== undefined && `http=${String(line.statusCode)}`,
        line.nextAttemptAt !== undefined && `retry due ${String(line.nextAttemptAt)}`,
      ]
        .filter(Boolean)
        .join(' ') || NONE,
    ]),
  );
}

interface MetricSummary {
  readonly metric: string;
  readonly dimensions: string;
  readonly unit: string;
  /** Sum of a count; number of observations of a duration. */
  readonly count: number;
  readonly p50?: number;
  readonly p99?: number;
}

/** Nearest-rank percentile of sorted values. */
const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] as number;

/** The EMF lines since `since` (epoch ms), by metric and dimensions: counts summed, durations' p50 and p99. */
function summarizeMetrics(lines: readonly LogLine[], since: number): MetricSummary[] {
  const found = new Map<string, { metric: string; dimensions: string; unit: string; values: number[] }>();
  for (const line of lines) {
    const aws = line._aws as
      | {
          Timestamp?: number;
          CloudWatchMetrics?: { Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[];
        }
      | undefined;
    if (!aws?.CloudWatchMetrics || (aws.Timestamp ?? 0) < since) continue;
    for (const directive of aws.CloudWatchMetrics) {
      const names = [...new Set(directive.Dimensions.flat())].filter((name) => name !== 'service');
      const dimensions = names.map((name) => `${name}=${String(line[name])}`).join(',');
      for (const { Name, Unit } of directive.Metrics) {
        const key = `${Name}|${dimensions}`;
        const entry = found.get(key) ?? { metric: Name, dimensions, unit: Unit, values: [] };
        const value = line[Name];
        entry.values.push(...(Array.isArray(value) ? value : [value]).map(Number));
        found.set(key, entry);
      }
    }
  }
  return [...found.values()]
    .sort((a, b) => a.metric.localeCompare(b.metric) || a.dimensions.localeCompare(b.dimensions))
    .map(({ metric, dimensions, unit, values }) => {
      if (unit === 'Count') return { metric, dimensions, unit, count: values.reduce((sum, v) => sum + v, 0) };
      const sorted = [...values].sort((a, b) => a - b);
      return {
        metric,
        dimensions,
        unit,
        count: sorted.length,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
      };
    });
}

const fileOption = {
  schema: FilePathOption.optional(),
  placeholder: 'PATH',
  description: `The log file (default ${LOCAL_LOG_FILE})`,
} as const;

export const logCommands: CommandTable = {
  'order trace': defineCommand({
    summary:
      "Every log line of one order's story, from the request that placed it to each webhook attempt (local stack's log)",
    options: {
      order: {
        schema: OrderIdOption,
        placeholder: 'ID',
        description: 'Order id, or its first 8 characters (23a38da1)',
      },
      file: fileOption,
    },
    localOnly: true,
    withoutStack: true,
    run: async (_deps, options) => {
      const all = readLogLines(options.file ?? LOCAL_LOG_FILE);
      const lines = traceOrder(all, orderIdInLog(all, options.order));
      return { json: lines, text: traceText(lines) };
    },
  }),
  metrics: defineCommand({
    summary: 'Counts and p50/p99 of each metric the local stack published (its EMF lines)',
    options: {
      since: {
        schema: DurationOption.optional(),
        placeholder: 'DURATION',
        description: 'How far back, e.g. 10m, 1h (default 10m)',
      },
      file: fileOption,
    },
    localOnly: true,
    withoutStack: true,
    run: async (_deps, options) => {
      const since = Date.now() - (options.since ?? 600) * 1000;
      const summary = summarizeMetrics(readLogLines(options.file ?? LOCAL_LOG_FILE), since);
      const ms = (value: number | undefined) => (value === undefined ? NONE : String(Math.round(value)));
      return {
        json: summary,
        text:
          summary.length === 0
            ? ['No metrics in that time']
            : tableLines(
                ['metric', 'dimensions', 'count', 'p50 ms', 'p99 ms'],
                summary.map((s) => [s.metric, s.dimensions || NONE, String(s.count), ms(s.p50), ms(s.p99)]),
              ),
      };
    },
  }),
};
