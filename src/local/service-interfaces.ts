import type { LocalCredentials } from './access/credentials';
import type { OperationInput, ResourceRecord, StackRecord } from './cloudformation/model';
import type { StackStore } from './cloudformation/store';
import type { TableStore } from './dynamodb/tables';
import type { KinesisStore } from './kinesis/streams';
import type { InvocationMetrics } from './cloudwatch/invocation-metrics';
import type { PublishedVersion } from './runtime/code';
import type { S3Store } from './s3/store';
import type { ApiResourceStore } from './state/api-resources';
import type { ResourceTags } from './state/resource-tags';
import type { LogStore } from './logs/store';
import type { ParameterStore } from './ssm/parameters';
import type { SecretStore } from './secretsmanager/secrets';
import type { SesStore } from './ses/store';
import type { SesOutbox } from './ses/outbox';
import type { KeyStore } from './kms/keys';
import type { StepFunctions } from './stepfunctions/step-functions';
import type { UserPoolStore } from './cognito/user-pools';

/*
 * What the parts of the local cloud need from each other, as interfaces. `cloud.ts` (the
 * composition root) makes the stores and runtimes and hands each part the services it names
 * here, so no part imports `LocalCloud` and the engine, providers and triggers form no cycle.
 */

/** Who the local cloud is and where it keeps things. */
export interface CloudIdentity {
  readonly accountId: string;
  readonly dataDir: string;
  /** The URL clients reach this server at (known once it listens). */
  readonly baseUrl: string;
  /** What requests must be signed with, and what functions sign their calls with. */
  readonly credentials: LocalCredentials;
}

/** Where diagnostics go (the CLI prints them; tests stay quiet). */
export interface Diagnostics {
  log(line: string): void;
}

export interface DeployedResource {
  stack: StackRecord;
  record: ResourceRecord;
}

/** Views over the live stacks. */
export interface DeployedResources {
  /** Resources of live stacks, optionally of one type. */
  resources(type?: string): DeployedResource[];
  /** Export name → value and owner. */
  exports(): Map<string, { value: string; stackId: string }>;
}

export interface InvokeOutcome {
  /** The invocation's id: the function's `context.awsRequestId`, and Invoke's `x-amzn-RequestId`. */
  requestId?: string;
  payload: string;
  /** 'Unhandled' when the function failed, as Lambda's X-Amz-Function-Error says. */
  functionError?: string;
  logs: string[];
  /** The log stream the invocation wrote to. */
  logStream?: string;
}

/** Runs the deployed functions (`runtime/functions.ts`). */
export interface FunctionInvoker {
  /** The function's resource; a ResourceNotFoundException when no stack has it. */
  record(reference: string): ResourceRecord;
  /** The published version a qualifier names (undefined for `$LATEST` or none). */
  version(reference: string, qualifier?: string): PublishedVersion | undefined;
  /** Invokes and waits for the result, as `Invoke` with RequestResponse does; `qualifier` runs a published version. */
  invoke(reference: string, event: unknown, qualifier?: string, clientContext?: unknown, requestId?: string): Promise<InvokeOutcome>;
  /** Invokes without waiting (the `Event` type); failures only reach the log. */
  invokeAsync(reference: string, event: unknown, qualifier?: string): void;
  /** Stops the warm processes of one function, or of all. */
  stop(name?: string): Promise<void>;
  /** The account's concurrency limit (`--concurrency-limit`; 1,000 by default, as on AWS). */
  readonly concurrencyLimit: number;
}

/** The stack operations the CloudFormation API and nested stacks start (`cloudformation/engine.ts`). */
export interface StackOperations {
  validate(input: OperationInput): void;
  refuseWhileStopping(): void;
  create(stack: StackRecord, input: OperationInput): void;
  update(stack: StackRecord, input: OperationInput): void;
  delete(stack: StackRecord): void;
  cancelUpdate(stack: StackRecord): void;
  continueUpdateRollback(stack: StackRecord, resourcesToSkip: string[]): void;
  /** Waits for the operation running on this stack, if any. */
  settled(stack: StackRecord): Promise<void>;
  newStackId(region: string, name: string): string;
}

/** The persisted stores. */
export interface Stores {
  readonly s3: S3Store;
  readonly dynamodb: TableStore;
  readonly stacks: StackStore;
  readonly logs: LogStore;
  readonly ssm: ParameterStore;
  readonly secretsManager: SecretStore;
  readonly ses: SesStore;
  /** The messages SES kept instead of sending them. */
  readonly sesOutbox: SesOutbox;
  readonly kms: KeyStore;
  /** Tags the services' tagging APIs set and removed, by resource ARN. */
  readonly tags: ResourceTags;
  /** Cognito user pools, their clients, users and groups. */
  readonly cognito: UserPoolStore;
}

/** What the stack engine needs: the stack store, parameters for SSM-typed parameters, and a hook to call when an operation ends. */
export type EngineServices = Pick<CloudIdentity, 'accountId' | 'dataDir'> &
  Diagnostics &
  DeployedResources &
  Pick<Stores, 'stacks' | 'ssm'> & {
    /** Called when a stack operation ends, so schedules and the like follow the new resources. */
    afterStackChange(): void;
    /** The fraction of a typical AWS provisioning time each resource step takes (0: none; `--provisioning-delay`). */
    readonly provisioningDelay: number;
  };

/**
 * Sends a message to an SQS queue, SNS topic, function (asynchronously) or event bus by ARN
 * (destinations, dead-letter targets, SNS → SQS, EventBridge targets); for a bus, `event` gives the
 * event's source, detail type and resources, the message being its detail.
 */
export type DestinationSender = (
  arn: string,
  message: string,
  attributes?: Record<string, { DataType: string; StringValue?: string }>,
  event?: { source: string; detailType: string; resources: string[] },
) => void;

/** What the function runtime needs: the functions' resources, where code and logs go, what functions sign with. */
export type RuntimeServices = CloudIdentity & Diagnostics & Pick<DeployedResources, 'resources'> & Pick<Stores, 'logs'> & {
  /** Where each invocation's count, duration and outcome go (CloudWatch metrics). */
  readonly invocationMetrics: InvocationMetrics;
  /** Where asynchronous invocations' destinations and dead-letter targets are sent. */
  sendToDestination: DestinationSender;
};

/** What a trigger (S3 notifications, schedules, DynamoDB streams, SNS, EventBridge) needs: the targets it finds and a way to run them. */
export type TriggerServices = Pick<CloudIdentity, 'accountId'> & Diagnostics & Pick<DeployedResources, 'resources'> & { readonly functions: FunctionInvoker; sendToDestination: DestinationSender };

/** Everything the local cloud offers: what resource providers and the API front-ends are given. */
export type LocalServices = CloudIdentity &
  Diagnostics &
  DeployedResources &
  Stores & {
    readonly functions: FunctionInvoker;
    readonly engine: StackOperations;
    /** Kinesis streams and their records. */
    readonly kinesis: KinesisStore;
    /** Step Functions: state machines and executions (`AWS::StepFunctions::StateMachine` makes them). */
    readonly stepFunctions: StepFunctions;
    /** Resources made by API calls (CreateQueue, CreateTopic, CreateFunction, …), beside the stacks'. */
    readonly apiResources: ApiResourceStore;
    sendToDestination: DestinationSender;
    /** Called when resources change outside a stack operation, so schedules, mappings and the like follow. */
    afterStackChange(): void;
    /** Registers a listener called after each stack change. */
    onStackChange(listener: () => void): void;
    /** Where the Application Load Balancer listeners answer (`alb/load-balancers.ts`). */
    readonly loadBalancers: LoadBalancerEndpoints;
  };

export interface ListenerEndpoint {
  listenerArn: string;
  /** Where the listener answers on this machine. */
  url: string;
  /** The stack resource, when a stack has the listener (not one of another stack or account that rules name). */
  logicalId?: string;
}

/** Where the load balancer listeners of some stacks answer, once those being started listen. */
export interface LoadBalancerEndpoints {
  ready(): Promise<void>;
  endpoints(stackIds?: Set<string>): ListenerEndpoint[];
}
