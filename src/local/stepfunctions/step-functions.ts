import { randomUUID } from 'node:crypto';
import { AwsError } from '../protocol/errors';
import { parseDefinition } from './definition';
import { Aborted, ExecutionTimedOut, Interpreter } from './interpreter';
import { StatesError } from './states-error';
import { StepFunctionsStore, type ActivityRecord, type ExecutionRecord, type StateMachineRecord, type StateMachineType } from './store';
import type { FunctionOutcome, TaskServices } from './task-services';

/** What executions reach outside Step Functions (the composition root wires it). */
export interface StepFunctionsServices {
  readonly accountId: string;
  invoke(functionName: string, event: unknown, qualifier?: string): Promise<FunctionOutcome>;
  invokeAsync(functionName: string, event: unknown, qualifier?: string): void;
  publish(input: Record<string, unknown>, region: string): { MessageId: string };
  getObject: TaskServices['getObject'];
  putObject: TaskServices['putObject'];
}

const NAME = /^[A-Za-z0-9_-]{1,80}$/;
const now = () => Date.now() / 1000;

export const invalidName = (name: string) => new AwsError('InvalidName', `Invalid Name: '${name}'`);
export const machineNotFound = (arn: string) => new AwsError('StateMachineDoesNotExist', `State Machine Does Not Exist: '${arn}'`);
export const activityNotFound = (arn: string) => new AwsError('ActivityDoesNotExist', `Activity Does Not Exist: '${arn}'`);

/** How long GetActivityTask waits for a task before it answers without one (AWS: 60 s). */
const ACTIVITY_POLL_MS = 60_000;

/** A task of an activity, scheduled by an execution, waiting for a worker. */
interface ActivityTask {
  token: string;
  input: string;
  /** Tells the execution a worker took it (its ActivityStarted event). */
  started(workerName: string | undefined): void;
}
export const executionNotFound = (arn: string) => new AwsError('ExecutionDoesNotExist', `Execution Does Not Exist: '${arn}'`);

const ARN_PATTERNS = {
  stateMachine: /^arn:aws[a-z-]*:states:[^:]+:\d{12}:stateMachine:[^:]+$/,
  execution: /^arn:aws[a-z-]*:states:[^:]+:\d{12}:(execution|express):[^:]+:[^:]+(:[^:]+)?$/,
  activity: /^arn:aws[a-z-]*:states:[^:]+:\d{12}:activity:[^:]+$/,
};

function checkArn(arn: unknown, kind: keyof typeof ARN_PATTERNS): string {
  const pattern = ARN_PATTERNS[kind];
  if (typeof arn !== 'string' || !pattern.test(arn)) throw new AwsError('InvalidArn', `Invalid Arn: 'Resource type not valid in this context: ${String(arn).split(':')[5] ?? ''}'`);
  return arn;
}

export interface StateMachineInput {
  name: string;
  definition: string;
  roleArn: string;
  type?: StateMachineType;
  loggingConfiguration?: Record<string, unknown>;
  tracingConfiguration?: Record<string, unknown>;
  tags?: { key: string; value: string }[];
  stackId?: string;
}

interface Running {
  interpreter: Interpreter;
  done: Promise<void>;
}

/**
 * AWS Step Functions in the local cloud: state machines and their executions, run in the background
 * by the interpreter, their histories kept in the store. A restart fails the executions it cut off
 * (store.ts, INTERRUPTED): what a process was doing cannot be picked up exactly where it stopped.
 */
export class StepFunctions {
  readonly store: StepFunctionsStore;
  private readonly running = new Map<string, Running>();
  private readonly tokens = new Map<string, { resolve(value: unknown): void; reject(error: unknown): void; beat(): void }>();
  /** Tasks of each activity no worker has taken yet, oldest first, and the workers waiting in GetActivityTask. */
  private readonly activityTasks = new Map<string, ActivityTask[]>();
  private readonly activityPollers = new Map<string, ((task: ActivityTask) => void)[]>();
  private closed = false;
  /** A JSON-protocol call to the local server (set by the server, which owns the APIs). */
  callApi: (target: string, input: Record<string, unknown>, region: string) => Promise<Record<string, unknown>> = async (target) => {
    throw new AwsError('UnknownOperationException', `not emulated: ${target}`);
  };

  constructor(
    dataDir: string,
    private readonly services: StepFunctionsServices,
  ) {
    this.store = new StepFunctionsStore(dataDir);
  }

  stateMachineArn(region: string, name: string): string {
    return `arn:aws:states:${region}:${this.services.accountId}:stateMachine:${name}`;
  }

  machine(arn: unknown): StateMachineRecord {
    const machine = this.store.stateMachine(checkArn(arn, 'stateMachine'));
    if (!machine) throw machineNotFound(String(arn));
    return machine;
  }

  create(input: StateMachineInput, region: string): StateMachineRecord {
    if (!NAME.test(input.name)) throw invalidName(input.name);
    parseDefinition(input.definition);
    const arn = this.stateMachineArn(region, input.name);
    const existing = this.store.stateMachine(arn);
    if (existing) {
      // The same request again is answered with the machine it made, as AWS does.
      if (existing.definition === input.definition && existing.roleArn === input.roleArn && existing.type === (input.type ?? 'STANDARD')) return existing;
      throw new AwsError('StateMachineAlreadyExists', `State Machine Already Exists: '${arn}'`);
    }
    const machine: StateMachineRecord = {
      stateMachineArn: arn,
      name: input.name,
      type: input.type ?? 'STANDARD',
      definition: input.definition,
      roleArn: input.roleArn,
      creationDate: now(),
      loggingConfiguration: input.loggingConfiguration ?? { level: 'OFF', includeExecutionData: false },
      tracingConfiguration: input.tracingConfiguration ?? { enabled: false },
      tags: input.tags ?? [],
      stackId: input.stackId,
    };
    this.store.putStateMachine(machine);
    return machine;
  }

  update(arn: unknown, changes: Partial<Pick<StateMachineRecord, 'definition' | 'roleArn' | 'loggingConfiguration' | 'tracingConfiguration'>>): StateMachineRecord {
    const machine = this.machine(arn);
    if (changes.definition !== undefined) parseDefinition(changes.definition);
    const updated = { ...machine, ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)), updateDate: now() };
    this.store.putStateMachine(updated);
    return updated;
  }

  /** Deletes the machine; its running executions are stopped, as AWS stops them. */
  delete(arn: unknown): void {
    const machine = this.store.stateMachine(checkArn(arn, 'stateMachine'));
    if (!machine) return;
    for (const execution of this.store.executions(machine.stateMachineArn)) if (execution.status === 'RUNNING') this.stop(execution.executionArn, 'States.Aborted', 'The state machine was deleted');
    this.store.deleteStateMachine(machine.stateMachineArn);
  }

  /** CreateActivity: an activity of that name already made is answered again, as AWS does. */
  createActivity(name: string, tags: ActivityRecord['tags'], region: string, stackId?: string): ActivityRecord {
    if (!NAME.test(name)) throw invalidName(name);
    const activityArn = `arn:aws:states:${region}:${this.services.accountId}:activity:${name}`;
    const existing = this.store.activity(activityArn);
    if (existing) return existing;
    const activity: ActivityRecord = { activityArn, name, creationDate: now(), tags, ...(stackId ? { stackId } : {}) };
    this.store.putActivity(activity);
    return activity;
  }

  activity(arn: unknown): ActivityRecord {
    const activity = this.store.activity(checkArn(arn, 'activity'));
    if (!activity) throw activityNotFound(String(arn));
    return activity;
  }

  deleteActivity(arn: unknown): void {
    const activityArn = checkArn(arn, 'activity');
    this.store.deleteActivity(activityArn);
    this.activityTasks.delete(activityArn);
  }

  /** GetActivityTask: the oldest waiting task of the activity, or after 60 s without one, none. */
  getActivityTask(arn: unknown, workerName: string | undefined, waitMs = ACTIVITY_POLL_MS): Promise<{ taskToken?: string; input?: string }> {
    const activityArn = this.activity(arn).activityArn;
    const take = (task: ActivityTask) => {
      task.started(workerName);
      return { taskToken: task.token, input: task.input };
    };
    const waiting = this.activityTasks.get(activityArn);
    if (waiting?.length) return Promise.resolve(take(waiting.shift()!));
    return new Promise((resolve) => {
      const poller = (task: ActivityTask) => {
        clearTimeout(timer);
        resolve(take(task));
      };
      const timer = setTimeout(() => {
        const pollers = this.activityPollers.get(activityArn) ?? [];
        this.activityPollers.set(activityArn, pollers.filter((other) => other !== poller));
        resolve({});
      }, waitMs);
      timer.unref();
      this.activityPollers.set(activityArn, [...(this.activityPollers.get(activityArn) ?? []), poller]);
    });
  }

  /** An execution's activity task: to a waiting worker, else queued. Returns what withdraws it (the task ended before a worker took it). */
  private scheduleActivity(activityArn: string, task: ActivityTask): () => void {
    if (!this.store.activity(activityArn)) throw new StatesError('States.Runtime', `Activity Does Not Exist: '${activityArn}'`);
    const poller = this.activityPollers.get(activityArn)?.shift();
    if (poller) {
      poller(task);
      return () => {};
    }
    this.activityTasks.set(activityArn, [...(this.activityTasks.get(activityArn) ?? []), task]);
    return () => this.activityTasks.set(activityArn, (this.activityTasks.get(activityArn) ?? []).filter((queued) => queued !== task));
  }

  execution(arn: unknown): ExecutionRecord {
    const execution = this.store.execution(checkArn(arn, 'execution'));
    if (!execution) throw executionNotFound(String(arn));
    return execution;
  }

  /** StartExecution: the record at once, the run in the background (StartSyncExecution awaits `done`). */
  start(stateMachineArn: unknown, input: string | undefined, name: string | undefined, region: string): { execution: ExecutionRecord; done: Promise<void> } {
    const machine = this.machine(stateMachineArn);
    const executionName = name ?? randomUUID();
    if (!NAME.test(executionName)) throw invalidName(executionName);
    const text = input ?? '{}';
    try {
      JSON.parse(text);
    } catch (error) {
      throw new AwsError('InvalidExecutionInput', `Invalid State Machine Execution Input: '${(error as Error).message}'`);
    }
    const express = machine.type === 'EXPRESS';
    const base = `arn:aws:states:${machine.stateMachineArn.split(':')[3]}:${this.services.accountId}`;
    const executionArn = express ? `${base}:express:${machine.name}:${executionName}:${randomUUID()}` : `${base}:execution:${machine.name}:${executionName}`;
    const existing = this.store.execution(executionArn);
    if (existing) {
      // The same name and input while it runs: the same answer; otherwise the name is taken.
      if (existing.status === 'RUNNING' && existing.input === text) return { execution: existing, done: this.running.get(executionArn)?.done ?? Promise.resolve() };
      throw new AwsError('ExecutionAlreadyExists', `Execution Already Exists: '${executionArn}'`);
    }
    const execution: ExecutionRecord = { executionArn, stateMachineArn: machine.stateMachineArn, name: executionName, status: 'RUNNING', startDate: now(), input: text, definition: machine.definition, roleArn: machine.roleArn, events: [] };
    // Express executions are not kept: AWS answers their history only through CloudWatch Logs.
    if (!express) this.store.putExecution(execution);
    const interpreter = new Interpreter(execution, this.host(region, express), machine.name);
    const done = this.run(interpreter, execution);
    this.running.set(executionArn, { interpreter, done });
    return { execution, done };
  }

  private host(region: string, express: boolean) {
    const services = this.services;
    const tasks: TaskServices = {
      region,
      invoke: (name, event, qualifier) => services.invoke(name, event, qualifier),
      invokeAsync: (name, event, qualifier) => services.invokeAsync(name, event, qualifier),
      callApi: (target, input) => this.callApi(target, input, region),
      publish: (input) => services.publish(input, region),
      getObject: (bucket, key, versionId) => services.getObject(bucket, key, versionId),
      putObject: (bucket, key, body, contentType) => services.putObject(bucket, key, body, contentType),
    };
    return {
      ...tasks,
      scheduleActivity: (activityArn: string, token: string, input: string, started: (workerName: string | undefined) => void) => this.scheduleActivity(activityArn, { token, input, started }),
      changed: () => {
        if (!express && !this.closed) this.store.changed();
      },
      awaitToken: (token: string, signal: AbortSignal, heartbeatSeconds?: number) =>
        new Promise<unknown>((resolve, reject) => {
          let timer: NodeJS.Timeout | undefined;
          const end = () => {
            clearTimeout(timer);
            this.tokens.delete(token);
          };
          // Without a heartbeat within HeartbeatSeconds the task fails with States.HeartbeatTimeout; each SendTaskHeartbeat starts the wait again.
          const beat = () => {
            if (heartbeatSeconds === undefined) return;
            clearTimeout(timer);
            timer = setTimeout(() => {
              end();
              reject(new StatesError('States.HeartbeatTimeout', ''));
            }, heartbeatSeconds * 1000);
          };
          this.tokens.set(token, { resolve: (value) => (end(), resolve(value)), reject: (error) => (end(), reject(error)), beat });
          beat();
          signal.addEventListener('abort', () => {
            end();
            reject(new Aborted());
          }, { once: true });
        }),
    };
  }

  private async run(interpreter: Interpreter, execution: ExecutionRecord): Promise<void> {
    const trail = () => ({ last: execution.events.at(-1)?.id ?? 0 });
    try {
      const output = await interpreter.run(parseDefinition(execution.definition));
      if (execution.status !== 'RUNNING' || this.closed) return;
      const text = JSON.stringify(output);
      interpreter.emit(trail(), 'ExecutionSucceeded', 'executionSucceededEventDetails', { output: text, outputDetails: { truncated: false } });
      Object.assign(execution, { status: 'SUCCEEDED', output: text, stopDate: now() });
    } catch (thrown) {
      if (execution.status !== 'RUNNING' || this.closed || thrown instanceof Aborted) return;
      const error = thrown instanceof StatesError ? thrown : new StatesError('States.Runtime', (thrown as Error).message);
      const timedOut = thrown instanceof ExecutionTimedOut;
      interpreter.stop();
      if (timedOut) {
        interpreter.emit(trail(), 'ExecutionTimedOut', 'executionTimedOutEventDetails', { error: error.error, cause: error.cause });
        Object.assign(execution, { status: 'TIMED_OUT', error: error.error, cause: error.cause, stopDate: now() });
      } else {
        interpreter.emit(trail(), 'ExecutionFailed', 'executionFailedEventDetails', { error: error.error, cause: error.cause });
        Object.assign(execution, { status: 'FAILED', error: error.error, cause: error.cause, stopDate: now() });
      }
    } finally {
      this.running.delete(execution.executionArn);
      if (!this.closed && !execution.executionArn.includes(':express:')) this.store.changed();
    }
  }

  /** StopExecution: the execution ends ABORTED at once; what it was running is let go. */
  stop(executionArn: unknown, error?: string, cause?: string): ExecutionRecord {
    const execution = this.execution(executionArn);
    if (execution.status !== 'RUNNING') return execution;
    const running = this.running.get(execution.executionArn);
    running?.interpreter.stop();
    const details: Record<string, unknown> = {};
    if (error !== undefined) details.error = error;
    if (cause !== undefined) details.cause = cause;
    const last = execution.events.at(-1);
    execution.events.push({ timestamp: now(), type: 'ExecutionAborted', id: (last?.id ?? 0) + 1, previousEventId: last?.id ?? 0, executionAbortedEventDetails: details });
    Object.assign(execution, { status: 'ABORTED', stopDate: now(), ...details });
    this.store.changed();
    return execution;
  }

  /** SendTaskSuccess / SendTaskFailure / SendTaskHeartbeat. */
  settleToken(token: unknown, outcome: { output: unknown } | { error: string; cause: string } | 'heartbeat'): void {
    const waiting = typeof token === 'string' ? this.tokens.get(token) : undefined;
    if (!waiting) throw new AwsError('TaskDoesNotExist', `Task Does Not Exist: '${String(token)}'`);
    if (outcome === 'heartbeat') return waiting.beat();
    if ('output' in outcome) waiting.resolve(outcome.output);
    else waiting.reject(new StatesError(outcome.error, outcome.cause));
  }

  /** Stops every run without recording it (the next start fails what was running, store.ts) and saves. */
  close(): void {
    this.closed = true;
    for (const { interpreter } of this.running.values()) interpreter.stop();
    this.store.flushPending();
  }
}
