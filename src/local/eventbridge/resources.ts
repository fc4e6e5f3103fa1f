/**
 * EventBridge rules, targets and buses made by the API (PutRule, PutTargets, ListRules,
 * ListTargetsByRule, RemoveTargets, DeleteRule, DescribeRule, CreateEventBus, DeleteEventBus,
 * DescribeEventBus, ListEventBuses, PutPermission, RemovePermission, TestEventPattern). Rules are kept as `AWS::Events::Rule` records beside the stacks' ones, so PutEvents
 * and the scheduler route to them alike.
 */
import { AwsError } from '../protocol/errors';
import type { LocalServices } from '../service-interfaces';
import type { ResourceRecord } from '../cloudformation/model';
import { declaredTags, tagList, tagMap, type TagMap } from '../state/resource-tags';
import { busPolicy, forgetBusPolicy, putPermission, removePermission } from './bus-policy';
import { parsedEventPattern, testEventPattern } from './test-event-pattern';

const RULE = 'AWS::Events::Rule';
const BUS = 'AWS::Events::EventBus';

interface Target {
  Id: string;
  Arn: string;
  Input?: string;
  InputPath?: string;
}

export function busName(reference: unknown): string {
  const text = typeof reference === 'string' && reference ? reference : 'default';
  return text.includes(':event-bus/') ? text.split(':event-bus/')[1] : text;
}

const ruleArn = (cloud: LocalServices, region: string, bus: string, name: string) =>
  `arn:aws:events:${region}:${cloud.accountId}:rule/${bus === 'default' ? '' : `${bus}/`}${name}`;

function busExists(cloud: LocalServices, bus: string): void {
  if (bus === 'default' || cloud.resources(BUS).some(({ record }) => record.physicalId === bus)) return;
  throw new AwsError('ResourceNotFoundException', `Event bus ${bus} does not exist.`);
}

function rules(cloud: LocalServices, bus: string): ResourceRecord[] {
  return cloud
    .resources(RULE)
    .map(({ record }) => record)
    .filter((record) => busName(record.properties.EventBusName) === bus);
}

function rule(cloud: LocalServices, name: unknown, bus: string): ResourceRecord {
  const found = rules(cloud, bus).find((record) => record.physicalId === name);
  if (!found) throw new AwsError('ResourceNotFoundException', `Rule ${String(name)} does not exist on EventBus ${bus}.`);
  return found;
}

/** The rule or event bus a tagging call's ResourceARN names, with the tags its stack or the call that made it gave. */
function tagged(cloud: LocalServices, arn: unknown): { arn: string; declared: TagMap } {
  const text = String(arn ?? '');
  const found = [...cloud.resources(RULE), ...cloud.resources(BUS)].find(({ record }) => record.attributes.Arn === text);
  if (found) return { arn: text, declared: declaredTags(found) };
  if (/^arn:aws[a-z-]*:events:[^:]*:\d{12}:event-bus\/default$/.test(text)) return { arn: text, declared: {} };
  const ruleName = /:rule\/(?:([^/]+)\/)?([^/]+)$/.exec(text);
  if (ruleName) throw new AwsError('ResourceNotFoundException', `Rule ${ruleName[2]} does not exist on EventBus ${ruleName[1] ?? 'default'}.`);
  throw new AwsError('ResourceNotFoundException', `Event bus ${busName(text)} does not exist.`);
}

/** A rule the API may change: one a stack made belongs to its template. */
function apiRule(cloud: LocalServices, name: unknown, bus: string): ResourceRecord {
  const found = rule(cloud, name, bus);
  if (!cloud.apiResources.find(RULE, found.physicalId)) throw new AwsError('ManagedRuleException', `Rule ${found.physicalId} belongs to a stack: change it in the template`);
  return found;
}

function ruleView(record: ResourceRecord): Record<string, unknown> {
  const properties = record.properties;
  const pattern = properties.EventPattern;
  return {
    Name: record.physicalId,
    Arn: record.attributes.Arn,
    ...(pattern !== undefined ? { EventPattern: typeof pattern === 'string' ? pattern : JSON.stringify(pattern) } : {}),
    ...(properties.ScheduleExpression !== undefined ? { ScheduleExpression: properties.ScheduleExpression } : {}),
    State: properties.State ?? 'ENABLED',
    ...(properties.Description !== undefined ? { Description: properties.Description } : {}),
    EventBusName: busName(properties.EventBusName),
  };
}

export function eventResourceOperation(cloud: LocalServices, operation: string, input: Record<string, unknown>, region: string): Record<string, unknown> {
  const bus = busName(input.EventBusName);
  // After any change, schedules follow the rules as they do after a deploy.
  const changed = <T>(result: T): T => {
    cloud.afterStackChange();
    return result;
  };
  switch (operation) {
    case 'PutRule': {
      const name = input.Name;
      if (typeof name !== 'string' || !/^[.\-_A-Za-z0-9]{1,64}$/.test(name)) throw new AwsError('ValidationException', `1 validation error detected: Value '${String(name)}' at 'name' failed to satisfy constraint: Member must satisfy regular expression pattern: [\\.\\-_A-Za-z0-9]+`);
      if (input.EventPattern === undefined && input.ScheduleExpression === undefined) throw new AwsError('ValidationException', 'Parameter(s) EventPattern or ScheduleExpression must be specified.');
      if (typeof input.EventPattern === 'string') parsedEventPattern(input.EventPattern);
      busExists(cloud, bus);
      const settings = Object.fromEntries(['EventPattern', 'ScheduleExpression', 'State', 'Description'].filter((key) => input[key] !== undefined).map((key) => [key, input[key]]));
      const existing = rules(cloud, bus).find((record) => record.physicalId === name);
      if (existing) {
        const record = apiRule(cloud, name, bus);
        Object.assign(record.properties, settings);
        cloud.apiResources.changed(record);
        return changed({ RuleArn: record.attributes.Arn });
      }
      const arn = ruleArn(cloud, region, bus, name);
      cloud.apiResources.add(region, RULE, name, { Name: name, EventBusName: bus, ...settings, Targets: [] }, { Arn: arn });
      if (Array.isArray(input.Tags)) cloud.tags.tag(arn, tagMap(input.Tags));
      return changed({ RuleArn: arn });
    }
    case 'DescribeRule':
      return ruleView(rule(cloud, input.Name, bus));
    case 'ListRules': {
      const prefix = typeof input.NamePrefix === 'string' ? input.NamePrefix : '';
      return { Rules: rules(cloud, bus).filter((record) => record.physicalId.startsWith(prefix)).map(ruleView) };
    }
    case 'DeleteRule': {
      const record = apiRule(cloud, input.Name, bus);
      if (((record.properties.Targets as Target[] | undefined) ?? []).length > 0) throw new AwsError('ValidationException', "Rule can't be deleted since it has targets.");
      cloud.apiResources.remove(RULE, record.physicalId);
      cloud.tags.forget(String(record.attributes.Arn));
      return changed({});
    }
    case 'PutTargets': {
      const record = apiRule(cloud, input.Rule, bus);
      const targets = (record.properties.Targets as Target[] | undefined) ?? [];
      for (const target of (input.Targets as Target[] | undefined) ?? []) {
        if (typeof target.Id !== 'string' || typeof target.Arn !== 'string') throw new AwsError('ValidationException', 'Each target needs an Id and an Arn.');
        const index = targets.findIndex((existing) => existing.Id === target.Id);
        if (index >= 0) targets[index] = target;
        else targets.push(target);
      }
      record.properties.Targets = targets;
      cloud.apiResources.changed(record);
      return changed({ FailedEntryCount: 0, FailedEntries: [] });
    }
    case 'EnableRule':
    case 'DisableRule': {
      const record = apiRule(cloud, input.Name, bus);
      record.properties.State = operation === 'EnableRule' ? 'ENABLED' : 'DISABLED';
      cloud.apiResources.changed(record);
      return changed({});
    }
    case 'ListTargetsByRule':
      return { Targets: (rule(cloud, input.Rule, bus).properties.Targets as Target[] | undefined) ?? [] };
    case 'RemoveTargets': {
      const record = apiRule(cloud, input.Rule, bus);
      const ids = new Set((input.Ids as string[] | undefined) ?? []);
      record.properties.Targets = ((record.properties.Targets as Target[] | undefined) ?? []).filter((target) => !ids.has(target.Id));
      cloud.apiResources.changed(record);
      return changed({ FailedEntryCount: 0, FailedEntries: [] });
    }
    case 'CreateEventBus': {
      const name = input.Name;
      if (typeof name !== 'string' || !/^[/.\-_A-Za-z0-9]{1,256}$/.test(name) || name === 'default') throw new AwsError('ValidationException', `Event bus name ${String(name)} is not valid.`);
      if (cloud.resources(BUS).some(({ record }) => record.physicalId === name)) throw new AwsError('ResourceAlreadyExistsException', `Event bus ${name} already exists.`);
      const arn = `arn:aws:events:${region}:${cloud.accountId}:event-bus/${name}`;
      cloud.apiResources.add(region, BUS, name, { Name: name }, { Arn: arn });
      if (Array.isArray(input.Tags)) cloud.tags.tag(arn, tagMap(input.Tags));
      return { EventBusArn: arn };
    }
    case 'DeleteEventBus': {
      if (typeof input.Name === 'string' && cloud.apiResources.remove(BUS, input.Name)) {
        cloud.tags.forget(`arn:aws:events:${region}:${cloud.accountId}:event-bus/${input.Name}`);
        forgetBusPolicy(cloud, input.Name);
      }
      return {};
    }
    case 'DescribeEventBus': {
      // Name or ARN; none is the default bus.
      const name = busName(input.Name);
      busExists(cloud, name);
      const record = cloud.resources(BUS).find((entry) => entry.record.physicalId === name)?.record;
      const description = record?.properties.Description;
      const policy = busPolicy(cloud, name);
      return {
        Name: name,
        Arn: record?.attributes.Arn ?? `arn:aws:events:${region}:${cloud.accountId}:event-bus/default`,
        ...(typeof description === 'string' ? { Description: description } : {}),
        ...(policy ? { Policy: policy } : {}),
      };
    }
    case 'PutPermission':
      busExists(cloud, bus);
      return putPermission(cloud, input, region, bus, `arn:aws:events:${region}:${cloud.accountId}:event-bus/${bus}`);
    case 'RemovePermission':
      busExists(cloud, bus);
      return removePermission(cloud, input, region, bus);
    case 'TestEventPattern':
      return testEventPattern(input);
    case 'ListEventBuses':
      return {
        EventBuses: [
          { Name: 'default', Arn: `arn:aws:events:${region}:${cloud.accountId}:event-bus/default` },
          ...cloud.resources(BUS).map(({ record }) => ({ Name: record.physicalId, Arn: record.attributes.Arn })),
        ],
      };
    case 'TagResource':
      cloud.tags.tag(tagged(cloud, input.ResourceARN).arn, tagMap(input.Tags));
      return {};
    case 'UntagResource':
      cloud.tags.untag(tagged(cloud, input.ResourceARN).arn, Array.isArray(input.TagKeys) ? input.TagKeys.map(String) : []);
      return {};
    case 'ListTagsForResource': {
      const { arn, declared } = tagged(cloud, input.ResourceARN);
      return { Tags: tagList(cloud.tags.of(arn, declared)) };
    }
    default:
      throw new AwsError('UnknownOperationException', `not emulated: EventBridge ${operation}`);
  }
}
