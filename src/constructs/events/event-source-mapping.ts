import { Construct } from 'constructs';
import * as t from '../../config/typanion';
import * as naming from '../../synth/naming';
import { ConfigError } from '../../errors';
import type { IamStatement, Json } from '../model';
import { CfnResource } from '../resource';
import type { FunctionConstruct } from '../function';
import type { Service } from '../service';
import { isFilterPatterns, isIntegerIn, isNumberIn } from './event-schema';
import { claimLogicalId } from './logical-id-claims';

/**
 * What the event source mappings (sqs, stream, msk, kafka, activemq, rabbitmq events) share:
 * the role they wait for, filter criteria, and the IAM statements the broker types (kafka,
 * activemq, rabbitmq, msk) add to the execution role.
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
 * What an sqs or stream mapping waits for: the shared role, which carries its read statements
 * (see EventRolePolicy), nothing for a function with its own role, as in the reference; then the
 * provisioned-concurrency alias it invokes.
 */
export const sharedRoleDependsOn = (fn: FunctionConstruct): string[] => fn.dependsOnTarget(fn.usesSharedRole ? [naming.roleLambdaExecution()] : []);

/**
 * What a broker mapping waits for: the role the function runs as when it is in this template
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

/**
 * The `AWS::Lambda::EventSourceMapping` of a broker event (msk, kafka, activemq, rabbitmq):
 * the broker statements are added to the role once, a second event generating the same
 * logical id is refused (`hint` says what to do instead), and the mapping waits for the role.
 */
export function brokerEventSourceMapping(
  scope: Construct,
  fn: FunctionConstruct,
  mapping: { logicalId: string; path: string; hint: string; properties: () => Record<string, Json> },
): void {
  ensureBrokerPolicies(fn.service);
  claimLogicalId(fn.service, mapping.logicalId, mapping.path, mapping.hint);
  const properties = mapping.properties();
  const dependsOn = fn.dependsOnTarget(roleDependsOn(fn));
  new CfnResource(scope, 'EventSourceMapping', {
    logicalId: mapping.logicalId,
    type: 'AWS::Lambda::EventSourceMapping',
    properties: () => properties,
    dependsOn: () => dependsOn,
  });
}

// ---- Kafka topics (msk and kafka events) ----

const STARTING_POSITIONS = ['LATEST', 'TRIM_HORIZON', 'AT_TIMESTAMP'] as const;

/**
 * The fields msk and kafka events share: the topic and how it is read, then (`kafkaConsumerFields`)
 * the consumer group and filters. msk lists its SASL/SCRAM secret between them, as the
 * reference's schema does (the order `fw schema` shows).
 */
export const kafkaTopicFields = {
  topic: t.isString(),
  batchSize: t.isOptional(isIntegerIn(1, 10000)),
  maximumBatchingWindow: t.isOptional(isNumberIn(0, 300)),
  enabled: t.isOptional(t.isBoolean()),
  startingPosition: t.isOptional(t.isEnum(STARTING_POSITIONS)),
  startingPositionTimestamp: t.isOptional(t.isNumber()),
};
export const kafkaConsumerFields = {
  consumerGroupId: t.isOptional(t.cascade(t.isString(), [t.hasMaxLength(200)])),
  filterPatterns: t.isOptional(isFilterPatterns()),
};

/** `startingPosition: AT_TIMESTAMP` needs the time to start from. */
export function requireTimestamp(event: { startingPosition?: string; startingPositionTimestamp?: number }, path: string): void {
  if (event.startingPosition === 'AT_TIMESTAMP' && event.startingPositionTimestamp === undefined) {
    throw new ConfigError(
      `Invalid configuration in '${path}.startingPositionTimestamp': expected a Unix time in seconds (required when startingPosition is AT_TIMESTAMP), got nothing`,
    );
  }
}

/** What msk and kafka events write the same way. */
export interface KafkaTopicSettings {
  startingPositionTimestamp?: number;
  batchSize?: number;
  maximumBatchingWindow?: number;
  consumerGroupId?: string;
  enabled?: boolean;
  filterPatterns?: Json[];
}

/**
 * The mapping properties of an msk or kafka event: the cluster's own ones (`cluster`), then
 * the settings they share, in the reference's order. The consumer group goes under
 * `consumerGroupConfig` (`AmazonManagedKafkaEventSourceConfig` or `SelfManagedKafkaEventSourceConfig`);
 * `sourceAccess` (msk's SASL/SCRAM secret) comes after `Enabled`, as the reference writes it.
 */
export function kafkaTopicProperties(
  cluster: Record<string, Json>,
  event: KafkaTopicSettings,
  written: { consumerGroupConfig: string; sourceAccess?: Json },
): Record<string, Json> {
  const properties: Record<string, Json> = { ...cluster };
  if (event.startingPositionTimestamp !== undefined) properties.StartingPositionTimestamp = event.startingPositionTimestamp;
  if (event.batchSize !== undefined) properties.BatchSize = event.batchSize;
  if (event.maximumBatchingWindow !== undefined) properties.MaximumBatchingWindowInSeconds = event.maximumBatchingWindow;
  if (event.consumerGroupId !== undefined) properties[written.consumerGroupConfig] = { ConsumerGroupId: event.consumerGroupId };
  if (event.enabled !== undefined) properties.Enabled = event.enabled;
  if (written.sourceAccess !== undefined) properties.SourceAccessConfigurations = written.sourceAccess;
  if (event.filterPatterns !== undefined) properties.FilterCriteria = filterCriteria(event.filterPatterns);
  return properties;
}
