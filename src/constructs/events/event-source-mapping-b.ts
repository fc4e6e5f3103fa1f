import { Construct } from 'constructs';
import * as naming from '../../synth/naming';
import { ConfigError } from '../../errors';
import type { IamStatement, Json } from '../model';
import type { FunctionConstruct } from '../function';
import type { Service } from '../service';

/**
 * What the broker event types (kafka, activemq, rabbitmq, msk) share: the IAM statements
 * they add to the execution role, the role their mappings wait for, filter criteria,
 * and a guard against two events of one function generating the same logical id.
 */

/** One event of a function, raw as written, with its config path. */
export interface RawEvent {
  config: unknown;
  path: string;
}

interface PolicyBuilder {
  /** Position among the broker types: the reference adds statements type by type in this order. */
  order: number;
  type: string;
  /** The statements one function's events of this type need. */
  statements(events: RawEvent[]): IamStatement[];
}

const policyBuilders: PolicyBuilder[] = [];

/** Called once by each broker event module when it loads. */
export function registerBrokerPolicy(builder: PolicyBuilder): void {
  if (!policyBuilders.some(existing => existing.type === builder.type)) policyBuilders.push(builder);
}

/**
 * Adds every broker event's statements to `IamRoleLambdaExecution` once, type by type
 * (kafka, activemq, rabbitmq, msk) and function by function within a type, as the reference
 * orders them. The role gets them even for functions with a role of their own, as in the reference.
 */
export function ensureBrokerPolicies(service: Service): void {
  service.shared('BrokerEventPolicies', (scope, id) => new BrokerEventPolicies(scope, id));
}

class BrokerEventPolicies extends Construct {
  constructor(service: Service, id: string) {
    super(service, id);
    const role = service.role;
    if (!role) return;
    for (const builder of [...policyBuilders].sort((a, b) => a.order - b.order)) {
      for (const [key, fnConfig] of Object.entries(service.config.functions ?? {})) {
        const events = eventsOfType(fnConfig?.events, `functions.${key}.events`, builder.type);
        if (events.length === 0) continue;
        for (const statement of builder.statements(events)) role.addStatement(statement, builder.type);
      }
    }
  }
}

function eventsOfType(events: unknown, path: string, type: string): RawEvent[] {
  if (!Array.isArray(events)) return [];
  const found: RawEvent[] = [];
  events.forEach((event, index) => {
    if (event === null || typeof event !== 'object' || Array.isArray(event)) return;
    const keys = Object.keys(event);
    if (keys.length === 1 && keys[0] === type) found.push({ config: (event as Record<string, unknown>)[type], path: `${path}[${index}].${type}` });
  });
  return found;
}

export const secretsStatement = (secrets: Json[]): IamStatement => ({
  Effect: 'Allow',
  Action: ['secretsmanager:GetSecretValue'],
  Resource: secrets,
});

/** What Lambda needs to reach a broker inside a VPC. */
export const vpcNetworkStatement = (): IamStatement => ({
  Effect: 'Allow',
  Action: [
    'ec2:CreateNetworkInterface',
    'ec2:DescribeNetworkInterfaces',
    'ec2:DescribeVpcs',
    'ec2:DeleteNetworkInterface',
    'ec2:DescribeSubnets',
    'ec2:DescribeSecurityGroups',
  ],
  Resource: '*',
});

/**
 * What a mapping waits for: the role the function runs as when it is in this template
 * (`IamRoleLambdaExecution`, a role name, or `Fn::GetAtt` of one); none for a role ARN.
 */
export function roleDependsOn(fn: FunctionConstruct): string[] {
  if (fn.usesSharedRole) return [naming.roleLambdaExecution()];
  const role = fn.config.role ?? fn.service.providerRole;
  if (typeof role === 'string') return role.startsWith('arn:') ? [] : [role];
  const getAtt = (role as { 'Fn::GetAtt'?: unknown } | undefined)?.['Fn::GetAtt'];
  if (Array.isArray(getAtt) && typeof getAtt[0] === 'string') return [getAtt[0]];
  return [];
}

/** `filterPatterns` → `{ Filters: [{ Pattern: "<json>" }] }` */
export function filterCriteria(patterns: Json[]): Json {
  return { Filters: patterns.map(pattern => ({ Pattern: JSON.stringify(pattern) })) };
}

const claimed = new WeakMap<FunctionConstruct, Map<string, string>>();

/**
 * Refuses a second event of one function that would generate the same logical id:
 * the reference keeps only the last of them, silently.
 */
export function claimLogicalId(fn: FunctionConstruct, logicalId: string, path: string, hint: string): void {
  const ids = claimed.get(fn) ?? new Map<string, string>();
  claimed.set(fn, ids);
  const first = ids.get(logicalId);
  if (first !== undefined) {
    throw new ConfigError(`Invalid configuration in '${path}': generates the logical id "${logicalId}" already used by '${first}'; ${hint}`);
  }
  ids.set(logicalId, path);
}
