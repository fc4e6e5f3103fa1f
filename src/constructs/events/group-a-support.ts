import { Construct } from 'constructs';
import * as t from '../../config/typanion';
import { anyOf, describe, intrinsicSchema, jsonSchemaOf } from '../../config/json-schema';
import { validateEvent } from './schema';
import * as naming from '../../synth/naming';
import { ConfigError, show } from '../../errors';
import type { ExecutionRole } from '../execution-role';
import type { FunctionConstruct } from '../function';
import type { Json } from '../model';
import { CfnResource, getAtt } from '../resource';
import type { Service } from '../service';

/**
 * What the group-A event types (s3, schedule, sns, sqs, stream, cloudwatchEvent,
 * cloudwatchLog) share: schema building blocks, the config check that turns typanion's
 * errors into one-line ConfigErrors, the Lambda permission, and the statements they add
 * to the shared execution role.
 */

type State = { p?: string; errors?: string[] } | undefined;

function fail(state: State, message: string): false {
  state?.errors?.push(`${state.p ?? '.'}: ${message}`);
  return false;
}

/** `{ Ref: … }` or `{ 'Fn::…': … }`: a value CloudFormation computes at deploy time. */
export type Intrinsic = { Ref: Json } | { [fn: `Fn::${string}`]: Json };

export function isIntrinsicValue(value: unknown): value is Intrinsic {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && (keys[0] === 'Ref' || keys[0].startsWith('Fn::'));
}

export const isIntrinsic = () =>
  describe(t.makeValidator<unknown, Intrinsic>({
    test: (value, state) => isIntrinsicValue(value) || fail(state, `Expected a CloudFormation intrinsic like { Ref } or { "Fn::GetAtt" } (got ${show(value)})`),
  }), intrinsicSchema()) as t.StrictValidator<unknown, Intrinsic>;

/** Matches when one of `predicates` does; otherwise one error that says what was `expected`. */
export function isEither<T>(expected: string, predicates: Array<t.StrictValidator<unknown, T>>) {
  return describe(t.makeValidator<unknown, T>({
    test: (value, state) => predicates.some(predicate => predicate(value)) || fail(state, `Expected ${expected} (got ${show(value)})`),
  }), anyOf(predicates.map(jsonSchemaOf))) as t.StrictValidator<unknown, T>;
}

/** A JSON object (filter patterns, event patterns, inputs): any keys, any values. */
export const isJsonObject = () => t.isRecord(t.isUnknown()) as t.StrictValidator<unknown, Record<string, Json>>;

/** An object with the given optional and required properties; unknown properties pass, as in the reference. */
export const isOptions = <T extends Record<string, t.AnyStrictValidator>>(props: T) => t.isPartial(props);

/**
 * Checks `value` against `schema`; the first problem becomes
 * `Invalid configuration in 'functions.x.events[1].sqs.batchSize': expected a number, got "ten"`.
 */
export function check<T>(schema: t.StrictValidator<unknown, T>, value: unknown, path: string): T {
  return validateEvent(schema, value, path);
}

/**
 * An event written either as a shorthand (`sqs: arn:…`) or as an object: the object is
 * checked property by property so the message names the property at fault.
 */
export function checkEvent<S, O>(
  config: unknown,
  path: string,
  shorthand: { schema: t.StrictValidator<unknown, S>; expected: string },
  options: t.StrictValidator<unknown, O>,
): { shorthand: S } | { options: O } {
  if (config !== null && typeof config === 'object' && !Array.isArray(config) && !isIntrinsicValue(config)) {
    return { options: check(options, config, path) };
  }
  if (shorthand.schema(config)) return { shorthand: config as S };
  return throwConfig(`Invalid configuration in '${path}': expected ${shorthand.expected}, got ${show(config)}`);
}

function throwConfig(message: string): never {
  throw new ConfigError(message);
}


/** Where a value that may be an intrinsic leads: the `Fn::GetAtt` target, the import name, the last `Fn::Join` part. */
export function intrinsicName(value: Intrinsic): string | undefined {
  const [[fn, argument]] = Object.entries(value);
  if (fn === 'Ref' && typeof argument === 'string') return argument;
  if (fn === 'Fn::GetAtt') {
    if (Array.isArray(argument) && typeof argument[0] === 'string') return argument[0];
    if (typeof argument === 'string') return argument.split('.')[0];
  }
  if (fn === 'Fn::ImportValue' && typeof argument === 'string') return argument;
  if (fn === 'Fn::Join' && Array.isArray(argument) && Array.isArray(argument[1])) {
    const last = argument[1][argument[1].length - 1];
    if (typeof last === 'string') return last;
  }
  return undefined;
}

/** Which config path first generated each logical id that must stay unique. */
const claimed = new WeakMap<Service, Map<string, string>>();

/**
 * Refuses a second event that would generate the same logical id (the same queue twice on one
 * function, say): the reference silently keeps only the last one.
 */
export function claimLogicalId(service: Service, logicalId: string, path: string): void {
  const owners = claimed.get(service) ?? new Map<string, string>();
  claimed.set(service, owners);
  const first = owners.get(logicalId);
  if (first !== undefined) {
    throw new ConfigError(`Invalid configuration in '${path}': it generates "${logicalId}" again, already generated by '${first}'; a function can use each source only once`);
  }
  owners.set(logicalId, path);
}

export interface PermissionProps {
  logicalId: string;
  principal: Json;
  sourceArn: () => Json;
  sourceAccount?: Json;
}

/** `AWS::Lambda::Permission` letting a service invoke the function. */
export function lambdaPermission(scope: Construct, id: string, fn: FunctionConstruct, props: PermissionProps): CfnResource {
  return new CfnResource(scope, id, {
    logicalId: props.logicalId,
    type: 'AWS::Lambda::Permission',
    properties: () => {
      const properties: Record<string, Json> = {
        FunctionName: fn.arn,
        Action: 'lambda:InvokeFunction',
        Principal: props.principal,
        SourceArn: props.sourceArn(),
      };
      if (props.sourceAccount !== undefined) properties.SourceAccount = props.sourceAccount;
      return properties;
    },
  });
}

/** An event source mapping waits for the shared role (which carries its read statements); none for a function with its own role. */
export const roleDependency = (fn: FunctionConstruct): string[] => (fn.usesSharedRole ? [naming.roleLambdaExecution()] : []);

/** The role a function runs as, as the template writes it (for targets that invoke it with that role). */
export function functionRoleArn(fn: FunctionConstruct): Json {
  const role = fn.config.role ?? fn.service.providerRole;
  if (role === undefined) return getAtt(naming.roleLambdaExecution(), 'Arn');
  if (typeof role === 'string') return role.startsWith('arn:') ? role : getAtt(role, 'Arn');
  return role as Json;
}

/** The stream statements of one function, in the order the reference writes them. */
export interface StreamStatements {
  dynamodb: Json[];
  kinesis: Json[];
  kinesisConsumer: Json[];
  subscribeToShard: Json[];
  snsDestinations: Json[];
  sqsDestinations: Json[];
}

/**
 * The statements group-A events add to `IamRoleLambdaExecution`. They are collected while
 * the tree is built and written once it is complete, so they are shaped as the reference
 * shapes them (one scheduler statement; per function, its stream statements in a fixed
 * order; one statement for every queue) whatever order the functions and events come in;
 * the role places them among other event types' statements by their source.
 */
export class EventRolePolicy extends Construct {
  private readonly schedulerTargets: Json[] = [];
  private readonly streams = new Map<string, StreamStatements>();
  private readonly queues: Json[] = [];
  private applied = false;

  static of(service: Service): EventRolePolicy {
    return service.shared('GroupAEventRolePolicy', (scope, id) => new EventRolePolicy(scope, id));
  }

  private constructor(scope: Service, id: string) {
    super(scope, id);
    // Validation runs once the whole tree exists and before any fragment is taken:
    // the one moment every event has registered what it needs.
    this.node.addValidation({
      validate: () => {
        this.apply(scope.role);
        return [];
      },
    });
  }

  /** EventBridge Scheduler invokes the function with the shared role: it may invoke it, and the scheduler may assume the role. */
  addSchedulerTarget(fn: FunctionConstruct): void {
    const base = `arn:\${AWS::Partition}:lambda:\${AWS::Region}:\${AWS::AccountId}:function:${fn.physicalName}`;
    const resources = [{ 'Fn::Sub': base }, { 'Fn::Sub': `${base}:*` }];
    if (this.schedulerTargets.some(existing => JSON.stringify(existing) === JSON.stringify(resources[0]))) return;
    this.schedulerTargets.push(...resources);
  }

  streamStatements(fn: FunctionConstruct): StreamStatements {
    let statements = this.streams.get(fn.key);
    if (!statements) {
      statements = { dynamodb: [], kinesis: [], kinesisConsumer: [], subscribeToShard: [], snsDestinations: [], sqsDestinations: [] };
      this.streams.set(fn.key, statements);
    }
    return statements;
  }

  addQueue(arn: Json): void {
    this.queues.push(arn);
  }

  private apply(role: ExecutionRole | undefined): void {
    if (this.applied || role === undefined) return;
    this.applied = true;
    if (this.schedulerTargets.length > 0) {
      role.addStatement({ Effect: 'Allow', Action: ['lambda:InvokeFunction'], Resource: this.schedulerTargets }, 'schedule');
      trustService(role, 'scheduler.amazonaws.com');
    }
    for (const stream of this.streams.values()) {
      const add = (actions: string[], resources: Json[]) => {
        if (resources.length > 0) role.addStatement({ Effect: 'Allow', Action: actions, Resource: resources }, 'stream');
      };
      add(['dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:DescribeStream', 'dynamodb:ListStreams'], stream.dynamodb);
      add(['kinesis:GetRecords', 'kinesis:GetShardIterator', 'kinesis:DescribeStream', 'kinesis:ListStreams'], stream.kinesis);
      add(['kinesis:GetRecords', 'kinesis:GetShardIterator', 'kinesis:DescribeStreamSummary', 'kinesis:ListShards'], stream.kinesisConsumer);
      add(['kinesis:SubscribeToShard'], stream.subscribeToShard);
      add(['sns:Publish'], stream.snsDestinations);
      add(['sqs:ListQueues', 'sqs:SendMessage'], stream.sqsDestinations);
    }
    if (this.queues.length > 0) {
      role.addStatement({ Effect: 'Allow', Action: ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'], Resource: this.queues }, 'sqs');
    }
  }
}

/**
 * Adds a service principal to the role's trust policy. ExecutionRole has no hook for it
 * yet (see the report), so its fragment is amended on the way out.
 */
function trustService(role: ExecutionRole, service: string): void {
  const original = role.toCloudFormation.bind(role);
  role.toCloudFormation = () => {
    const fragment = original();
    for (const resource of Object.values(fragment.Resources ?? {})) {
      const document = (resource.Properties as { AssumeRolePolicyDocument?: { Statement?: Array<{ Principal?: { Service?: string[] } }> } })
        ?.AssumeRolePolicyDocument;
      const services = document?.Statement?.[0]?.Principal?.Service;
      // Right after lambda.amazonaws.com: the reference adds scheduler before any other service (edgelambda).
      if (services && !services.includes(service)) services.splice(1, 0, service);
    }
    return fragment;
  };
}
