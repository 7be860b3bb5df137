import type { MetricDimensions, MetricName, Metrics } from '../../functions/domain/metrics';

interface RecordedMetric {
  readonly name: MetricName;
  readonly kind: 'count' | 'observe';
  readonly value: number;
  readonly dimensions: MetricDimensions;
  /** Whether a flush has published it. */
  flushed: boolean;
}

/** The in-memory Metrics: what was recorded, and whether a flush came after it. */
export interface RecordingMetrics extends Metrics {
  readonly recorded: RecordedMetric[];
  /** The sum of a count (or the number of observations) matching the dimensions given. */
  total(name: MetricName, dimensions?: MetricDimensions): number;
}

export function recordingMetrics(): RecordingMetrics {
  const recorded: RecordedMetric[] = [];
  const matches = (metric: RecordedMetric, name: MetricName, dimensions: MetricDimensions) =>
    metric.name === name && Object.entries(dimensions).every(([key, value]) => metric.dimensions[key] === value);
  return {
    recorded,
    count: (name, dimensions = {}, value = 1) =>
      recorded.push({ name, kind: 'count', value, dimensions, flushed: false }),
    observe: (name, milliseconds, dimensions = {}) =>
      recorded.push({ name, kind: 'observe', value: milliseconds, dimensions, flushed: false }),
    flush: () => recorded.forEach((metric) => (metric.flushed = true)),
    total: (name, dimensions = {}) =>
      recorded
        .filter((metric) => matches(metric, name, dimensions))
        .reduce((sum, metric) => sum + (metric.kind === 'count' ? metric.value : 1), 0),
  };
}
