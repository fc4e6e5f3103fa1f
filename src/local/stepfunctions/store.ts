import { join } from 'node:path';
import { readJson, writeJsonAtomic } from '../state/files';

export type StateMachineType = 'STANDARD' | 'EXPRESS';
export type ExecutionStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED';

export interface StateMachineRecord {
  stateMachineArn: string;
  name: string;
  type: StateMachineType;
  definition: string;
  roleArn: string;
  /** Epoch seconds, as the JSON protocol carries timestamps. */
  creationDate: number;
  updateDate?: number;
  loggingConfiguration: Record<string, unknown>;
  tracingConfiguration: Record<string, unknown>;
  tags: { key: string; value: string }[];
  /** The stack that made it, when a stack did (its deletion is the stack's). */
  stackId?: string;
}

/** One event of an execution's history, as GetExecutionHistory answers it (`<type>EventDetails` beside the common fields). */
export interface HistoryEvent {
  timestamp: number;
  type: string;
  id: number;
  previousEventId: number;
  [details: string]: unknown;
}

export interface ExecutionRecord {
  executionArn: string;
  stateMachineArn: string;
  name: string;
  status: ExecutionStatus;
  startDate: number;
  stopDate?: number;
  input: string;
  output?: string;
  error?: string;
  cause?: string;
  /** The definition the execution runs: an update of the machine does not change running executions. */
  definition: string;
  roleArn: string;
  events: HistoryEvent[];
}

/** An activity: tasks of state machines that workers poll for (GetActivityTask) and answer with the task token. */
export interface ActivityRecord {
  activityArn: string;
  name: string;
  /** Epoch seconds. */
  creationDate: number;
  tags: { key: string; value: string }[];
  stackId?: string;
}

interface Saved {
  stateMachines: Record<string, StateMachineRecord>;
  executions: Record<string, ExecutionRecord>;
  activities: Record<string, ActivityRecord>;
}

/** What a restart does to an execution that was running: it fails, saying why (its in-flight work was lost with the process). */
export const INTERRUPTED = { error: 'States.Runtime', cause: 'The local cloud stopped while this execution ran; executions are not resumed after a restart.' };

/**
 * State machines and standard executions with their histories, in `<dataDir>/state/stepfunctions.json`.
 * Writes during a run are gathered (one write per 50 ms at most) and flushed on stop.
 */
export class StepFunctionsStore {
  private readonly file: string;
  private readonly saved: Saved;
  private timer: NodeJS.Timeout | undefined;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'state', 'stepfunctions.json');
    this.saved = { activities: {}, ...readJson<Omit<Saved, 'activities'> & Partial<Saved>>(this.file, { stateMachines: {}, executions: {} }) };
    let interrupted = false;
    for (const execution of Object.values(this.saved.executions)) {
      if (execution.status !== 'RUNNING') continue;
      const stopDate = Date.now() / 1000;
      const last = execution.events.at(-1);
      execution.events.push({ timestamp: stopDate, type: 'ExecutionFailed', id: (last?.id ?? 0) + 1, previousEventId: last?.id ?? 0, executionFailedEventDetails: { ...INTERRUPTED } });
      Object.assign(execution, { status: 'FAILED', stopDate, ...INTERRUPTED });
      interrupted = true;
    }
    if (interrupted) this.flush();
  }

  stateMachine(arn: string): StateMachineRecord | undefined {
    return this.saved.stateMachines[arn];
  }

  stateMachines(): StateMachineRecord[] {
    return Object.values(this.saved.stateMachines);
  }

  putStateMachine(machine: StateMachineRecord): void {
    this.saved.stateMachines[machine.stateMachineArn] = machine;
    this.flush();
  }

  deleteStateMachine(arn: string): void {
    delete this.saved.stateMachines[arn];
    this.flush();
  }

  activity(arn: string): ActivityRecord | undefined {
    return this.saved.activities[arn];
  }

  activities(): ActivityRecord[] {
    return Object.values(this.saved.activities);
  }

  putActivity(activity: ActivityRecord): void {
    this.saved.activities[activity.activityArn] = activity;
    this.flush();
  }

  deleteActivity(arn: string): void {
    delete this.saved.activities[arn];
    this.flush();
  }

  execution(arn: string): ExecutionRecord | undefined {
    return this.saved.executions[arn];
  }

  executions(stateMachineArn: string): ExecutionRecord[] {
    return Object.values(this.saved.executions).filter((execution) => execution.stateMachineArn === stateMachineArn);
  }

  putExecution(execution: ExecutionRecord): void {
    this.saved.executions[execution.executionArn] = execution;
    this.flush();
  }

  /** An execution changed (an event, its end): saved soon. */
  changed(): void {
    this.timer ??= setTimeout(() => this.flush(), 50).unref();
  }

  /** Writes what changed since the last write, if anything did. */
  flushPending(): void {
    if (this.timer) this.flush();
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    writeJsonAtomic(this.file, this.saved);
  }
}
