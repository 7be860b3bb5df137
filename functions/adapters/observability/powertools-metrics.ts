import { Metrics as PowertoolsMetrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { MetricDimensions, MetricName, Metrics } from '../../domain/metrics';

type Unit = (typeof MetricUnit)[keyof typeof MetricUnit];

/** EMF allows 100 values per metric in one line; Powertools prints the line itself when a metric reaches 100, so 99. */
const MAX_VALUES_PER_LINE = 99;

interface Group {
  readonly dimensions: MetricDimensions;
  readonly counts: Map<MetricName, number>;
  readonly observations: Map<MetricName, number[]>;
}

export interface PowertoolsMetricsOptions {
  /** The CloudWatch namespace (METRICS_NAMESPACE). */
  readonly namespace: string;
  /** The `service` dimension Powertools puts on every metric: the stack's resource prefix, so stages never mix. */
  readonly service: string;
  /** Where an EMF line goes: stdout (Lambda sends it to CloudWatch), or the local stack's log. */
  readonly write?: (line: string) => void;
}

/**
 * The Metrics port on Powertools Metrics (CloudWatch Embedded Metric Format). One EMF
 * line has one set of dimensions, so what an invocation records is kept by dimensions
 * and, on `flush`, each set becomes one line: counts summed, durations as a list of
 * values (CloudWatch computes percentiles from them).
 */
export function powertoolsMetrics(options: PowertoolsMetricsOptions): Metrics {
  const emf = new PowertoolsMetrics({ namespace: options.namespace, serviceName: options.service });
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const groups = new Map<string, Group>();
  const group = (dimensions: MetricDimensions = {}): Group => {
    const key = JSON.stringify(Object.entries(dimensions).sort(([a], [b]) => a.localeCompare(b)));
    let found = groups.get(key);
    if (!found) groups.set(key, (found = { dimensions, counts: new Map(), observations: new Map() }));
    return found;
  };
  const line = (dimensions: MetricDimensions, metrics: [MetricName, Unit, number][]) => {
    for (const [name, value] of Object.entries(dimensions)) emf.addDimension(name, value);
    for (const [name, unit, value] of metrics) emf.addMetric(name, unit, value);
    try {
      write(JSON.stringify(emf.serializeMetrics()));
    } finally {
      emf.clearMetrics();
      emf.clearDimensions();
    }
  };
  return {
    count: (name, dimensions, value = 1) => {
      const { counts } = group(dimensions);
      counts.set(name, (counts.get(name) ?? 0) + value);
    },
    observe: (name, milliseconds, dimensions) => {
      const { observations } = group(dimensions);
      observations.set(name, [...(observations.get(name) ?? []), milliseconds]);
    },
    flush: () => {
      const pending = [...groups.values()];
      groups.clear();
      for (const { dimensions, counts, observations } of pending) {
        const first: [MetricName, Unit, number][] = [...counts].map(([name, value]) => [name, MetricUnit.Count, value]);
        // Each further line carries the next 99 values of each duration.
        for (
          let offset = 0;
          offset === 0 || [...observations.values()].some((values) => values.length > offset);
          offset += MAX_VALUES_PER_LINE
        ) {
          const metrics = offset === 0 ? [...first] : [];
          for (const [name, values] of observations) {
            for (const value of values.slice(offset, offset + MAX_VALUES_PER_LINE))
              metrics.push([name, MetricUnit.Milliseconds, value]);
          }
          if (metrics.length > 0) line(dimensions, metrics);
        }
      }
    },
  };
}
