import { randomUUID } from 'node:crypto';
import { matches } from './choice';
import type { State, StateMachineDefinition } from './definition';
import { readPath, resolvePath, type PathScope } from './json-path';
import { applyTemplate, pathOrIntrinsic, placeResult, selectPath } from './paths';
import { runtimeError, StatesError } from './states-error';
import type { ExecutionRecord, HistoryEvent } from './store';
import type { TaskServices } from './task-services';
import { parseResource, runFunction, runIntegration } from './tasks';

/** Where an execution's events go, and the task tokens `.waitForTaskToken` tasks wait on. */
export interface ExecutionHost extends TaskServices {
  /** Called after every event (the store saves soon). */
  changed(): void;
  /** Registers a task token; the promise settles when SendTaskSuccess/Failure names it. */
  awaitToken(token: string, signal: AbortSignal, heartbeatSeconds?: number): Promise<unknown>;
  /** Hands an activity task to a worker (now or when one polls); returns what withdraws it. */
  scheduleActivity(activityArn: string, token: string, input: string, started: (workerName: string | undefined) => void): () => void;
}

/** The chain of events of one branch: each event's previousEventId is the one before it in its branch. */
interface Trail {
  last: number;
  /** The trail of the Parallel or Map state a branch or iteration runs under. */
  parent?: Trail;
  /** Set when a sibling failed the state this branch runs under: it stops at its next step, recording nothing more. */
  stopped?: boolean;
}

function stopped(trail: Trail): boolean {
  for (let at: Trail | undefined = trail; at; at = at.parent) if (at.stopped) return true;
  return false;
}

const json = (value: unknown) => JSON.stringify(value);
/** Step Functions truncates no input or output here: histories keep them whole. */
const details = (_value?: unknown) => ({ truncated: false });

/** Errors a retrier or catcher's ErrorEquals matches: States.ALL all but States.Runtime, States.TaskFailed all but timeouts. */
function errorMatches(names: string[], error: string): boolean {
  if (names.includes(error)) return true;
  if (error === 'States.Runtime' || error === 'States.DataLimitExceeded') return false;
  if (names.includes('States.ALL')) return true;
  return names.includes('States.TaskFailed') && error !== 'States.Timeout' && error !== 'States.HeartbeatTimeout';
}

const asStatesError = (error: unknown): StatesError => (error instanceof StatesError ? error : new StatesError('States.Runtime', (error as Error).message ?? String(error)));

class Aborted extends Error {}

/** The execution's own TimeoutSeconds ran out (it ends TIMED_OUT, not FAILED). */
export class ExecutionTimedOut extends StatesError {}

/** Runs one execution of a definition: states, paths, retries and catches, and the history AWS records. */
export class Interpreter {
  private readonly controller = new AbortController();
  /** Context object fields shared by every state. */
  private readonly executionContext: Record<string, unknown>;

  constructor(
    private readonly execution: ExecutionRecord,
    private readonly host: ExecutionHost,
    stateMachineName: string,
  ) {
    this.executionContext = {
      Execution: { Id: execution.executionArn, Input: JSON.parse(execution.input) as unknown, Name: execution.name, RoleArn: execution.roleArn, StartTime: new Date(execution.startDate * 1000).toISOString(), RedriveCount: 0 },
      StateMachine: { Id: execution.stateMachineArn, Name: stateMachineName },
    };
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** StopExecution (or the local cloud stopping): the run ends at its next step. */
  stop(): void {
    this.controller.abort();
  }

  emit(trail: Trail, type: string, detailsKey?: string, body?: Record<string, unknown>): number {
    if (stopped(trail)) throw new Aborted();
    const events = this.execution.events;
    const id = events.length + 1;
    const event: HistoryEvent = { timestamp: Date.now() / 1000, type, id, previousEventId: trail.last };
    if (detailsKey) event[detailsKey] = body ?? {};
    events.push(event);
    trail.last = id;
    this.host.changed();
    return id;
  }

  /** Runs the whole execution; resolves with its output, or rejects with the StatesError that failed it. */
  async run(definition: StateMachineDefinition): Promise<unknown> {
    const trail: Trail = { last: 0 };
    const input = JSON.parse(this.execution.input) as unknown;
    this.emit(trail, 'ExecutionStarted', 'executionStartedEventDetails', { input: this.execution.input, inputDetails: details(input), roleArn: this.execution.roleArn });
    const timeout = definition.TimeoutSeconds;
    const running = this.machine(definition, input, trail, {});
    if (timeout === undefined) return running;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ExecutionTimedOut('States.Timeout', `The execution ran longer than its TimeoutSeconds (${timeout})`)), timeout * 1000);
    });
    try {
      return await Promise.race([running, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  private check(trail: Trail): void {
    if (this.controller.signal.aborted || stopped(trail)) throw new Aborted();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.controller.signal.aborted) return reject(new Aborted());
      const timer = setTimeout(() => {
        this.controller.signal.removeEventListener('abort', onAbort);
        resolve();
      }, Math.max(0, ms));
      const onAbort = () => {
        clearTimeout(timer);
        reject(new Aborted());
      };
      this.controller.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** A machine, a Parallel branch or a Map iteration: its states in turn from StartAt. */
  private async machine(definition: StateMachineDefinition, input: unknown, trail: Trail, extra: Record<string, unknown>): Promise<unknown> {
    let name = definition.StartAt;
    let value = input;
    for (;;) {
      this.check(trail);
      const state = definition.States[name];
      const { output, next } = await this.state(name, state, value, trail, extra);
      if (next === undefined) return output;
      name = next;
      value = output;
    }
  }

  private context(name: string, extra: Record<string, unknown>, retryCount = 0): Record<string, unknown> {
    return { ...this.executionContext, ...extra, State: { EnteredTime: new Date().toISOString(), Name: name, RetryCount: retryCount } };
  }

  private async state(name: string, state: State, input: unknown, trail: Trail, extra: Record<string, unknown>): Promise<{ output: unknown; next?: string }> {
    const type = state.Type;
    this.emit(trail, `${type}StateEntered`, 'stateEnteredEventDetails', { name, input: json(input), inputDetails: details(input) });
    const context = this.context(name, extra);
    const scope = (value: unknown): PathScope => ({ input: value, context });
    const exit = (output: unknown, next?: string) => {
      this.emit(trail, `${type}StateExited`, 'stateExitedEventDetails', { name, output: json(output), outputDetails: details(output) });
      return { output, next: state.End === true ? undefined : next };
    };
    const outputPath = state.OutputPath as string | null | undefined;
    const effective = () => selectPath(state.InputPath as string | null | undefined, input, 'InputPath');
    switch (type) {
      case 'Pass': {
        const value = effective();
        const result = state.Parameters !== undefined ? applyTemplate(state.Parameters, scope(value)) : state.Result !== undefined ? state.Result : value;
        return exit(selectPath(outputPath, placeResult(state.ResultPath as string | null | undefined, input, result), 'OutputPath'), state.Next);
      }
      case 'Succeed':
        return { ...exit(selectPath(outputPath, effective(), 'OutputPath')), next: undefined };
      case 'Fail': {
        const error = typeof state.ErrorPath === 'string' ? String(pathOrIntrinsic(state.ErrorPath, scope(input), 'ErrorPath')) : ((state.Error as string | undefined) ?? '');
        const cause = typeof state.CausePath === 'string' ? String(pathOrIntrinsic(state.CausePath, scope(input), 'CausePath')) : ((state.Cause as string | undefined) ?? '');
        throw new StatesError(error, cause);
      }
      case 'Choice': {
        const value = effective();
        const choices = state.Choices as Record<string, unknown>[];
        const chosen = choices.find((rule) => matches(rule, scope(value)));
        const next = (chosen?.Next as string | undefined) ?? (state.Default as string | undefined);
        if (next === undefined) throw new StatesError('States.NoChoiceMatched', `No Matches! at state '${name}'`);
        return exit(selectPath(outputPath, value, 'OutputPath'), next);
      }
      case 'Wait': {
        const value = effective();
        await this.sleep(this.waitMs(state, scope(value)));
        return exit(selectPath(outputPath, value, 'OutputPath'), state.Next);
      }
      default:
        return this.withCatch(name, state, input, trail, context, exit, scope);
    }
  }

  private waitMs(state: State, scope: PathScope): number {
    if (state.Seconds !== undefined) return Number(state.Seconds) * 1000;
    if (state.SecondsPath !== undefined) {
      const seconds = resolvePath(String(state.SecondsPath), scope, 'SecondsPath');
      if (typeof seconds !== 'number' || seconds < 0) throw runtimeError(`The SecondsPath parameter does not reference a valid integer value: ${json(seconds)}`);
      return seconds * 1000;
    }
    const timestamp = state.Timestamp !== undefined ? state.Timestamp : resolvePath(String(state.TimestampPath), scope, 'TimestampPath');
    const at = typeof timestamp === 'string' ? Date.parse(timestamp) : Number.NaN;
    if (Number.isNaN(at)) throw runtimeError(`The TimestampPath parameter does not reference a valid ISO-8601 extended offset date-time format string: ${json(timestamp)}`);
    return at - Date.now();
  }

  /** Task, Parallel and Map: the work with its Retry, then Catch; the result through ResultSelector, ResultPath and OutputPath. */
  private async withCatch(
    name: string,
    state: State,
    input: unknown,
    trail: Trail,
    context: Record<string, unknown>,
    exit: (output: unknown, next?: string) => { output: unknown; next?: string },
    scope: (value: unknown) => PathScope,
  ): Promise<{ output: unknown; next?: string }> {
    const value = selectPath(state.InputPath as string | null | undefined, input, 'InputPath');
    const retriers = (state.Retry as Record<string, unknown>[] | undefined) ?? [];
    const attempts = retriers.map(() => 0);
    let retryCount = 0;
    for (;;) {
      try {
        const result = await this.work(name, state, value, trail, { ...context, State: { ...(context.State as object), RetryCount: retryCount } });
        const selected = state.ResultSelector !== undefined ? applyTemplate(state.ResultSelector, scope(result)) : result;
        const placed = placeResult(state.ResultPath as string | null | undefined, input, selected);
        return exit(selectPath(state.OutputPath as string | null | undefined, placed, 'OutputPath'), state.Next);
      } catch (thrown) {
        if (thrown instanceof Aborted) throw thrown;
        const error = asStatesError(thrown);
        const index = retriers.findIndex((retrier) => errorMatches(retrier.ErrorEquals as string[], error.error));
        if (index >= 0 && attempts[index] < Number(retriers[index].MaxAttempts ?? 3)) {
          const retrier = retriers[index];
          const interval = Number(retrier.IntervalSeconds ?? 1) * Number(retrier.BackoffRate ?? 2) ** attempts[index];
          const capped = retrier.MaxDelaySeconds !== undefined ? Math.min(interval, Number(retrier.MaxDelaySeconds)) : interval;
          attempts[index]++;
          retryCount++;
          await this.sleep(capped * 1000);
          continue;
        }
        const catcher = ((state.Catch as Record<string, unknown>[] | undefined) ?? []).find((entry) => errorMatches(entry.ErrorEquals as string[], error.error));
        if (!catcher) throw error;
        const output = placeResult((catcher.ResultPath as string | null | undefined) ?? '$', input, { Error: error.error, Cause: error.cause });
        return { ...exit(output), next: catcher.Next as string };
      }
    }
  }

  private work(name: string, state: State, value: unknown, trail: Trail, context: Record<string, unknown>): Promise<unknown> {
    if (state.Type === 'Parallel') return this.parallel(state, value, trail);
    if (state.Type === 'Map') return this.map(name, state, value, trail, context);
    return this.task(state, value, trail, context);
  }

/** An activity task: scheduled, started when a worker takes it (GetActivityTask), ended by SendTaskSuccess/Failure with its token. */
  private async activity(
    activityArn: string,
    state: State,
    parameters: unknown,
    trail: Trail,
    scoped: PathScope,
    timed: <T>(work: Promise<T>) => Promise<T>,
    timeoutField: { timeoutInSeconds?: number },
  ): Promise<unknown> {
    const heartbeat = typeof state.HeartbeatSecondsPath === 'string' ? Number(resolvePath(state.HeartbeatSecondsPath, scoped, 'HeartbeatSecondsPath')) : (state.HeartbeatSeconds as number | undefined);
    const token = randomUUID();
    this.emit(trail, 'ActivityScheduled', 'activityScheduledEventDetails', { resource: activityArn, input: json(parameters), inputDetails: details(parameters), ...timeoutField, ...(heartbeat !== undefined ? { heartbeatInSeconds: heartbeat } : {}) });
    let withdraw = () => {};
    try {
      const answered = this.host.awaitToken(token, this.controller.signal, heartbeat);
      // Observed below; a task that never reached a worker (the activity is gone) must not leave it unhandled.
      answered.catch(() => {});
      withdraw = this.host.scheduleActivity(activityArn, token, json(parameters), (workerName) => {
        if (!this.controller.signal.aborted) this.emit(trail, 'ActivityStarted', 'activityStartedEventDetails', workerName !== undefined ? { workerName } : {});
      });
      const result = await timed(answered);
      this.check(trail);
      this.emit(trail, 'ActivitySucceeded', 'activitySucceededEventDetails', { output: json(result), outputDetails: details(result) });
      return result;
    } catch (thrown) {
      if (thrown instanceof Aborted || this.controller.signal.aborted) throw new Aborted();
      const error = asStatesError(thrown);
      const timedOut = error.error === 'States.Timeout' || error.error === 'States.HeartbeatTimeout';
      this.emit(trail, timedOut ? 'ActivityTimedOut' : 'ActivityFailed', timedOut ? 'activityTimedOutEventDetails' : 'activityFailedEventDetails', { error: error.error, cause: error.cause });
      throw error;
    } finally {
      withdraw();
    }
  }

    private async task(state: State, value: unknown, trail: Trail, context: Record<string, unknown>): Promise<unknown> {
    const resource = parseResource(String(state.Resource));
    const token = resource.kind === 'integration' && resource.pattern === 'waitForTaskToken' ? randomUUID() : undefined;
    const scoped: PathScope = { input: value, context: token ? { ...context, Task: { Token: token } } : context };
    const parameters = state.Parameters !== undefined ? applyTemplate(state.Parameters, scoped) : value;
    const timeoutSeconds = typeof state.TimeoutSecondsPath === 'string' ? Number(resolvePath(state.TimeoutSecondsPath, scoped, 'TimeoutSecondsPath')) : (state.TimeoutSeconds as number | undefined);
    const timeoutField = timeoutSeconds === undefined ? {} : { timeoutInSeconds: timeoutSeconds };
    const timed = <T>(work: Promise<T>): Promise<T> => {
      if (timeoutSeconds === undefined) return work;
      let timer: NodeJS.Timeout | undefined;
      const limit = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new StatesError('States.Timeout', '')), timeoutSeconds * 1000);
      });
      return Promise.race([work, limit]).finally(() => clearTimeout(timer));
    };
    if (resource.kind === 'function') {
      this.emit(trail, 'LambdaFunctionScheduled', 'lambdaFunctionScheduledEventDetails', { resource: resource.functionArn, input: json(parameters), inputDetails: details(parameters), ...timeoutField });
      this.emit(trail, 'LambdaFunctionStarted');
      try {
        const result = await timed(runFunction(this.host, resource.functionArn, parameters));
        this.check(trail);
        this.emit(trail, 'LambdaFunctionSucceeded', 'lambdaFunctionSucceededEventDetails', { output: json(result), outputDetails: details(result) });
        return result;
      } catch (thrown) {
        if (thrown instanceof Aborted) throw thrown;
        const error = asStatesError(thrown);
        const timedOut = error.error === 'States.Timeout';
        this.emit(trail, timedOut ? 'LambdaFunctionTimedOut' : 'LambdaFunctionFailed', timedOut ? 'lambdaFunctionTimedOutEventDetails' : 'lambdaFunctionFailedEventDetails', { error: error.error, cause: error.cause });
        throw error;
      }
    }
    if (resource.kind === 'activity') return this.activity(resource.activityArn, state, parameters, trail, scoped, timed, timeoutField);
    const names = { resourceType: resource.service, resource: resource.pattern ? `${resource.action}.${resource.pattern}` : resource.action };
    this.emit(trail, 'TaskScheduled', 'taskScheduledEventDetails', { ...names, region: this.host.region, parameters: json(parameters), ...timeoutField });
    this.emit(trail, 'TaskStarted', 'taskStartedEventDetails', names);
    try {
      if (parameters === null || typeof parameters !== 'object' || Array.isArray(parameters)) throw runtimeError(`The Parameters of a ${names.resourceType}:${resource.action} task must be an object`);
      let result = await timed(runIntegration(this.host, resource.service, resource.action, parameters as Record<string, unknown>, resource.pattern));
      if (token) {
        this.emit(trail, 'TaskSubmitted', 'taskSubmittedEventDetails', { ...names, output: json(result), outputDetails: details(result) });
        const heartbeat = typeof state.HeartbeatSecondsPath === 'string' ? Number(resolvePath(state.HeartbeatSecondsPath, scoped, 'HeartbeatSecondsPath')) : (state.HeartbeatSeconds as number | undefined);
        result = await timed(this.host.awaitToken(token, this.controller.signal, heartbeat));
      }
      this.check(trail);
      this.emit(trail, 'TaskSucceeded', 'taskSucceededEventDetails', { ...names, output: json(result), outputDetails: details(result) });
      return result;
    } catch (thrown) {
      if (thrown instanceof Aborted || this.controller.signal.aborted) throw new Aborted();
      const error = asStatesError(thrown);
      const timedOut = error.error === 'States.Timeout' || error.error === 'States.HeartbeatTimeout';
      this.emit(trail, timedOut ? 'TaskTimedOut' : 'TaskFailed', timedOut ? 'taskTimedOutEventDetails' : 'taskFailedEventDetails', { ...names, error: error.error, cause: error.cause });
      throw error;
    }
  }

  private async parallel(state: State, value: unknown, trail: Trail): Promise<unknown> {
    const branches = state.Branches as StateMachineDefinition[];
    this.emit(trail, 'ParallelStateStarted');
    const start = trail.last;
    const trails: Trail[] = branches.map(() => ({ last: start, parent: trail }));
    try {
      const results = await Promise.all(branches.map((branch, index) => this.machine(branch, value, trails[index], {})));
      this.emit(trail, 'ParallelStateSucceeded');
      return results;
    } catch (thrown) {
      // The other branches stop, as AWS stops them when one fails.
      for (const branch of trails) branch.stopped = true;
      if (thrown instanceof Aborted) throw thrown;
      this.emit(trail, 'ParallelStateFailed');
      throw thrown;
    }
  }

  private async map(name: string, state: State, value: unknown, trail: Trail, context: Record<string, unknown>): Promise<unknown> {
    const items = state.ItemsPath === undefined ? value : readPath(String(state.ItemsPath), value);
    if (!Array.isArray(items)) throw runtimeError(`Invalid path '${String(state.ItemsPath ?? '$')}' : The Map state's ItemsPath must reference an array, got ${json(items)}`);
    const processor = (state.ItemProcessor ?? state.Iterator) as StateMachineDefinition;
    const selector = state.ItemSelector ?? state.Parameters;
    const limit = Number(state.MaxConcurrency ?? 0) > 0 ? Number(state.MaxConcurrency) : items.length;
    this.emit(trail, 'MapStateStarted', 'mapStateStartedEventDetails', { length: items.length });
    const start = trail.last;
    const results: unknown[] = new Array(items.length);
    let next = 0;
    let failed: unknown;
    const active = new Set<Trail>();
    const worker = async () => {
      while (failed === undefined && next < items.length) {
        const index = next++;
        const mapContext = { Map: { Item: { Index: index, Value: items[index] } } };
        const itemInput = selector !== undefined ? applyTemplate(selector, { input: value, context: { ...context, ...mapContext } }) : items[index];
        const branch: Trail = { last: start, parent: trail };
        active.add(branch);
        this.emit(branch, 'MapIterationStarted', 'mapIterationStartedEventDetails', { name, index });
        try {
          results[index] = await this.machine(processor, itemInput, branch, {});
          this.emit(branch, 'MapIterationSucceeded', 'mapIterationSucceededEventDetails', { name, index });
        } catch (thrown) {
          if (!(thrown instanceof Aborted) && !stopped(branch)) this.emit(branch, 'MapIterationFailed', 'mapIterationFailedEventDetails', { name, index });
          failed ??= thrown;
          // The iterations still running stop, as AWS stops them when one fails.
          for (const other of active) other.stopped = true;
        } finally {
          active.delete(branch);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
    if (failed !== undefined) {
      if (!(failed instanceof Aborted)) this.emit(trail, 'MapStateFailed');
      throw failed;
    }
    this.emit(trail, 'MapStateSucceeded');
    return results;
  }
}

export { Aborted };
