/**
 * An event bus's resource policy: PutPermission adds a statement (or replaces the whole policy),
 * RemovePermission takes one out, DescribeEventBus shows it as `Policy`. Kept as one API-made
 * `AWS::Events::EventBusPolicy` record per bus, so it persists with the other API-made resources.
 */
import { AwsError } from '../protocol/errors';
import type { LocalServices } from '../service-interfaces';

const POLICY = 'AWS::Events::EventBusPolicy';

interface Statement {
  Sid?: string;
  [key: string]: unknown;
}

interface Policy {
  Version: string;
  Statement: Statement[];
}

function stored(cloud: LocalServices, bus: string): Policy | undefined {
  return cloud.apiResources.find(POLICY, bus)?.properties.Policy as Policy | undefined;
}

function store(cloud: LocalServices, region: string, bus: string, policy: Policy | undefined): void {
  const record = cloud.apiResources.find(POLICY, bus);
  if (!policy || policy.Statement.length === 0) {
    if (record) cloud.apiResources.remove(POLICY, bus);
  } else if (record) {
    record.properties.Policy = policy;
    cloud.apiResources.changed(record);
  } else cloud.apiResources.add(region, POLICY, bus, { EventBusName: bus, Policy: policy });
}

/** The policy text DescribeEventBus returns, if the bus has one. */
export function busPolicy(cloud: LocalServices, bus: string): string | undefined {
  const policy = stored(cloud, bus);
  return policy ? JSON.stringify(policy) : undefined;
}

/** The statement AWS writes for PutPermission's Action, Principal, StatementId and Condition. */
function statementOf(input: Record<string, unknown>, busArn: string): Statement {
  const sid = input.StatementId;
  const principal = input.Principal;
  if (typeof sid !== 'string' || !/^[a-zA-Z0-9-_]{1,64}$/.test(sid)) throw new AwsError('ValidationException', 'Parameter StatementId is not valid.');
  if (typeof principal !== 'string' || !(principal === '*' || /^\d{12}$/.test(principal))) throw new AwsError('ValidationException', 'Parameter Principal is not valid.');
  if (input.Action !== 'events:PutEvents') throw new AwsError('ValidationException', 'Provided value in parameter \'action\' is not supported.');
  const condition = input.Condition as { Type?: string; Key?: string; Value?: string } | undefined;
  return {
    Sid: sid,
    Effect: 'Allow',
    Principal: principal === '*' ? '*' : { AWS: `arn:aws:iam::${principal}:root` },
    Action: 'events:PutEvents',
    Resource: busArn,
    ...(condition ? { Condition: { [condition.Type ?? 'StringEquals']: { [String(condition.Key)]: condition.Value } } } : {}),
  };
}

export function putPermission(cloud: LocalServices, input: Record<string, unknown>, region: string, bus: string, busArn: string): Record<string, never> {
  if (typeof input.Policy === 'string') {
    let policy: Policy;
    try {
      policy = JSON.parse(input.Policy) as Policy;
    } catch {
      throw new AwsError('ValidationException', 'Parameter Policy is not valid.');
    }
    if (!Array.isArray(policy?.Statement)) throw new AwsError('ValidationException', 'Parameter Policy is not valid.');
    store(cloud, region, bus, policy);
    return {};
  }
  const statement = statementOf(input, busArn);
  const policy = stored(cloud, bus) ?? { Version: '2012-10-17', Statement: [] };
  policy.Statement = [...policy.Statement.filter((existing) => existing.Sid !== statement.Sid), statement];
  store(cloud, region, bus, policy);
  return {};
}

export function removePermission(cloud: LocalServices, input: Record<string, unknown>, region: string, bus: string): Record<string, never> {
  const policy = stored(cloud, bus);
  if (input.RemoveAllPermissions === true) {
    if (input.StatementId !== undefined) throw new AwsError('ValidationException', 'Either StatementId or RemoveAllPermissions must be specified, not both.');
    store(cloud, region, bus, undefined);
    return {};
  }
  if (typeof input.StatementId !== 'string') throw new AwsError('ValidationException', 'Either StatementId or RemoveAllPermissions must be specified.');
  if (!policy) throw new AwsError('ResourceNotFoundException', 'EventBus does not have a policy.');
  if (!policy.Statement.some((statement) => statement.Sid === input.StatementId)) throw new AwsError('ResourceNotFoundException', 'Statement with the provided id does not exist.');
  store(cloud, region, bus, { ...policy, Statement: policy.Statement.filter((statement) => statement.Sid !== input.StatementId) });
  return {};
}

/** A deleted bus takes its policy with it. */
export function forgetBusPolicy(cloud: LocalServices, bus: string): void {
  cloud.apiResources.remove(POLICY, bus);
}
