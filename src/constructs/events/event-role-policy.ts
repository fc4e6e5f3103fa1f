import { Construct } from 'constructs';
import * as naming from '../../synth/naming';
import type { ExecutionRole } from '../execution-role';
import type { FunctionConstruct } from '../function';
import type { Json } from '../model';
import { getAtt } from '../resource';
import type { Service } from '../service';

/**
 * The statements the schedule, stream and sqs events add to the shared execution role
 * (`IamRoleLambdaExecution`), and the trust the scheduler needs.
 */

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
 * The statements the schedule, stream and sqs events add to `IamRoleLambdaExecution`. They are collected while
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
    return service.shared('EventRolePolicy', (scope, id) => new EventRolePolicy(scope, id));
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
