import { GetMetricDataCommand, type CloudWatchClient, type MetricDataQuery } from '@aws-sdk/client-cloudwatch';

/** A function's (or the whole service's) Lambda metrics over a time range. */
export interface FunctionMetrics {
  label: string;
  invocations: number;
  errors: number;
  throttles: number;
  /** Milliseconds; undefined when nothing ran. */
  durationAverage?: number;
  durationP50?: number;
  durationP99?: number;
}

const QUERIES: Array<[string, string, string]> = [
  ['invocations', 'Invocations', 'Sum'],
  ['errors', 'Errors', 'Sum'],
  ['throttles', 'Throttles', 'Sum'],
  ['durationAverage', 'Duration', 'Average'],
  ['durationP50', 'Duration', 'p50'],
  ['durationP99', 'Duration', 'p99'],
];

/**
 * The AWS/Lambda metrics of each function (by deployed name) over [start, end], from CloudWatch
 * GetMetricData with one period covering the whole range: sums of Invocations, Errors and Throttles,
 * Duration's average, p50 and p99.
 */
export async function functionMetrics(cloudWatch: CloudWatchClient, functions: Array<{ label: string; name: string }>, start: Date, end: Date): Promise<FunctionMetrics[]> {
  const period = Math.max(60, Math.ceil((end.getTime() - start.getTime()) / 1000 / 60) * 60);
  const queries: MetricDataQuery[] = functions.flatMap((fn, i) =>
    QUERIES.map(([field, metric, stat]) => ({
      Id: `f${i}_${field}`,
      MetricStat: { Metric: { Namespace: 'AWS/Lambda', MetricName: metric, Dimensions: [{ Name: 'FunctionName', Value: fn.name }] }, Period: period, Stat: stat },
    })),
  );
  const values = new Map<string, number[]>();
  for (let offset = 0; offset < queries.length; offset += 500) {
    let token: string | undefined;
    do {
      const page = await cloudWatch.send(new GetMetricDataCommand({ MetricDataQueries: queries.slice(offset, offset + 500), StartTime: start, EndTime: end, NextToken: token }));
      for (const result of page.MetricDataResults ?? []) values.set(result.Id!, [...(values.get(result.Id!) ?? []), ...(result.Values ?? [])]);
      token = page.NextToken;
    } while (token);
  }
  return functions.map((fn, i) => {
    const of = (field: string) => values.get(`f${i}_${field}`) ?? [];
    const sum = (field: string) => of(field).reduce((a, b) => a + b, 0);
    const first = (field: string) => of(field)[0];
    return {
      label: fn.label,
      invocations: sum('invocations'),
      errors: sum('errors'),
      throttles: sum('throttles'),
      durationAverage: first('durationAverage'),
      durationP50: first('durationP50'),
      durationP99: first('durationP99'),
    };
  });
}

/** The service-wide row: counts summed, the average weighted by invocations; percentiles cannot be combined. */
export function serviceTotal(rows: FunctionMetrics[]): FunctionMetrics {
  const invocations = rows.reduce((a, row) => a + row.invocations, 0);
  const weighted = rows.reduce((a, row) => a + (row.durationAverage ?? 0) * row.invocations, 0);
  return {
    label: 'service',
    invocations,
    errors: rows.reduce((a, row) => a + row.errors, 0),
    throttles: rows.reduce((a, row) => a + row.throttles, 0),
    durationAverage: invocations > 0 ? weighted / invocations : undefined,
  };
}

/** The metrics as a table: one row per function (and the service's total). */
export function formatMetrics(rows: FunctionMetrics[]): string {
  const ms = (value: number | undefined) => (value === undefined ? '-' : `${Number(value.toFixed(2))} ms`);
  const table = [
    ['function', 'invocations', 'errors', 'throttles', 'duration (avg.)', 'duration p50', 'duration p99'],
    ...rows.map(row => [row.label, String(row.invocations), String(row.errors), String(row.throttles), ms(row.durationAverage), ms(row.durationP50), ms(row.durationP99)]),
  ];
  const widths = table[0].map((_, column) => Math.max(...table.map(row => row[column].length)));
  return table.map(row => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ').trimEnd()).join('\n') + '\n';
}
