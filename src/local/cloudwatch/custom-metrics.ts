import { join } from 'node:path';
import { AwsError } from '../protocol/errors';
import { appendJsonLine, readJsonLines } from '../state/json-lines';

/**
 * Metrics an application publishes with PutMetricData: each datum kept as samples (a Value, or
 * Values with Counts, or a StatisticSet's average over its SampleCount), appended to
 * state/custom-metrics.jsonl so a restart keeps them, for two weeks at most (CloudWatch keeps
 * one-minute data 15 days).
 */

export interface Dimension {
  Name: string;
  Value: string;
}

export interface MetricSample {
  namespace: string;
  metricName: string;
  dimensions: Dimension[];
  timestamp: number;
  unit?: string;
  values: number[];
}

const RETENTION_MS = 15 * 24 * 60 * 60 * 1000;
/** CloudWatch's limits on one PutMetricData call (AWS documentation, "PutMetricData"). */
const MAX_DATA = 1000;
const MAX_DIMENSIONS = 30;

const invalid = (message: string) => new AwsError('InvalidParameterValue', message, 400);
const missing = (message: string) => new AwsError('MissingParameter', message, 400);

const sameDimensions = (a: Dimension[], b: Dimension[]) => a.length === b.length && a.every((d) => b.some((e) => e.Name === d.Name && e.Value === d.Value));

export class CustomMetrics {
  private readonly file: string;
  private samples: MetricSample[];

  constructor(dataDir: string) {
    this.file = join(dataDir, 'state', 'custom-metrics.jsonl');
    const since = Date.now() - RETENTION_MS;
    this.samples = readJsonLines<MetricSample>(this.file).filter((sample) => sample.timestamp >= since);
  }

  /** PutMetricData's input, checked as CloudWatch checks it, then kept. */
  put(input: Record<string, unknown>): void {
    const namespace = input.Namespace;
    if (typeof namespace !== 'string' || namespace === '') throw missing('The parameter Namespace is required.');
    if (namespace.startsWith('AWS/')) throw invalid('The value AWS/ for parameter Namespace is invalid.');
    const data = input.MetricData;
    if (!Array.isArray(data) || data.length === 0) throw missing('The parameter MetricData is required.');
    if (data.length > MAX_DATA) throw invalid(`The collection MetricData must not have a size greater than ${MAX_DATA}.`);
    const now = Date.now();
    const samples = data.map((datum: Record<string, unknown>, index): MetricSample => {
      const member = `MetricData.member.${index + 1}`;
      if (typeof datum.MetricName !== 'string' || datum.MetricName === '') throw missing(`The parameter ${member}.MetricName is required.`);
      const dimensions = (Array.isArray(datum.Dimensions) ? datum.Dimensions : []) as Dimension[];
      if (dimensions.length > MAX_DIMENSIONS) throw invalid(`The collection ${member}.Dimensions must not have a size greater than ${MAX_DIMENSIONS}.`);
      const timestamp = datum.Timestamp === undefined ? now : typeof datum.Timestamp === 'number' ? datum.Timestamp * 1000 : Date.parse(String(datum.Timestamp));
      if (!Number.isFinite(timestamp)) throw invalid(`The parameter ${member}.Timestamp must be a timestamp.`);
      return { namespace, metricName: datum.MetricName, dimensions: dimensions.map(({ Name, Value }) => ({ Name, Value })), timestamp, unit: datum.Unit as string | undefined, values: valuesOf(datum, member) };
    });
    for (const sample of samples) appendJsonLine(this.file, sample);
    this.samples.push(...samples);
  }

  /** Values of one metric (its dimensions exactly, as CloudWatch matches them) between two times, with their times. */
  between(namespace: string, metricName: string, dimensions: Dimension[], start: number, end: number): { timestamp: number; value: number }[] {
    return this.samples
      .filter((sample) => sample.namespace === namespace && sample.metricName === metricName && sample.timestamp >= start && sample.timestamp < end && sameDimensions(sample.dimensions, dimensions))
      .flatMap((sample) => sample.values.map((value) => ({ timestamp: sample.timestamp, value })));
  }

  /** The unit a metric was published with (its latest sample's). */
  unit(namespace: string, metricName: string): string | undefined {
    for (let i = this.samples.length - 1; i >= 0; i--) {
      if (this.samples[i].namespace === namespace && this.samples[i].metricName === metricName) return this.samples[i].unit;
    }
    return undefined;
  }

  /** Every metric (namespace, name, dimensions) published, once each. */
  metrics(): { Namespace: string; MetricName: string; Dimensions: Dimension[] }[] {
    const seen = new Map<string, { Namespace: string; MetricName: string; Dimensions: Dimension[] }>();
    for (const sample of this.samples) {
      const dimensions = [...sample.dimensions].sort((a, b) => (a.Name < b.Name ? -1 : 1));
      seen.set(JSON.stringify([sample.namespace, sample.metricName, dimensions]), { Namespace: sample.namespace, MetricName: sample.metricName, Dimensions: dimensions });
    }
    return [...seen.values()];
  }
}

/** A datum's samples: Value; Values repeated by Counts; or a StatisticSet's SampleCount samples of its average (Sum and SampleCount hold). */
function valuesOf(datum: Record<string, unknown>, member: string): number[] {
  if (datum.Value !== undefined) return [Number(datum.Value)];
  if (Array.isArray(datum.Values)) {
    const counts = Array.isArray(datum.Counts) ? (datum.Counts as number[]) : [];
    if (counts.length > 0 && counts.length !== datum.Values.length) throw invalid(`The parameters ${member}.Values and ${member}.Counts must be of the same size.`);
    return (datum.Values as number[]).flatMap((value, i) => Array<number>(Math.max(1, Math.round(counts[i] ?? 1))).fill(Number(value)));
  }
  const set = datum.StatisticValues as { SampleCount?: number; Sum?: number; Minimum?: number; Maximum?: number } | undefined;
  if (set && typeof set.SampleCount === 'number' && typeof set.Sum === 'number') {
    const count = Math.max(1, Math.round(set.SampleCount));
    return Array<number>(count).fill(set.Sum / count);
  }
  throw missing(`At least one of the parameters ${member}.Value, ${member}.Values or ${member}.StatisticValues must be specified.`);
}
