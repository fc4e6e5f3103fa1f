import { randomUUID } from 'node:crypto';
import { AwsError } from '../protocol/errors';
import type { DeployedResource, LocalServices } from '../service-interfaces';
import { jsonResponse, type LocalResponse } from '../http';
import { compileFilterPattern } from './filter-pattern';
import { LogStore } from './store';
import { SUBSCRIPTION_FILTER } from './subscriptions';
import { deleteMetricFilter, describeMetricFilters, forgetMetricFilters, metricFilters, putMetricFilter } from './metric-filters';
import type { ResourceRecord } from '../cloudformation/model';
import { declaredTags, tagMap, type TagMap } from '../state/resource-tags';

const JSON_11 = 'application/x-amz-json-1.1';
const RETENTION_DAYS = [1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653];

function groupMustExist(cloud: LocalServices, name: string): void {
  if (!cloud.logs.hasGroup(name)) throw new AwsError('ResourceNotFoundException', 'The specified log group does not exist.');
}

/** A log group's ARN as tagging names it (DescribeLogGroups' `arn` without its `:*`). */
const groupArn = (cloud: LocalServices, name: string) => `arn:aws:logs:us-east-1:${cloud.accountId}:log-group:${name}`;

/** The log group a tagging call's resourceArn names. */
function taggedGroupArn(cloud: LocalServices, arn: unknown): string {
  const name = typeof arn === 'string' ? /^arn:aws[a-z-]*:logs:[^:]*:\d{12}:log-group:([^:]+)(?::\*)?$/.exec(arn)?.[1] : undefined;
  if (name === undefined) throw new AwsError('InvalidParameterException', `Invalid resource ARN: ${String(arn)}`);
  groupMustExist(cloud, name);
  return groupArn(cloud, name);
}

/** A log group's tags: its stack's or CreateLogGroup's, under the tagging calls'. */
function groupTags(cloud: LocalServices, arn: string): TagMap {
  const name = arn.split(':log-group:')[1];
  const deployed = cloud.resources('AWS::Logs::LogGroup').find(({ record }) => record.physicalId === name);
  return cloud.tags.of(arn, deployed ? declaredTags(deployed) : {});
}

const filterName = (record: ResourceRecord) => String(record.properties.FilterName ?? record.physicalId);

function subscriptionFilters(cloud: LocalServices, group: string): DeployedResource[] {
  return cloud.resources(SUBSCRIPTION_FILTER).filter(({ record }) => record.properties.LogGroupName === group);
}

/** A group has at most two subscription filters (CloudWatch Logs quotas); putting one of the same name replaces it. */
const MAX_SUBSCRIPTION_FILTERS = 2;

/** PutSubscriptionFilter: kept as an `AWS::Logs::SubscriptionFilter` record beside the stacks' ones, which logs/subscriptions.ts delivers through. */
function putSubscriptionFilter(cloud: LocalServices, input: Record<string, unknown>): void {
  const group = String(input.logGroupName ?? '');
  groupMustExist(cloud, group);
  const name = String(input.filterName ?? '');
  if (!/^[^:*]{1,512}$/.test(name)) throw new AwsError('InvalidParameterException', `1 validation error detected: Value '${name}' at 'filterName' failed to satisfy constraint: Member must satisfy regular expression pattern: [^:*]*`);
  const pattern = String(input.filterPattern ?? '');
  compileFilterPattern(pattern);
  const destination = String(input.destinationArn ?? '');
  if (destination.split(':')[2] !== 'lambda') {
    throw new AwsError('InvalidParameterException', `not emulated: CloudWatch Logs subscription filters delivering to ${destination} (the local cloud delivers to Lambda functions)`);
  }
  try {
    cloud.functions.record(destination);
  } catch {
    throw new AwsError('InvalidParameterException', 'Could not execute the lambda function. Make sure you have given CloudWatch Logs permission to execute your function.');
  }
  const existing = subscriptionFilters(cloud, group);
  const same = existing.find(({ record }) => filterName(record) === name);
  if (same && !cloud.apiResources.find(SUBSCRIPTION_FILTER, same.record.physicalId)) throw new AwsError('InvalidParameterException', `Subscription filter ${name} belongs to a stack: change it in the template`);
  if (!same && existing.length >= MAX_SUBSCRIPTION_FILTERS) throw new AwsError('LimitExceededException', 'Resource limit exceeded.');
  if (same) cloud.apiResources.remove(SUBSCRIPTION_FILTER, same.record.physicalId);
  const properties = {
    LogGroupName: group,
    FilterName: name,
    FilterPattern: pattern,
    DestinationArn: destination,
    ...(typeof input.roleArn === 'string' ? { RoleArn: input.roleArn } : {}),
    ...(typeof input.distribution === 'string' ? { Distribution: input.distribution } : {}),
  };
  cloud.apiResources.add('us-east-1', SUBSCRIPTION_FILTER, `${group}:${name}`, properties);
  cloud.afterStackChange();
}

/** CloudWatch Logs (JSON 1.1): what `fw logs` reads. */
/** Operations that change what is stored: answered only once the change is on disk, so a restart keeps what was acknowledged. */
const STORING_OPERATIONS = new Set(['CreateLogGroup', 'DeleteLogGroup', 'CreateLogStream', 'PutLogEvents', 'PutRetentionPolicy', 'DeleteRetentionPolicy']);

export function logsApi(cloud: LocalServices, operation: string, input: Record<string, unknown>): LocalResponse {
  const response = logsOperation(cloud, operation, input);
  if (STORING_OPERATIONS.has(operation)) cloud.logs.flush();
  return response;
}

function logsOperation(cloud: LocalServices, operation: string, input: Record<string, unknown>): LocalResponse {
  switch (operation) {
    case 'FilterLogEvents': {
      const group = String(input.logGroupName ?? '');
      groupMustExist(cloud, group);
      const matches = compileFilterPattern(input.filterPattern as string | undefined);
      const start = Number(input.startTime ?? 0);
      const end = Number(input.endTime ?? Number.MAX_SAFE_INTEGER);
      const streams = input.logStreamNames as string[] | undefined;
      const prefix = input.logStreamNamePrefix as string | undefined;
      const matching = cloud.logs
        .events(group, streams)
        .filter((event) => event.timestamp >= start && event.timestamp <= end && (!prefix || event.logStreamName.startsWith(prefix)))
        .filter((event) => matches(event.message));
      const offset = input.nextToken ? Number(input.nextToken) : 0;
      const limit = Math.min(Number(input.limit ?? 10_000), 10_000);
      const page = matching.slice(offset, offset + limit);
      return jsonResponse(
        {
          events: page.map((event) => ({ logStreamName: event.logStreamName, timestamp: event.timestamp, message: event.message, ingestionTime: event.ingestionTime, eventId: LogStore.eventId(event) })),
          searchedLogStreams: [],
          nextToken: offset + limit < matching.length ? String(offset + limit) : undefined,
        },
        200,
        JSON_11,
      );
    }
    case 'GetLogEvents': {
      const group = String(input.logGroupName ?? '');
      groupMustExist(cloud, group);
      const events = cloud.logs.events(group, [String(input.logStreamName)]).map(({ timestamp, message, ingestionTime }) => ({ timestamp, message, ingestionTime }));
      return jsonResponse({ events, nextForwardToken: `f/${randomUUID()}`, nextBackwardToken: `b/${randomUUID()}` }, 200, JSON_11);
    }
    case 'DescribeLogGroups': {
      const prefix = String(input.logGroupNamePrefix ?? '');
      const groups = cloud.logs.groupNames().filter((name) => name.startsWith(prefix));
      return jsonResponse(
        {
          logGroups: groups.map((name) => {
            const group = cloud.logs.group(name)!;
            return {
              logGroupName: name,
              creationTime: group.created,
              ...(group.retentionInDays !== undefined ? { retentionInDays: group.retentionInDays } : {}),
              metricFilterCount: metricFilters(cloud, name).length,
              arn: `arn:aws:logs:us-east-1:${cloud.accountId}:log-group:${name}:*`,
              storedBytes: 0,
            };
          }),
        },
        200,
        JSON_11,
      );
    }
    case 'DescribeLogStreams': {
      const group = String(input.logGroupName ?? '');
      groupMustExist(cloud, group);
      const streams = cloud.logs.streams(group).sort((a, b) => b.lastEvent - a.lastEvent);
      return jsonResponse({
        logStreams: streams.map((stream) => ({ logStreamName: stream.name, creationTime: stream.created, firstEventTimestamp: stream.created, lastEventTimestamp: stream.lastEvent, lastIngestionTime: stream.lastEvent })),
      }, 200, JSON_11);
    }
    case 'CreateLogGroup': {
      const name = String(input.logGroupName ?? '');
      if (!/^[.\-_/#A-Za-z0-9]{1,512}$/.test(name)) throw new AwsError('InvalidParameterException', `1 validation error detected: Value '${name}' at 'logGroupName' failed to satisfy constraint: Member must satisfy regular expression pattern: [\\.\\-_/#A-Za-z0-9]+`);
      if (cloud.logs.hasGroup(name)) throw new AwsError('ResourceAlreadyExistsException', 'The specified log group already exists');
      cloud.logs.createGroup(name);
      if (input.tags) cloud.tags.tag(groupArn(cloud, name), tagMap(input.tags));
      return jsonResponse({}, 200, JSON_11);
    }
    case 'DeleteLogGroup': {
      const name = String(input.logGroupName ?? '');
      groupMustExist(cloud, name);
      cloud.logs.deleteGroup(name);
      cloud.tags.forget(groupArn(cloud, name));
      forgetMetricFilters(cloud, name);
      return jsonResponse({}, 200, JSON_11);
    }
    case 'CreateLogStream': {
      const group = String(input.logGroupName ?? '');
      groupMustExist(cloud, group);
      if (!cloud.logs.createStream(group, String(input.logStreamName ?? ''))) throw new AwsError('ResourceAlreadyExistsException', 'The specified log stream already exists');
      return jsonResponse({}, 200, JSON_11);
    }
    case 'PutLogEvents': {
      const group = String(input.logGroupName ?? '');
      const stream = String(input.logStreamName ?? '');
      groupMustExist(cloud, group);
      if (!cloud.logs.hasStream(group, stream)) throw new AwsError('ResourceNotFoundException', 'The specified log stream does not exist.');
      const events = (input.logEvents as { timestamp?: number; message?: string }[] | undefined) ?? [];
      if (events.length === 0) throw new AwsError('InvalidParameterException', "1 validation error detected: Value '[]' at 'logEvents' failed to satisfy constraint: Member must have length greater than or equal to 1");
      cloud.logs.put(group, stream, events.map((event) => ({ timestamp: Number(event.timestamp), message: String(event.message ?? '') })));
      return jsonResponse({}, 200, JSON_11);
    }
    case 'PutRetentionPolicy': {
      const group = String(input.logGroupName ?? '');
      groupMustExist(cloud, group);
      const days = Number(input.retentionInDays);
      if (!RETENTION_DAYS.includes(days)) throw new AwsError('InvalidParameterException', `1 validation error detected: Value '${String(input.retentionInDays)}' at 'retentionInDays' failed to satisfy constraint: Member must satisfy enum value set: [${RETENTION_DAYS.join(', ')}]`);
      cloud.logs.setRetention(group, days);
      return jsonResponse({}, 200, JSON_11);
    }
    case 'DeleteRetentionPolicy': {
      const group = String(input.logGroupName ?? '');
      groupMustExist(cloud, group);
      cloud.logs.setRetention(group, undefined);
      return jsonResponse({}, 200, JSON_11);
    }
    case 'PutSubscriptionFilter':
      putSubscriptionFilter(cloud, input);
      return jsonResponse({}, 200, JSON_11);
    case 'DescribeSubscriptionFilters': {
      const group = String(input.logGroupName ?? '');
      groupMustExist(cloud, group);
      const prefix = typeof input.filterNamePrefix === 'string' ? input.filterNamePrefix : '';
      const filters = subscriptionFilters(cloud, group)
        .filter(({ record }) => filterName(record).startsWith(prefix))
        .sort((a, b) => (filterName(a.record) < filterName(b.record) ? -1 : 1))
        .map(({ record }) => ({
          filterName: filterName(record),
          logGroupName: group,
          filterPattern: String(record.properties.FilterPattern ?? ''),
          destinationArn: record.properties.DestinationArn,
          ...(record.properties.RoleArn !== undefined ? { roleArn: record.properties.RoleArn } : {}),
          distribution: record.properties.Distribution ?? 'ByLogStream',
          creationTime: Date.parse(record.timestamp),
        }));
      return jsonResponse({ subscriptionFilters: filters }, 200, JSON_11);
    }
    case 'DeleteSubscriptionFilter': {
      const group = String(input.logGroupName ?? '');
      groupMustExist(cloud, group);
      const found = subscriptionFilters(cloud, group).find(({ record }) => filterName(record) === input.filterName);
      if (!found) throw new AwsError('ResourceNotFoundException', 'The specified subscription filter does not exist.');
      if (!cloud.apiResources.remove(SUBSCRIPTION_FILTER, found.record.physicalId)) throw new AwsError('InvalidParameterException', `Subscription filter ${filterName(found.record)} belongs to a stack: remove it from the template`);
      cloud.afterStackChange();
      return jsonResponse({}, 200, JSON_11);
    }
    case 'PutMetricFilter':
      putMetricFilter(cloud, input);
      return jsonResponse({}, 200, JSON_11);
    case 'DescribeMetricFilters':
      return jsonResponse(describeMetricFilters(cloud, input), 200, JSON_11);
    case 'DeleteMetricFilter':
      deleteMetricFilter(cloud, input);
      return jsonResponse({}, 200, JSON_11);
    case 'TagResource':
      cloud.tags.tag(taggedGroupArn(cloud, input.resourceArn), tagMap(input.tags));
      return jsonResponse({}, 200, JSON_11);
    case 'UntagResource':
      cloud.tags.untag(taggedGroupArn(cloud, input.resourceArn), Array.isArray(input.tagKeys) ? input.tagKeys.map(String) : []);
      return jsonResponse({}, 200, JSON_11);
    case 'ListTagsForResource':
      return jsonResponse({ tags: groupTags(cloud, taggedGroupArn(cloud, input.resourceArn)) }, 200, JSON_11);
    // The log-group-name forms AWS deprecated for the three above, still what older code calls.
    case 'TagLogGroup': {
      const group = String(input.logGroupName ?? '');
      groupMustExist(cloud, group);
      cloud.tags.tag(groupArn(cloud, group), tagMap(input.tags));
      return jsonResponse({}, 200, JSON_11);
    }
    case 'UntagLogGroup': {
      const group = String(input.logGroupName ?? '');
      groupMustExist(cloud, group);
      cloud.tags.untag(groupArn(cloud, group), Array.isArray(input.tags) ? input.tags.map(String) : []);
      return jsonResponse({}, 200, JSON_11);
    }
    case 'ListTagsLogGroup': {
      const group = String(input.logGroupName ?? '');
      groupMustExist(cloud, group);
      return jsonResponse({ tags: groupTags(cloud, groupArn(cloud, group)) }, 200, JSON_11);
    }
    default:
      throw new AwsError('UnknownOperationException', `not emulated: CloudWatch Logs ${operation}`);
  }
}
