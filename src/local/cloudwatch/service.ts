import { AwsError } from '../protocol/errors';
import type { RuntimeServices } from '../service-interfaces';

import { jsonResponse, type LocalResponse } from '../http';
import type { CustomMetrics, Dimension } from './custom-metrics';
import type { QueryParams, QueryScalarTypes } from '../protocol/query';
import { flat } from '../protocol/xml';
import type { InvocationSample } from './invocation-metrics';
import { metricAlarm, type MetricAlarms, type StoredAlarm } from './alarms';
import { Dashboards, ShapedError } from './dashboards';

/** What the metrics API reads: the invocations the runtime recorded, what applications published, the alarms (their own and their stacks'). */
type MetricsServices = Pick<RuntimeServices, 'invocationMetrics' | 'accountId' | 'resources'> & { customMetrics: CustomMetrics; metricAlarms: MetricAlarms; dashboards: Dashboards };

const JSON_10 = 'application/x-amz-json-1.0';
const LAMBDA_METRICS = ['Invocations', 'Errors', 'Throttles', 'Duration'] as const;
type LambdaMetric = (typeof LAMBDA_METRICS)[number];

interface MetricQuery {
  namespace: string;
  metricName: string;
  dimensions: Dimension[];
  period: number;
}

/** The value each invocation adds to a metric: a count for Invocations, Errors and Throttles, milliseconds for Duration. */
function valueOf(sample: InvocationSample, metric: LambdaMetric): number | undefined {
  if (metric === 'Invocations') return sample.throttled ? undefined : 1;
  if (metric === 'Errors') return sample.throttled ? undefined : sample.error ? 1 : 0;
  if (metric === 'Throttles') return sample.throttled ? 1 : 0;
  return sample.throttled ? undefined : sample.durationMs;
}

/** A statistic over the values of one period: Sum, Average, Minimum, Maximum, SampleCount or a percentile (p50, p99, p99.9). */
export function statistic(values: number[], stat: string): number {
  if (stat === 'Sum') return values.reduce((a, b) => a + b, 0);
  if (stat === 'SampleCount') return values.length;
  if (stat === 'Average') return values.reduce((a, b) => a + b, 0) / values.length;
  if (stat === 'Minimum') return Math.min(...values);
  if (stat === 'Maximum') return Math.max(...values);
  const percentile = /^p(\d{1,2}(?:\.\d+)?|100)$/.exec(stat);
  if (!percentile) throw new AwsError('InvalidParameterValue', `The value ${stat} for parameter Stat is not supported by the local cloud (Sum, Average, Minimum, Maximum, SampleCount, pNN)`, 400);
  const sorted = [...values].sort((a, b) => a - b);
  // Nearest rank, as CloudWatch reports percentiles of raw samples.
  const rank = Math.max(1, Math.ceil((Number(percentile[1]) / 100) * sorted.length));
  return sorted[rank - 1];
}

/** Periods (start time → values) holding at least one value of the metric, oldest first; CloudWatch leaves out empty ones. */
function periods(cloud: MetricsServices, query: MetricQuery, start: number, end: number): Map<number, number[]> {
  const found = new Map<number, number[]>();
  const periodMs = query.period * 1000;
  // Periods start on whole seconds from StartTime, as CloudWatch's timestamps have no milliseconds.
  const base = Math.floor(start / 1000) * 1000;
  const add = (timestamp: number, value: number) => {
    const bucket = base + Math.floor((timestamp - base) / periodMs) * periodMs;
    found.set(bucket, [...(found.get(bucket) ?? []), value]);
  };
  if (query.namespace !== 'AWS/Lambda') {
    for (const { timestamp, value } of cloud.customMetrics.between(query.namespace, query.metricName, query.dimensions, start, end)) add(timestamp, value);
  } else if ((LAMBDA_METRICS as readonly string[]).includes(query.metricName)) {
    for (const sample of cloud.invocationMetrics.between(start, end, functionDimension(query.dimensions))) {
      const value = valueOf(sample, query.metricName as LambdaMetric);
      if (value !== undefined) add(sample.timestamp, value);
    }
  }
  return new Map([...found].sort((a, b) => a[0] - b[0]));
}

/** JSON protocol timestamps: seconds since the epoch (a number), or an ISO string. */
function time(value: unknown, name: string): number {
  const ms = typeof value === 'number' ? value * 1000 : typeof value === 'string' ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) throw new AwsError('MissingParameter', `The parameter ${name} is required.`, 400);
  return ms;
}

function period(value: unknown): number {
  const seconds = Number(value ?? 60);
  if (!Number.isInteger(seconds) || seconds <= 0 || (seconds >= 60 && seconds % 60 !== 0)) {
    throw new AwsError('InvalidParameterValue', `The parameter Period must be 1, 5, 10, 30 or a multiple of 60; got ${String(value)}.`, 400);
  }
  return seconds;
}

function functionDimension(dimensions: Dimension[]): string | undefined {
  return dimensions.find(d => d.Name === 'FunctionName')?.Value;
}

const dimensionsOf = (value: unknown): Dimension[] => (Array.isArray(value) ? (value as Dimension[]) : []);

/**
 * CloudWatch metrics, in both protocols CloudWatch speaks: GetMetricData and GetMetricStatistics
 * over the AWS/Lambda metrics the local runtime records per invocation (Invocations, Errors,
 * Throttles, Duration), per function (dimension FunctionName) or over all, and over the metrics
 * applications publish with PutMetricData; ListMetrics names them all; PutMetricAlarm,
 * DescribeAlarms and DeleteAlarms keep and describe alarms (never evaluated). Each operation
 * answers with times as Dates, which each protocol writes its way.
 */
function metricsOperation(cloud: MetricsServices, operation: string, input: Record<string, unknown>): Record<string, unknown> {
  switch (operation) {
    case 'GetMetricData': {
      const start = time(input.StartTime, 'StartTime');
      const end = time(input.EndTime, 'EndTime');
      const queries = (input.MetricDataQueries as Array<Record<string, unknown>> | undefined) ?? [];
      const results = queries
        .filter(query => query.ReturnData !== false)
        .map(query => {
          const stat = query.MetricStat as { Metric?: { Namespace?: string; MetricName?: string; Dimensions?: unknown }; Period?: number; Stat?: string } | undefined;
          if (!stat?.Metric) throw new AwsError('InvalidParameterValue', `The local cloud answers MetricStat queries only (query ${String(query.Id)} has none).`, 400);
          const found = periods(cloud, { namespace: String(stat.Metric.Namespace), metricName: String(stat.Metric.MetricName), dimensions: dimensionsOf(stat.Metric.Dimensions), period: period(stat.Period) }, start, end);
          // Newest first, as GetMetricData's default ScanBy (TimestampDescending).
          const points = [...found].reverse();
          return {
            Id: query.Id,
            Label: query.Label ?? stat.Metric.MetricName,
            Timestamps: points.map(([at]) => new Date(at)),
            Values: points.map(([, values]) => statistic(values, String(stat.Stat))),
            StatusCode: 'Complete',
          };
        });
      return { MetricDataResults: results, Messages: [] };
    }
    case 'GetMetricStatistics':
      return metricStatistics(cloud, input);
    case 'PutMetricData':
      cloud.customMetrics.put(input);
      return {};
    case 'ListMetrics': {
      const functions = new Set(cloud.invocationMetrics.between(0, Date.now() + 1).map((sample) => sample.functionName));
      const lambda = [...functions].flatMap((name) => LAMBDA_METRICS.map((MetricName) => ({ Namespace: 'AWS/Lambda', MetricName, Dimensions: [{ Name: 'FunctionName', Value: name }] })));
      const wanted = dimensionsOf(input.Dimensions);
      const metrics = [...lambda, ...cloud.customMetrics.metrics()].filter(
        (metric) =>
          (input.Namespace === undefined || metric.Namespace === input.Namespace) &&
          (input.MetricName === undefined || metric.MetricName === input.MetricName) &&
          wanted.every((want) => metric.Dimensions.some((d) => d.Name === want.Name && (want.Value === undefined || d.Value === want.Value))),
      );
      return { Metrics: metrics };
    }
    case 'PutMetricAlarm':
      cloud.metricAlarms.put(input, cloud.accountId);
      return {};
    case 'DeleteAlarms':
      cloud.metricAlarms.delete(Array.isArray(input.AlarmNames) ? input.AlarmNames.map(String) : []);
      return {};
    case 'DescribeAlarms':
      return describeAlarms(cloud, input);
    case 'DescribeAlarmsForMetric':
      return describeAlarmsForMetric(cloud, input);
    case 'SetAlarmState': {
      const name = String(input.AlarmName ?? '');
      if (!allAlarms(cloud).some((alarm) => alarm.AlarmName === name)) throw new ShapedError('ResourceNotFound', 'ResourceNotFound', `Alarm ${name} not found`);
      cloud.metricAlarms.setState(name, input);
      return {};
    }
    case 'PutDashboard':
      cloud.dashboards.put(input.DashboardName, input.DashboardBody);
      return { DashboardValidationMessages: [] };
    case 'GetDashboard': {
      const dashboard = cloud.dashboards.get(input.DashboardName);
      return { DashboardArn: dashboardArn(cloud, dashboard.DashboardName), DashboardBody: dashboard.DashboardBody, DashboardName: dashboard.DashboardName };
    }
    case 'ListDashboards':
      return listDashboards(cloud, input);
    case 'DeleteDashboards':
      cloud.dashboards.delete(Array.isArray(input.DashboardNames) ? input.DashboardNames.map(String) : []);
      return {};
    default:
      throw new AwsError('UnknownOperationException', `not emulated: CloudWatch ${operation} (the local cloud serves ${SERVED.join(', ')})`, 400);
  }
}

const SERVED = [
  'DeleteAlarms', 'DeleteDashboards', 'DescribeAlarms', 'DescribeAlarmsForMetric', 'GetDashboard', 'GetMetricData', 'GetMetricStatistics',
  'ListDashboards', 'ListMetrics', 'PutDashboard', 'PutMetricAlarm', 'PutMetricData', 'SetAlarmState',
];

/** Dashboards are global: no region in their ARN. */
const dashboardArn = (cloud: MetricsServices, name: string) => `arn:aws:cloudwatch::${cloud.accountId}:dashboard/${name}`;

/** ListDashboards: by DashboardNamePrefix, 1000 a page as AWS pages them. */
function listDashboards(cloud: MetricsServices, input: Record<string, unknown>): Record<string, unknown> {
  const all = cloud.dashboards.list(typeof input.DashboardNamePrefix === 'string' ? input.DashboardNamePrefix : '');
  const start = typeof input.NextToken === 'string' ? Number(input.NextToken) : 0;
  if (!Number.isInteger(start) || start < 0 || start > all.length) throw new AwsError('InvalidNextToken', 'The service returned an invalid NextToken.', 400);
  const page = all.slice(start, start + 1000);
  return {
    DashboardEntries: page.map((dashboard) => ({ DashboardName: dashboard.DashboardName, DashboardArn: dashboardArn(cloud, dashboard.DashboardName), LastModified: new Date(dashboard.LastModified), Size: Buffer.byteLength(dashboard.DashboardBody) })),
    ...(start + 1000 < all.length ? { NextToken: String(start + 1000) } : {}),
  };
}

/** PutMetricAlarm's alarms and those stacks declare (`AWS::CloudWatch::Alarm`, recorded only: named by their AlarmName, else their physical id). */
function allAlarms(cloud: MetricsServices): StoredAlarm[] {
  const declared = cloud.resources('AWS::CloudWatch::Alarm').map(({ record }): StoredAlarm => {
    const name = typeof record.properties.AlarmName === 'string' ? record.properties.AlarmName : record.physicalId;
    return {
      AlarmName: name,
      AlarmArn: `arn:aws:cloudwatch:us-east-1:${cloud.accountId}:alarm:${name}`,
      configuredAt: Date.parse(record.timestamp),
      stateAt: Date.parse(record.timestamp),
      settings: record.properties,
    };
  });
  return [...declared, ...cloud.metricAlarms.list()].sort((a, b) => (a.AlarmName < b.AlarmName ? -1 : 1));
}

/** DescribeAlarmsForMetric: the alarms on one metric (Namespace and MetricName), narrowed by the other members given. */
function describeAlarmsForMetric(cloud: MetricsServices, input: Record<string, unknown>): Record<string, unknown> {
  if (input.MetricName === undefined) throw new AwsError('MissingParameter', 'The parameter MetricName is required.', 400);
  if (input.Namespace === undefined) throw new AwsError('MissingParameter', 'The parameter Namespace is required.', 400);
  const sameDimensions = (settings: Record<string, unknown>) => {
    const own = dimensionsOf(settings.Dimensions);
    const wanted = dimensionsOf(input.Dimensions);
    return own.length === wanted.length && wanted.every((want) => own.some((d) => d.Name === want.Name && d.Value === want.Value));
  };
  const alarms = allAlarms(cloud).filter(
    ({ settings }) =>
      settings.MetricName === input.MetricName &&
      settings.Namespace === input.Namespace &&
      (input.Dimensions === undefined || sameDimensions(settings)) &&
      ['Statistic', 'ExtendedStatistic', 'Unit'].every((key) => input[key] === undefined || settings[key] === input[key]) &&
      (input.Period === undefined || Number(settings.Period) === Number(input.Period)),
  );
  return { MetricAlarms: alarms.map((alarm) => metricAlarm(alarm, cloud.metricAlarms.stateOf(alarm.AlarmName))) };
}

/**
 * DescribeAlarms over PutMetricAlarm's alarms and those stacks declare (`AWS::CloudWatch::Alarm`, recorded
 * only: named by their AlarmName, else their physical id), by name, prefix, state or action prefix;
 * composite alarms are none.
 */
function describeAlarms(cloud: MetricsServices, input: Record<string, unknown>): Record<string, unknown> {
  const names = Array.isArray(input.AlarmNames) ? input.AlarmNames.map(String) : undefined;
  const prefix = typeof input.AlarmNamePrefix === 'string' ? input.AlarmNamePrefix : '';
  const actionPrefix = typeof input.ActionPrefix === 'string' ? input.ActionPrefix : undefined;
  const types = Array.isArray(input.AlarmTypes) ? input.AlarmTypes.map(String) : ['MetricAlarm'];
  const alarms = allAlarms(cloud)
    .filter((alarm) => (names === undefined || names.includes(alarm.AlarmName)) && alarm.AlarmName.startsWith(prefix))
    // An alarm is in INSUFFICIENT_DATA (none is evaluated) unless SetAlarmState set another state.
    .filter((alarm) => input.StateValue === undefined || input.StateValue === (cloud.metricAlarms.stateOf(alarm.AlarmName)?.value ?? 'INSUFFICIENT_DATA'))
    .filter((alarm) => actionPrefix === undefined || ['OKActions', 'AlarmActions', 'InsufficientDataActions'].some((key) => ((alarm.settings[key] as string[] | undefined) ?? []).some((action) => String(action).startsWith(actionPrefix))));
  return { MetricAlarms: types.includes('MetricAlarm') ? alarms.map((alarm) => metricAlarm(alarm, cloud.metricAlarms.stateOf(alarm.AlarmName))) : [], CompositeAlarms: [] };
}

/** GetMetricStatistics' answer. */
function metricStatistics(cloud: MetricsServices, input: Record<string, unknown>): Record<string, unknown> {
  const start = time(input.StartTime, 'StartTime');
  const end = time(input.EndTime, 'EndTime');
  const stats = [...((input.Statistics as string[] | undefined) ?? []), ...((input.ExtendedStatistics as string[] | undefined) ?? [])];
  if (stats.length === 0) throw new AwsError('MissingParameter', 'Statistics or ExtendedStatistics must be given.', 400);
  const found = periods(cloud, { namespace: String(input.Namespace), metricName: String(input.MetricName), dimensions: dimensionsOf(input.Dimensions), period: period(input.Period) }, start, end);
  const datapoints = [...found].map(([at, values]) => {
    const unit = input.Namespace === 'AWS/Lambda' ? (input.MetricName === 'Duration' ? 'Milliseconds' : 'Count') : (cloud.customMetrics.unit(String(input.Namespace), String(input.MetricName)) ?? 'None');
    const point: Record<string, unknown> = { Timestamp: new Date(at), Unit: unit };
    for (const stat of (input.Statistics as string[] | undefined) ?? []) point[stat] = statistic(values, stat);
    const extended = (input.ExtendedStatistics as string[] | undefined) ?? [];
    if (extended.length > 0) point.ExtendedStatistics = Object.fromEntries(extended.map(stat => [stat, statistic(values, stat)]));
    return point;
  });
  return { Label: input.MetricName, Datapoints: datapoints };
}

/** CloudWatch's JSON protocol (AWS JSON 1.0, target GraniteServiceVersion20100801; SDK v3, recent botocore). */
export function cloudWatchApi(cloud: MetricsServices, operation: string, input: Record<string, unknown>): LocalResponse {
  try {
    return jsonResponse(epochSeconds(metricsOperation(cloud, operation, input)), 200, JSON_10);
  } catch (error) {
    const shape = error instanceof ShapedError ? error.shape : error instanceof AwsError ? QUERY_ERROR_SHAPES[error.code] : undefined;
    if (!(error instanceof AwsError) || !shape) throw error;
    // CloudWatch speaks JSON but is "awsQueryCompatible": the modeled shape in __type, the query protocol's code in a header.
    return {
      status: error.status,
      headers: { 'content-type': JSON_10, 'x-amzn-query-error': `${error.code};Sender` },
      body: JSON.stringify({ __type: `com.amazonaws.cloudwatch#${shape}`, message: error.message }),
    };
  }
}

/** Query error codes → the error shapes of CloudWatch's JSON model. */
const QUERY_ERROR_SHAPES: Record<string, string> = {
  InvalidParameterValue: 'InvalidParameterValueException',
  MissingParameter: 'MissingRequiredParameterException',
  InvalidFormat: 'InvalidFormatFault',
  InvalidNextToken: 'InvalidNextToken',
};

/** JSON protocol timestamps: seconds since the epoch. */
function epochSeconds(value: unknown): unknown {
  if (value instanceof Date) return value.getTime() / 1000;
  if (Array.isArray(value)) return value.map(epochSeconds);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, epochSeconds(child)]));
  return value;
}

/** The members of CloudWatch's inputs that are numbers or booleans (AWS API reference: MetricDatum, StatisticSet, MetricDataQuery, MetricStat). */
const QUERY_TYPES: QueryScalarTypes = {
  numbers: new Set([
    ...['Value', 'Values', 'Counts', 'StorageResolution', 'StatisticValues.SampleCount', 'StatisticValues.Sum', 'StatisticValues.Minimum', 'StatisticValues.Maximum'].map((field) => `MetricData.${field}`),
    'Period',
    'MaxDatapoints',
    'MetricDataQueries.Period',
    'MetricDataQueries.MetricStat.Period',
    // PutMetricAlarm and DescribeAlarms
    'EvaluationPeriods',
    'DatapointsToAlarm',
    'Threshold',
    'MaxRecords',
    'Metrics.Period',
    'Metrics.MetricStat.Period',
  ]),
  booleans: new Set(['MetricDataQueries.ReturnData', 'StrictEntityValidation', 'IncludeLinkedAccounts', 'ActionsEnabled', 'Metrics.ReturnData']),
};

/** The members of CloudWatch's outputs that are maps, written as `<entry><key/><value/></entry>` in XML. */
const MAP_OUTPUTS = new Set(['ExtendedStatistics']);

function queryMaps(value: unknown, name = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => queryMaps(item, name));
  if (!value || typeof value !== 'object' || value instanceof Date) return value;
  if (MAP_OUTPUTS.has(name)) return { entry: flat(Object.entries(value).map(([key, child]) => ({ key, value: child }))) };
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, queryMaps(child, key)]));
}

/**
 * CloudWatch's query protocol (Version 2010-08-01, what the AWS SDK for JavaScript v2 and older
 * botocore send): the form's members decoded into the JSON protocol's input, the same operations,
 * the answer in the query protocol's XML as AWS writes it.
 */
export function cloudWatchQuery(cloud: MetricsServices, params: QueryParams): Record<string, unknown> {
  try {
    return queryMaps(metricsOperation(cloud, params.action, params.input(QUERY_TYPES))) as Record<string, unknown>;
  } catch (error) {
    // The query protocol's code for an operation it does not know.
    if (error instanceof AwsError && error.code === 'UnknownOperationException') throw new AwsError('InvalidAction', error.message, 400);
    throw error;
  }
}
