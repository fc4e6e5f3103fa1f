import { ANY_LOCAL_CREDENTIALS, type LocalCredentials } from './access/credentials';
import { LoadBalancers } from './alb/load-balancers';
import { StackEngine } from './cloudformation/engine';
import { StackStore } from './cloudformation/store';
import { DynamoDbStreams } from './dynamodb/streams';
import { ShardPositions } from './lambda/shard-positions';
import { ResourceTags } from './state/resource-tags';
import { LogSubscriptions } from './logs/subscriptions';
import { LogMetricFilters } from './logs/metric-filters';
import { MetricAlarms } from './cloudwatch/alarms';
import { Dashboards } from './cloudwatch/dashboards';
import { TableStore } from './dynamodb/tables';
import { notifyObjectEvent } from './s3/notifications';
import { Scheduler } from './eventbridge/scheduler';
import { ShardDelivery } from './lambda/shard-delivery';
import { kinesisShardSource } from './kinesis/lambda-source';
import { KinesisStore } from './kinesis/streams';
import { FunctionRuntime, type RuntimeOptions } from './runtime/functions';
import { S3Store } from './s3/store';
import type { DeployedResource, DestinationSender, LocalServices } from './service-interfaces';
import { ApiResourceStore } from './state/api-resources';
import { ImageRepositoryStore } from './ecr/repositories';
import { unlessDiskFull } from './state/storage-failure';
import { makePrivateDir } from './state/files';
import { claimDataFolder, leaseDataFolder } from './state/data-folder';
import { LogStore } from './logs/store';
import { InvocationMetrics } from './cloudwatch/invocation-metrics';
import { ParameterStore } from './ssm/parameters';
import { SecretStore } from './secretsmanager/secrets';
import { SesStore } from './ses/store';
import { SesOutbox } from './ses/outbox';
import { KeyStore } from './kms/keys';
import { UserPoolStore } from './cognito/user-pools';
import { RoleStore } from './iam/roles';
import { CustomMetrics } from './cloudwatch/custom-metrics';
import { StepFunctions } from './stepfunctions/step-functions';
import { publish } from './sns/service';

export const ACCOUNT_ID = '000000000000';

export interface LocalCloudOptions {
  dataDir: string;
  /** Where diagnostics go (the CLI prints them; tests stay quiet). */
  log?: (line: string) => void;
  /** The credentials requests must be signed with, which functions get as theirs. */
  credentials?: LocalCredentials;
  /** Each resource step takes this fraction of its typical AWS time (see cloudformation/provisioning-times.ts); default 0. */
  provisioningDelay?: number;
  /** The account's Lambda concurrency limit and how long idle execution environments live (runtime/functions.ts). */
  functions?: RuntimeOptions;
}

/**
 * The composition root: makes the stores and runtimes and hands each part of the local cloud
 * the services it needs (`service-interfaces.ts`); it is the one place that knows them all.
 */
export class LocalCloud implements LocalServices {
  readonly accountId = ACCOUNT_ID;
  readonly dataDir: string;
  /** What functions sign their calls to the local cloud with. */
  readonly credentials: LocalCredentials;
  /** The URL clients reach this server at; set once it listens. */
  baseUrl = 'http://127.0.0.1:4566';
  /** `--provisioning-delay`: the fraction of a typical AWS time each resource step takes (0: none). */
  readonly provisioningDelay: number;
  readonly s3: S3Store;
  readonly dynamodb: TableStore;
  /** The records of the tables' streams (the DynamoDB Streams API and the mappings on them read them). */
  readonly dynamoDbStreams: DynamoDbStreams;
  readonly kinesis: KinesisStore;
  readonly stacks: StackStore;
  readonly engine: StackEngine;
  readonly logs: LogStore;
  readonly ssm: ParameterStore;
  readonly secretsManager: SecretStore;
  /** SES identities, templates and configuration sets; the messages it kept instead of sending. */
  readonly ses: SesStore;
  readonly sesOutbox: SesOutbox;
  /** KMS keys, their material and aliases. */
  readonly kms: KeyStore;
  /** State machines and their executions (stepfunctions/). */
  readonly stepFunctions: StepFunctions;
  readonly cognito: UserPoolStore;
  readonly iam: RoleStore;
  /** ECR repositories and the images recorded in them (ecr/service.ts). */
  readonly ecr: ImageRepositoryStore;
  /** Topics, subscriptions, functions, mappings and rules made by API calls instead of stacks. */
  readonly apiResources: ApiResourceStore;
  readonly tags: ResourceTags;
  readonly functions: FunctionRuntime;
  /** What CloudWatch's AWS/Lambda metrics answer from (cloudwatch/service.ts). */
  readonly invocationMetrics: InvocationMetrics;
  readonly customMetrics: CustomMetrics;
  readonly metricAlarms: MetricAlarms;
  readonly dashboards: Dashboards;
  readonly scheduler: Scheduler;
  /** Application Load Balancer listeners, each served on a port of its own. */
  readonly loadBalancers: LoadBalancers;
  /** Event source mappings on DynamoDB and Kinesis streams. */
  readonly streamDeliveries: ShardDelivery[];
  /**
   * Sends a message to a queue (by ARN) or publishes it to a topic: on-failure destinations use it.
   * The server sets it, since the queues live with the SQS API.
   */
  sendToDestination: DestinationSender = (arn) => {
    throw new Error(`no destination ${arn}`);
  };
  private readonly changeListeners: (() => void)[] = [];
  private readonly logLine: (line: string) => void;
  private readonly releaseDataFolder: () => void;

  constructor(options: LocalCloudOptions) {
    this.dataDir = options.dataDir;
    this.credentials = options.credentials ?? ANY_LOCAL_CREDENTIALS;
    this.provisioningDelay = options.provisioningDelay ?? 0;
    claimDataFolder(this.dataDir);
    makePrivateDir(this.dataDir);
    this.releaseDataFolder = leaseDataFolder(this.dataDir);
    this.logLine = options.log ?? (() => {});
    this.s3 = new S3Store(this.dataDir);
    this.dynamodb = new TableStore(this.dataDir, (line) => this.log(line));
    this.dynamoDbStreams = new DynamoDbStreams(this.dataDir, (line) => this.log(line));
    this.kinesis = new KinesisStore(this.dataDir, (line) => this.log(line));
    this.stacks = new StackStore(this.dataDir);
    this.engine = new StackEngine(this, this);
    this.logs = new LogStore(this.dataDir, (line) => this.log(line));
    this.ssm = new ParameterStore(this.dataDir);
    this.secretsManager = new SecretStore(this.dataDir);
    this.ses = new SesStore(this.dataDir);
    this.sesOutbox = new SesOutbox(this.dataDir, (line) => this.log(line));
    this.kms = new KeyStore(this.dataDir, this.accountId);
    this.cognito = new UserPoolStore(this.dataDir);
    this.iam = new RoleStore(this.dataDir);
    this.ecr = new ImageRepositoryStore(this.dataDir);
    this.apiResources = new ApiResourceStore(this.dataDir);
    this.tags = new ResourceTags(this.dataDir);
    this.functions = new FunctionRuntime(this, options.functions);
    this.invocationMetrics = new InvocationMetrics(this.dataDir);
    this.customMetrics = new CustomMetrics(this.dataDir);
    this.stepFunctions = new StepFunctions(this.dataDir, {
      accountId: this.accountId,
      invoke: async (name, event, qualifier) => {
        const version = this.functions.version(name, qualifier);
        return { ...(await this.functions.invoke(name, event, qualifier)), executedVersion: version?.Version ?? '$LATEST' };
      },
      invokeAsync: (name, event, qualifier) => this.functions.invokeAsync(name, event, qualifier),
      publish: (input) => ({
        MessageId: publish(this, String(input.TopicArn), { message: String(input.Message), subject: input.Subject as string | undefined, attributes: input.MessageAttributes as never }),
      }),
      getObject: (bucket, key, versionId) => this.s3.readObject(bucket, key, versionId),
      putObject: (bucket, key, body, contentType) => this.s3.putObject(bucket, key, body, { contentType }),
    });
    this.metricAlarms = new MetricAlarms(this.dataDir);
    this.dashboards = new Dashboards(this.dataDir);
    this.scheduler = new Scheduler(this);
    this.loadBalancers = new LoadBalancers(this);
    this.s3.onObjectEvent = (event) => notifyObjectEvent(this, event);
    const logSubscriptions = new LogSubscriptions(this);
    const logMetricFilters = new LogMetricFilters(this, (input) => this.customMetrics.put(input));
    this.logs.onEvents = (group, stream, events) => {
      logSubscriptions.deliver(group, stream, events);
      logMetricFilters.record(group, events);
    };
    const { dynamoDbStreams } = this;
    const dynamoDbDelivery = new ShardDelivery(this, dynamoDbStreams, new ShardPositions(this.dataDir, 'dynamodb'));
    const kinesisDelivery = new ShardDelivery(this, kinesisShardSource(this.kinesis), new ShardPositions(this.dataDir, 'kinesis'));
    this.streamDeliveries = [dynamoDbDelivery, kinesisDelivery];
    this.dynamodb.onItemChanges = (changes) => dynamoDbStreams.record(changes);
    dynamoDbStreams.onRecords = (streamArn) => dynamoDbDelivery.notify(streamArn);
    this.kinesis.onRecords = (streamArn) => kinesisDelivery.notify(streamArn);
    this.onStackChange(() => this.scheduler.sync());
    this.onStackChange(() => this.loadBalancers.sync());
    this.onStackChange(() => this.streamDeliveries.forEach((delivery) => delivery.sync()));
    this.scheduler.sync();
    // Operations a crash or a kill cut off are rolled back or finished, in the background like any operation.
    this.engine.recover();
  }

  /** Once the server listens: event source mappings read on from where they were before a restart. */
  started(): void {
    for (const delivery of this.streamDeliveries) delivery.sync();
  }

  log(line: string): void {
    this.logLine(line);
  }

  /** Export name → value and owner, over all live stacks. */
  exports(): Map<string, { value: string; stackId: string }> {
    const found = new Map<string, { value: string; stackId: string }>();
    for (const stack of this.stacks.live()) {
      for (const output of stack.outputs) if (output.ExportName) found.set(output.ExportName, { value: output.OutputValue, stackId: stack.stackId });
    }
    return found;
  }

  /** Resources of live stacks and those made by API calls, optionally of one type. */
  resources(type?: string): DeployedResource[] {
    const found: DeployedResource[] = this.apiResources.list(type);
    for (const stack of this.stacks.live()) {
      for (const record of Object.values(stack.resources)) if (!type || record.type === type) found.push({ stack, record });
    }
    return found;
  }

  onStackChange(listener: () => void): void {
    this.changeListeners.push(listener);
  }

  /** Called when a stack operation ends, so schedules and the like follow the new resources. */
  afterStackChange(): void {
    for (const listener of this.changeListeners) listener();
  }

  async close(): Promise<void> {
    this.scheduler.stop();
    await this.loadBalancers.close();
    for (const delivery of this.streamDeliveries) delivery.stop();
    // A create or update still running (one waiting on a WaitCondition) rolls back rather than holding the stop.
    await this.engine.interrupt('The local cloud stopped while this operation ran');
    unlessDiskFull('saving Step Functions executions on stop', () => this.stepFunctions.close(), (line) => this.log(line));
    await this.functions.stop();
    // On a full disk what could not be saved is said in one line each, and the local cloud still stops.
    unlessDiskFull('saving stacks on stop', () => this.stacks.save(), (line) => this.log(line));
    unlessDiskFull('saving function logs on stop', () => this.logs.close(), (line) => this.log(line));
    unlessDiskFull('saving invocation metrics on stop', () => this.invocationMetrics.flush(), (line) => this.log(line));
    this.dynamodb.close();
    this.dynamoDbStreams.close();
    this.releaseDataFolder();
  }
}
