/**
 * CloudWatch Logs metric filters: those a stack declares (`AWS::Logs::MetricFilter`) and those
 * PutMetricFilter makes, kept as the same records beside the stacks' (`state/api-resources.json`),
 * as subscription filters are. Each event a filter's pattern matches publishes its metric
 * (LogMetricFilters): the metricValue a number, or `$.field` of a JSON event; a batch of events
 * none of which matched publishes the defaultValue, when there is one.
 */
import { AwsError } from '../protocol/errors';
import type { ResourceRecord } from '../cloudformation/model';
import type { DeployedResource, LocalServices } from '../service-interfaces';
import { compileFilterPattern, selectInEvent } from './filter-pattern';
import { GroupFilters } from './group-filters';
import type { LogEvent } from './store';

export const METRIC_FILTER = 'AWS::Logs::MetricFilter';

/** A log group has at most 100 metric filters (CloudWatch Logs quotas). */
const MAX_METRIC_FILTERS = 100;

interface MetricTransformation {
  metricName?: unknown;
  metricNamespace?: unknown;
  metricValue?: unknown;
  defaultValue?: unknown;
  dimensions?: unknown;
  unit?: unknown;
}

const filterName = (record: ResourceRecord) => String(record.properties.FilterName ?? record.physicalId);

export function metricFilters(cloud: LocalServices, group?: string): DeployedResource[] {
  return cloud.resources(METRIC_FILTER).filter(({ record }) => group === undefined || record.properties.LogGroupName === group);
}

/** A transformation as the API writes it (camelCase) from a record's, which is in CloudFormation's PascalCase. */
function transformations(record: ResourceRecord): Record<string, unknown>[] {
  const list = (record.properties.MetricTransformations as Record<string, unknown>[] | undefined) ?? [];
  return list.map((transformation) => ({
    metricName: transformation.MetricName,
    metricNamespace: transformation.MetricNamespace,
    metricValue: transformation.MetricValue,
    ...(transformation.DefaultValue !== undefined ? { defaultValue: Number(transformation.DefaultValue) } : {}),
    ...(transformation.Dimensions !== undefined
      ? { dimensions: Array.isArray(transformation.Dimensions) ? Object.fromEntries((transformation.Dimensions as { Key: string; Value: string }[]).map(({ Key, Value }) => [Key, Value])) : transformation.Dimensions }
      : {}),
    ...(transformation.Unit !== undefined ? { unit: transformation.Unit } : {}),
  }));
}

const invalid = (message: string) => new AwsError('InvalidParameterException', message);

/** PutMetricFilter: one metric transformation; putting a filter of the same name replaces it. */
export function putMetricFilter(cloud: LocalServices, input: Record<string, unknown>): void {
  const group = String(input.logGroupName ?? '');
  if (!cloud.logs.hasGroup(group)) throw new AwsError('ResourceNotFoundException', 'The specified log group does not exist.');
  const name = String(input.filterName ?? '');
  if (!/^[^:*]{1,512}$/.test(name)) throw invalid(`1 validation error detected: Value '${name}' at 'filterName' failed to satisfy constraint: Member must satisfy regular expression pattern: [^:*]*`);
  const pattern = String(input.filterPattern ?? '');
  compileFilterPattern(pattern);
  const list = input.metricTransformations as MetricTransformation[] | undefined;
  if (!Array.isArray(list) || list.length !== 1) throw invalid(`1 validation error detected: Value at 'metricTransformations' failed to satisfy constraint: Member must have length ${Array.isArray(list) && list.length > 1 ? 'less than or equal to 1' : 'greater than or equal to 1'}`);
  const [transformation] = list;
  for (const field of ['metricName', 'metricNamespace', 'metricValue'] as const) {
    if (typeof transformation[field] !== 'string' || transformation[field] === '') throw invalid(`1 validation error detected: Value null at 'metricTransformations.1.member.${field}' failed to satisfy constraint: Member must not be null`);
  }
  if (transformation.dimensions !== undefined && transformation.defaultValue !== undefined) throw invalid('Invalid metric transformation: dimensions and default value are mutually exclusive properties.');
  const existing = metricFilters(cloud, group);
  const same = existing.find(({ record }) => filterName(record) === name);
  if (same && !cloud.apiResources.find(METRIC_FILTER, same.record.physicalId)) throw invalid(`Metric filter ${name} belongs to a stack: change it in the template`);
  if (!same && existing.length >= MAX_METRIC_FILTERS) throw new AwsError('LimitExceededException', 'Resource limit exceeded.');
  if (same) cloud.apiResources.remove(METRIC_FILTER, same.record.physicalId);
  cloud.apiResources.add('us-east-1', METRIC_FILTER, `${group}:${name}`, {
    LogGroupName: group,
    FilterName: name,
    FilterPattern: pattern,
    MetricTransformations: [
      {
        MetricName: transformation.metricName,
        MetricNamespace: transformation.metricNamespace,
        MetricValue: transformation.metricValue,
        ...(transformation.defaultValue !== undefined ? { DefaultValue: Number(transformation.defaultValue) } : {}),
        ...(transformation.dimensions !== undefined ? { Dimensions: Object.entries(transformation.dimensions as Record<string, string>).map(([Key, Value]) => ({ Key, Value })) } : {}),
        ...(transformation.unit !== undefined ? { Unit: transformation.unit } : {}),
      },
    ],
  });
}

/**
 * DescribeMetricFilters: by logGroupName and filterNamePrefix (which needs the group), or by
 * metricName and metricNamespace (both), sorted by group then name, 50 a page at most.
 */
export function describeMetricFilters(cloud: LocalServices, input: Record<string, unknown>): Record<string, unknown> {
  const group = typeof input.logGroupName === 'string' ? input.logGroupName : undefined;
  const prefix = typeof input.filterNamePrefix === 'string' ? input.filterNamePrefix : undefined;
  if (prefix !== undefined && group === undefined) throw invalid('If you specify a filter name prefix, you must also specify a log group name.');
  if ((input.metricName === undefined) !== (input.metricNamespace === undefined)) throw invalid('If you specify a metric name or namespace, you must specify both.');
  if (group !== undefined && !cloud.logs.hasGroup(group)) throw new AwsError('ResourceNotFoundException', 'The specified log group does not exist.');
  const limit = input.limit === undefined ? 50 : Number(input.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 50) throw invalid(`1 validation error detected: Value '${String(input.limit)}' at 'limit' failed to satisfy constraint: Member must have value ${limit < 1 ? 'greater than or equal to 1' : 'less than or equal to 50'}`);
  const found = metricFilters(cloud, group)
    .filter(({ record }) => prefix === undefined || filterName(record).startsWith(prefix))
    .filter(({ record }) => input.metricName === undefined || transformations(record).some((t) => t.metricName === input.metricName && t.metricNamespace === input.metricNamespace))
    .sort((a, b) => {
      const left = [String(a.record.properties.LogGroupName), filterName(a.record)];
      const right = [String(b.record.properties.LogGroupName), filterName(b.record)];
      return left[0] === right[0] ? (left[1] < right[1] ? -1 : 1) : left[0] < right[0] ? -1 : 1;
    });
  const start = typeof input.nextToken === 'string' ? Number(input.nextToken) : 0;
  if (!Number.isInteger(start) || start < 0 || start > found.length) throw invalid('The specified nextToken is not valid.');
  const page = found.slice(start, start + limit);
  return {
    metricFilters: page.map(({ record }) => ({
      filterName: filterName(record),
      filterPattern: String(record.properties.FilterPattern ?? ''),
      metricTransformations: transformations(record),
      creationTime: Date.parse(record.timestamp),
      logGroupName: record.properties.LogGroupName,
    })),
    ...(start + limit < found.length ? { nextToken: String(start + limit) } : {}),
  };
}

/** DeleteMetricFilter: a filter PutMetricFilter made (a stack's is changed in its template). */
export function deleteMetricFilter(cloud: LocalServices, input: Record<string, unknown>): void {
  const group = String(input.logGroupName ?? '');
  if (!cloud.logs.hasGroup(group)) throw new AwsError('ResourceNotFoundException', 'The specified log group does not exist.');
  const found = metricFilters(cloud, group).find(({ record }) => filterName(record) === input.filterName);
  if (!found) throw new AwsError('ResourceNotFoundException', 'The specified metric filter does not exist.');
  if (!cloud.apiResources.remove(METRIC_FILTER, found.record.physicalId)) throw invalid(`Metric filter ${filterName(found.record)} belongs to a stack: remove it from the template`);
}

/** A deleted log group takes the metric filters PutMetricFilter gave it along. */
export function forgetMetricFilters(cloud: LocalServices, group: string): void {
  for (const { record } of metricFilters(cloud, group)) cloud.apiResources.remove(METRIC_FILTER, record.physicalId);
}

/** What a metric filter publishes: PutMetricData's input (CloudWatch's custom metrics). */
export type MetricSink = (input: { Namespace: string; MetricData: Record<string, unknown>[] }) => void;

/** Publishes the metrics of the metric filters of each group new events reach; read again after each stack or API change. */
export class LogMetricFilters {
  private readonly filters: GroupFilters;
  private readonly reported = new Set<string>();

  constructor(
    private readonly cloud: LocalServices,
    private readonly publish: MetricSink,
  ) {
    this.filters = new GroupFilters(cloud, METRIC_FILTER, (record, group) =>
      this.reportOnce(record, `Metric filter ${filterName(record)} on ${group} has a filter pattern the local cloud cannot read: it publishes nothing`),
    );
  }

  record(group: string, events: LogEvent[]): void {
    if (events.length === 0) return;
    for (const { record, matches } of this.filters.of(group)) {
      for (const transformation of transformations(record)) {
        const data: Record<string, unknown>[] = [];
        for (const event of events) {
          if (!matches(event.message)) continue;
          const value = this.valueOf(record, String(transformation.metricValue), event.message);
          if (value === undefined) continue;
          data.push(this.datum(transformation, value, event.timestamp, event.message));
        }
        if (data.length === 0 && transformation.defaultValue !== undefined) data.push(this.datum(transformation, Number(transformation.defaultValue), events[events.length - 1].timestamp));
        try {
          for (let start = 0; start < data.length; start += 1000) this.publish({ Namespace: String(transformation.metricNamespace), MetricData: data.slice(start, start + 1000) });
        } catch (error) {
          this.reportOnce(record, `Metric filter ${filterName(record)} on ${group} could not publish ${String(transformation.metricName)}: ${(error as Error).message}`);
        }
      }
    }
  }

  private valueOf(record: ResourceRecord, metricValue: string, message: string): number | undefined {
    if (/^-?\d+(\.\d+)?$/.test(metricValue.trim())) return Number(metricValue);
    if (metricValue.startsWith('$.')) {
      const value = Number(selectInEvent(message, metricValue));
      return Number.isFinite(value) ? value : undefined;
    }
    this.reportOnce(record, `not emulated: metric filter ${filterName(record)}'s metricValue ${metricValue} (the local cloud publishes numbers and $.field values of JSON events)`);
    return undefined;
  }

  private datum(transformation: Record<string, unknown>, value: number, timestamp: number, message?: string): Record<string, unknown> {
    const dimensions = Object.entries((transformation.dimensions as Record<string, string> | undefined) ?? {}).map(([Name, Value]) => ({
      Name,
      Value: Value.startsWith('$.') && message !== undefined ? String(selectInEvent(message, Value) ?? '') : Value,
    }));
    return { MetricName: String(transformation.metricName), Value: value, Timestamp: timestamp / 1000, ...(dimensions.length ? { Dimensions: dimensions } : {}), ...(transformation.unit ? { Unit: transformation.unit } : {}) };
  }

  private reportOnce(record: ResourceRecord, line: string): void {
    if (this.reported.has(record.physicalId + line)) return;
    this.reported.add(record.physicalId + line);
    this.cloud.log(line);
  }
}
