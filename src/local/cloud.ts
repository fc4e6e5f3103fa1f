import type { LocalCredentials } from './access/credentials';
import { StackEngine } from './cloudformation/engine';
import type { ResourceRecord, StackRecord } from './cloudformation/model';
import { StackStore } from './cloudformation/store';
import { deliverStreamRecords } from './dynamodb/streams';
import { TableStore } from './dynamodb/tables';
import { notifyObjectEvent } from './events/s3-notifications';
import { Scheduler } from './events/scheduler';
import { FunctionRuntime } from './runtime/functions';
import { S3Store } from './s3/store';
import { makePrivateDir } from './state/files';
import { LogStore } from './state/logs';
import { InvocationMetrics } from './metrics/invocation-metrics';
import { ParameterStore } from './state/parameters';

export const ACCOUNT_ID = '000000000000';

export interface LocalCloudOptions {
  dataDir: string;
  /** Where diagnostics go (the CLI prints them; tests stay quiet). */
  log?: (line: string) => void;
  /** The credentials requests must be signed with, which functions get as theirs. */
  credentials?: LocalCredentials;
}

/**
 * Everything the local cloud holds, shared by the protocol front-ends, the
 * stack engine and the resource providers.
 */
export class LocalCloud {
  readonly accountId = ACCOUNT_ID;
  readonly dataDir: string;
  /** What functions sign their calls to the local cloud with. */
  readonly credentials: LocalCredentials;
  /** The URL clients reach this server at; set once it listens. */
  baseUrl = 'http://127.0.0.1:4566';
  readonly s3: S3Store;
  readonly dynamodb: TableStore;
  readonly stacks: StackStore;
  readonly engine: StackEngine;
  readonly logs: LogStore;
  readonly ssm: ParameterStore;
  readonly functions: FunctionRuntime;
  /** What CloudWatch's AWS/Lambda metrics answer from (services/cloudwatch.ts). */
  readonly invocationMetrics: InvocationMetrics;
  readonly scheduler: Scheduler;
  private readonly changeListeners: (() => void)[] = [];
  private readonly logLine: (line: string) => void;

  constructor(options: LocalCloudOptions) {
    this.dataDir = options.dataDir;
    this.credentials = options.credentials ?? { accessKeyId: 'local', secretAccessKey: 'local' };
    makePrivateDir(this.dataDir);
    this.logLine = options.log ?? (() => {});
    this.s3 = new S3Store(this.dataDir);
    this.dynamodb = new TableStore(this.dataDir);
    this.stacks = new StackStore(this.dataDir);
    this.engine = new StackEngine(this);
    this.logs = new LogStore(this.dataDir);
    this.ssm = new ParameterStore(this.dataDir);
    this.functions = new FunctionRuntime(this);
    this.invocationMetrics = new InvocationMetrics(this.dataDir);
    this.scheduler = new Scheduler(this);
    this.s3.onObjectEvent = (event) => notifyObjectEvent(this, event);
    this.dynamodb.onItemChanges = (changes) => deliverStreamRecords(this, changes);
    this.onStackChange(() => this.scheduler.sync());
    this.scheduler.sync();
    // Operations a crash or a kill cut off are rolled back or finished, in the background like any operation.
    this.engine.recover();
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

  /** Resources of live stacks, optionally of one type. */
  resources(type?: string): { stack: StackRecord; record: ResourceRecord }[] {
    const found: { stack: StackRecord; record: ResourceRecord }[] = [];
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
    // A create or update still running (one waiting on a WaitCondition) rolls back rather than holding the stop.
    await this.engine.interrupt('The local cloud stopped while this operation ran');
    await this.functions.stop();
    this.stacks.save();
    this.logs.flush();
  }
}
