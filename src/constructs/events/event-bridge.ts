import { Construct } from 'constructs';
import * as t from '../../config/typanion';
import * as naming from '../../synth/naming';
import { ConfigError } from '../../errors';
import type { Json } from '../model';
import { CfnResource, accountId, join, partition, region } from '../resource';
import type { FunctionConstruct } from '../function';
import type { Service } from '../service';
import { CustomResource, customResourceFunction } from '../custom-resources';
import { eventPosition, isIntegerIn, isJsonObject, isStringLike, validateEvent } from './event-schema';

const schema = t.isObject(
  {
    eventBus: t.isOptional(isStringLike(['Ref', 'Fn::GetAtt', 'Fn::ImportValue'])),
    schedule: t.isOptional(t.cascade(t.isString(), [t.matchesRegExp(/^(?:cron|rate)\(.+\)$/)])),
    pattern: t.isOptional(isJsonObject()),
    input: t.isOptional(isJsonObject()),
    inputPath: t.isOptional(t.isString()),
    inputTransformer: t.isOptional(
      t.isObject({ inputTemplate: t.isString(), inputPathsMap: t.isOptional(t.isRecord(t.isString())) }),
    ),
    name: t.isOptional(t.cascade(t.isString(), [t.hasMinLength(1), t.hasMaxLength(64)])),
    description: t.isOptional(t.isString()),
    enabled: t.isOptional(t.isBoolean()),
    retryPolicy: t.isOptional(
      t.isObject({ maximumEventAge: t.isOptional(isIntegerIn(60, 86400)), maximumRetryAttempts: t.isOptional(isIntegerIn(0, 185)) }),
    ),
    deadLetterQueueArn: t.isOptional(isStringLike()),
  },
);

export type EventBridgeConfig = t.InferType<typeof schema>;

/** What the rule needs to know about its bus: its name (for the rule and the permission) and whether this stack creates it. */
interface Bus {
  name?: Json;
  createdAs?: string;
}

/**
 * `eventBridge` event: a rule (on the default bus, a bus this stack creates, or an existing
 * one given by ARN or intrinsic) targeting the function, and the permission to invoke it.
 */
export class EventBridgeEvent extends Construct {
  static readonly type = 'eventBridge';
  static readonly description = 'Events matching a pattern, or a schedule, on an EventBridge bus';
  static readonly schema = schema;

  constructor(fn: FunctionConstruct, id: string, raw: unknown, path: string) {
    super(fn, id);
    const config = validateEvent(schema, raw, path);
    if (config.schedule === undefined && config.pattern === undefined) {
      throw new ConfigError(`Invalid configuration in '${path}': expected a "schedule" or a "pattern"`);
    }
    const inputs = (['input', 'inputPath', 'inputTransformer'] as const).filter(key => config[key] !== undefined);
    if (inputs.length > 1) {
      throw new ConfigError(`Invalid configuration in '${path}': set only one of input, inputPath or inputTransformer (got ${inputs.join(', ')})`);
    }
    const position = eventPosition(id);
    if (usesCustomResources(fn.service)) {
      legacyRule(this, fn, config, position, path);
      return;
    }
    const bus = resolveBus(fn.service, config.eventBus, `${path}.eventBus`);
    const ruleName = config.name ?? naming.eventBridgeRuleName(fn.physicalName, position);

    const target: Record<string, Json> = { Arn: fn.targetArn, Id: naming.eventBridgeTargetId(ruleName) };
    if (config.input !== undefined) target.Input = JSON.stringify(config.input);
    if (config.inputPath !== undefined) target.InputPath = config.inputPath;
    if (config.inputTransformer !== undefined) {
      const transformer: Record<string, Json> = {};
      if (config.inputTransformer.inputPathsMap !== undefined) transformer.InputPathsMap = config.inputTransformer.inputPathsMap;
      transformer.InputTemplate = config.inputTransformer.inputTemplate;
      target.InputTransformer = transformer;
    }
    if (config.retryPolicy !== undefined) {
      const policy: Record<string, Json> = {};
      if (config.retryPolicy.maximumEventAge !== undefined) policy.MaximumEventAgeInSeconds = config.retryPolicy.maximumEventAge;
      if (config.retryPolicy.maximumRetryAttempts !== undefined) policy.MaximumRetryAttempts = config.retryPolicy.maximumRetryAttempts;
      target.RetryPolicy = policy;
    }
    if (config.deadLetterQueueArn !== undefined) target.DeadLetterConfig = { Arn: config.deadLetterQueueArn };

    const properties: Record<string, Json> = {};
    if (config.description !== undefined) properties.Description = config.description;
    if (bus.name !== undefined && bus.name !== 'default') properties.EventBusName = bus.name;
    if (config.pattern !== undefined) properties.EventPattern = config.pattern;
    properties.Name = ruleName;
    if (config.schedule !== undefined) properties.ScheduleExpression = config.schedule;
    properties.State = config.enabled === false ? 'DISABLED' : 'ENABLED';
    properties.Targets = [target];

    new CfnResource(this, 'Rule', {
      logicalId: naming.eventBridgeRule(fn.physicalName, position),
      type: 'AWS::Events::Rule',
      properties: () => properties,
      // v3 waits for the bus it creates, else for the provisioned-concurrency alias.
      dependsOn: () => bus.createdAs ?? fn.targetAlias,
    });
    const ruleArnPath = bus.name === undefined ? ['rule', ruleName] : ['rule', bus.name, ruleName];
    new CfnResource(this, 'Permission', {
      logicalId: naming.eventBridgePermission(fn.key, position),
      type: 'AWS::Lambda::Permission',
      properties: () => ({
        Action: 'lambda:InvokeFunction',
        FunctionName: fn.targetArn,
        Principal: 'events.amazonaws.com',
        SourceArn: join(['arn', partition, 'events', region, accountId, join(ruleArnPath, '/')], ':'),
      }),
      dependsOn: () => fn.targetAlias,
    });
  }
}

/** `provider.eventBridge.useCloudFormation: false`: rules are provisioned by a custom resource (the pre-v3 way). */
function usesCustomResources(service: Service): boolean {
  const eventBridge = service.provider.eventBridge as { useCloudFormation?: unknown } | undefined;
  return eventBridge?.useCloudFormation === false;
}

/** `{Fn}CustomEventBridge{n}`: a `Custom::EventBridge` resource creating the rule (and its bus) at deploy time. */
/** Per service, per function: the last `eventBus` its custom-resource rules name. */
const lastBusByFunction = new WeakMap<object, Map<string, string | undefined>>();

function legacyRule(scope: Construct, fn: FunctionConstruct, config: EventBridgeConfig, position: number, path: string): void {
  for (const key of ['retryPolicy', 'deadLetterQueueArn'] as const) {
    if (config[key] !== undefined) {
      throw new ConfigError(`Invalid configuration in '${path}.${key}': not available with provider.eventBridge.useCloudFormation: false (remove that setting to use native CloudFormation)`);
    }
  }
  if (config.eventBus !== undefined && typeof config.eventBus !== 'string') {
    throw new ConfigError(`Invalid configuration in '${path}.eventBus': intrinsic functions need native CloudFormation (remove provider.eventBridge.useCloudFormation: false)`);
  }
  const provider = customResourceFunction(fn.service, 'event-bridge', 'event-bridge/handler.handler');
  const arn = (resource: string) => join(['arn', partition, 'events', region, accountId, resource], ':');
  const buses = lastBusByFunction.get(fn.service) ?? new Map<string, string | undefined>();
  lastBusByFunction.set(fn.service, buses);
  if (config.eventBus !== undefined || !buses.has(fn.key)) buses.set(fn.key, config.eventBus as string | undefined);
  provider.addStatements('event-bridge', () => [
    // v3 grants creating buses unless each function's last named bus is `default` (one without `eventBus` counts as naming none).
    ...([...buses.values()].some((bus) => bus !== 'default') ? [{ Effect: 'Allow', Resource: arn('event-bus/*'), Action: ['events:CreateEventBus', 'events:DeleteEventBus'] }] : []),
    { Effect: 'Allow', Resource: arn('rule/*'), Action: ['events:PutRule', 'events:RemoveTargets', 'events:PutTargets', 'events:DeleteRule'] },
    {
      Effect: 'Allow',
      Resource: join(['arn', partition, 'lambda', region, accountId, 'function', '*'], ':'),
      Action: ['lambda:AddPermission', 'lambda:RemovePermission'],
    },
  ]);
  const ruleConfig: Record<string, Json> = {
    RuleName: config.name ?? naming.eventBridgeRuleName(fn.physicalName, position),
    State: config.enabled === false ? 'DISABLED' : 'ENABLED',
  };
  if (config.eventBus !== undefined) ruleConfig.EventBus = config.eventBus;
  if (config.pattern !== undefined) ruleConfig.Pattern = config.pattern;
  if (config.schedule !== undefined) ruleConfig.Schedule = config.schedule;
  if (config.input !== undefined) ruleConfig.Input = config.input;
  if (config.inputPath !== undefined) ruleConfig.InputPath = config.inputPath;
  if (config.inputTransformer !== undefined) {
    const transformer: Record<string, Json> = {};
    if (config.inputTransformer.inputPathsMap !== undefined) transformer.InputPathsMap = config.inputTransformer.inputPathsMap;
    transformer.InputTemplate = config.inputTransformer.inputTemplate;
    ruleConfig.InputTransformer = transformer;
  }
  new CustomResource(scope, 'CustomResource', {
    logicalId: naming.eventBridgeCustomResource(fn.key, position),
    type: 'Custom::EventBridge',
    provider,
    dependsOn: [fn.lambda.logicalId],
    properties: () => ({ FunctionName: fn.physicalName, EventBridgeConfig: ruleConfig }),
  });
}

/** A name creates the bus (once per service); an ARN or an intrinsic attaches to an existing one. */
function resolveBus(service: Service, eventBus: Json, path: string): Bus {
  if (eventBus === undefined) return {};
  if (typeof eventBus !== 'string') return { name: eventBus };
  if (eventBus.startsWith('arn:')) {
    const match = /:event-bus\/(.+)$/.exec(eventBus);
    if (!match) throw new ConfigError(`Invalid configuration in '${path}': expected an event bus ARN like "arn:aws:events:REGION:ACCOUNT:event-bus/NAME", got ${JSON.stringify(eventBus)}`);
    return { name: match[1] };
  }
  if (eventBus === 'default') return { name: eventBus };
  if (!/^[A-Za-z0-9_-]+$/.test(eventBus)) {
    // The reference derives the bus's logical id from its name and emits an invalid one (`My.busEventBridgeEventBus`).
    throw new ConfigError(
      `Invalid configuration in '${path}': an event bus this service creates needs a name of letters, digits, "-" and "_" (its logical id is derived from it), got ${JSON.stringify(eventBus)}`,
    );
  }
  const logicalId = naming.eventBridgeEventBus(eventBus);
  service.shared(`EventBridgeEventBus-${eventBus}`, (scope, id) =>
    new CfnResource(scope, id, { logicalId, type: 'AWS::Events::EventBus', properties: () => ({ Name: eventBus }) }),
  );
  return { name: eventBus, createdAs: logicalId };
}
