import { AwsError } from '../protocol/errors';
import type { ResourceRecord } from '../cloudformation/model';
import { jsonResponse, type LocalRequest, type LocalResponse } from '../http';
import type { LocalServices } from '../service-interfaces';
import { atInstant, rateInterval } from './schedule';

/**
 * EventBridge Scheduler's API (REST-JSON, signing name `scheduler`): CreateSchedule, GetSchedule,
 * UpdateSchedule, DeleteSchedule and ListSchedules. A schedule made here is an
 * AWS::Scheduler::Schedule record beside the stacks' (state/api-resources.json), so the scheduler
 * (scheduler.ts) fires it as it fires theirs; a stack's schedule is read here and changed by its stack.
 */

const SCHEDULE = 'AWS::Scheduler::Schedule';
const NAME = /^[0-9a-zA-Z-_.]{1,64}$/;
const SETTABLE = ['ScheduleExpression', 'ScheduleExpressionTimezone', 'FlexibleTimeWindow', 'Target', 'State', 'Description', 'StartDate', 'EndDate', 'ActionAfterCompletion', 'KmsKeyArn'];

const validation = (message: string) => new AwsError('ValidationException', message, 400);
const notFound = (name: string) => new AwsError('ResourceNotFoundException', `Schedule ${name} does not exist.`, 404);

function body(request: LocalRequest): Record<string, unknown> {
  try {
    const parsed = JSON.parse(request.body.toString('utf8') || '{}') as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // refused below
  }
  throw new AwsError('SerializationException', 'The request body is not valid JSON', 400);
}

const groupOf = (record: ResourceRecord) => String(record.properties.GroupName ?? 'default');
const nameOf = (record: ResourceRecord) => String(record.properties.Name ?? record.physicalId);
const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
/** Scheduler's dates are epoch seconds on the wire; its inputs may be ISO text (CloudFormation) or seconds (the API). */
const isoDate = (value: unknown) => (typeof value === 'number' ? new Date(value * 1000).toISOString() : value);

/** A schedule's settings checked as Scheduler checks them. */
function settings(input: Record<string, unknown>): Record<string, unknown> {
  const expression = input.ScheduleExpression;
  if (typeof expression !== 'string' || !(rateInterval(expression) !== undefined || /^cron\(.+\)$/.test(expression.trim()) || atInstant(expression) !== undefined)) {
    throw validation(`Invalid Schedule Expression ${String(expression)}.`);
  }
  const mode = (input.FlexibleTimeWindow as { Mode?: unknown } | undefined)?.Mode;
  if (mode !== 'OFF' && mode !== 'FLEXIBLE') throw validation("1 validation error detected: Value null at 'flexibleTimeWindow' failed to satisfy constraint: Member must not be null");
  const target = input.Target as { Arn?: unknown; RoleArn?: unknown } | undefined;
  if (typeof target?.Arn !== 'string' || typeof target.RoleArn !== 'string') throw validation("1 validation error detected: Value null at 'target' failed to satisfy constraint: Member must not be null");
  const timeZone = input.ScheduleExpressionTimezone;
  if (timeZone !== undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: String(timeZone) });
    } catch {
      throw validation(`Invalid time zone: ${String(timeZone)}`);
    }
  }
  const out: Record<string, unknown> = {};
  for (const key of SETTABLE) if (input[key] !== undefined) out[key] = key === 'StartDate' || key === 'EndDate' ? isoDate(input[key]) : input[key];
  out.State ??= 'ENABLED';
  return out;
}

function described(record: ResourceRecord): Record<string, unknown> {
  const properties = record.properties;
  const created = seconds(String(record.attributes.CreationDate ?? record.timestamp));
  return {
    Arn: String(record.attributes.Arn),
    Name: nameOf(record),
    GroupName: groupOf(record),
    ScheduleExpression: properties.ScheduleExpression,
    ...(properties.ScheduleExpressionTimezone !== undefined ? { ScheduleExpressionTimezone: properties.ScheduleExpressionTimezone } : {}),
    FlexibleTimeWindow: properties.FlexibleTimeWindow,
    Target: properties.Target,
    State: properties.State ?? 'ENABLED',
    ...(properties.Description !== undefined ? { Description: properties.Description } : {}),
    ...(properties.StartDate !== undefined ? { StartDate: seconds(String(properties.StartDate)) } : {}),
    ...(properties.EndDate !== undefined ? { EndDate: seconds(String(properties.EndDate)) } : {}),
    ActionAfterCompletion: properties.ActionAfterCompletion ?? 'NONE',
    CreationDate: created,
    LastModificationDate: seconds(record.timestamp),
  };
}

export function schedulerApi(cloud: LocalServices, request: LocalRequest): LocalResponse | undefined {
  const region = request.region;
  const schedules = () => cloud.resources(SCHEDULE).filter(({ stack }) => stack.region === region).map(({ record }) => record);
  if (/^\/schedules\/?$/.test(request.path) && request.method === 'GET') {
    const prefix = request.search.get('NamePrefix') ?? '';
    const state = request.search.get('State');
    const group = request.search.get('ScheduleGroup');
    const all = schedules().filter((record) => nameOf(record).startsWith(prefix) && (!state || (record.properties.State ?? 'ENABLED') === state) && (!group || groupOf(record) === group));
    const start = Number(request.search.get('NextToken') ?? 0) || 0;
    const size = Number(request.search.get('MaxResults') ?? 0) || 100;
    const page = all.slice(start, start + size).map((record) => {
      const { Arn, Name, GroupName, State, CreationDate, LastModificationDate, Target } = described(record);
      return { Arn, Name, GroupName, State, CreationDate, LastModificationDate, Target: { Arn: (Target as { Arn: string }).Arn } };
    });
    return jsonResponse({ Schedules: page, ...(start + size < all.length ? { NextToken: String(start + size) } : {}) });
  }
  const match = /^\/schedules\/([^/]+)\/?$/.exec(request.path);
  if (!match) return undefined;
  const name = decodeURIComponent(match[1]);
  const input = request.method === 'POST' || request.method === 'PUT' ? body(request) : {};
  const group = String(request.search.get('groupName') ?? input.GroupName ?? 'default');
  const found = schedules().find((record) => nameOf(record) === name && groupOf(record) === group);
  const apiMade = found && cloud.apiResources.find(SCHEDULE, found.physicalId);
  switch (request.method) {
    case 'POST': {
      if (!NAME.test(name)) throw validation(`1 validation error detected: Value '${name}' at 'name' failed to satisfy constraint: Member must satisfy regular expression pattern: [0-9a-zA-Z-_.]+`);
      if (found) throw new AwsError('ConflictException', `Schedule ${name} already exists.`, 409);
      const arn = `arn:aws:scheduler:${region}:${cloud.accountId}:schedule/${group}/${name}`;
      cloud.apiResources.add(region, SCHEDULE, `${group}/${name}`, { Name: name, GroupName: group, ...settings(input) }, { Arn: arn, CreationDate: new Date().toISOString() });
      cloud.afterStackChange();
      return jsonResponse({ ScheduleArn: arn });
    }
    case 'GET':
      if (!found) throw notFound(name);
      return jsonResponse(described(found));
    case 'PUT': {
      if (!found) throw notFound(name);
      if (!apiMade) throw validation(`Schedule ${name} belongs to a stack: change it in the template`);
      apiMade.properties = { Name: name, GroupName: group, ...settings(input) };
      cloud.apiResources.changed(apiMade);
      cloud.afterStackChange();
      return jsonResponse({ ScheduleArn: String(apiMade.attributes.Arn) });
    }
    case 'DELETE':
      if (!found) throw notFound(name);
      if (!apiMade) throw validation(`Schedule ${name} belongs to a stack: remove it from the template`);
      cloud.apiResources.remove(SCHEDULE, apiMade.physicalId);
      cloud.afterStackChange();
      return jsonResponse({});
    default:
      return undefined;
  }
}
