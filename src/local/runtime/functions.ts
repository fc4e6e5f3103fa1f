import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../../errors';
import { AwsError } from '../protocol/errors';
import type { FunctionInvoker, InvokeOutcome, RuntimeServices } from '../service-interfaces';
import type { ResourceRecord } from '../cloudformation/model';
import { localizeEndpoints } from '../gateway/endpoints';
import { writeFileAtomic } from '../state/files';
import { codeDirectory, publishedVersions, type PublishedVersion } from './code';
import { versionOfQualifier } from './aliases';
import { PYTHON_BOOTSTRAP } from './python-bootstrap';
import { runsLocally } from './interpreters';
import { ConcurrencyLimits, DEFAULT_ACCOUNT_CONCURRENCY, isThrottle } from './concurrency';
import { Worker, type FunctionConfig, type Invocation } from './worker';
import { AsyncInvocations, type AsyncSettings } from './async-invocations';
import { LAYER_VERSION_TYPE, layerArns, layerFolders, optFolder } from './layers-folder';

/** How long an execution environment may stay idle before it is retired (its processes ended), by default. */
export const DEFAULT_IDLE_SECONDS = 120;
export const IDLE_SECONDS_ENV = 'FW_LOCAL_FUNCTION_IDLE_SECONDS';
/** How often the memory of running environments is read: an allocation can overshoot the setting for this long. */
const MEMORY_CHECK_INTERVAL_MS = 100;
/** Environments of one function starting at once: starting one costs a process start (tens of ms of CPU), so a burst starts them a few at a time. */
const MAX_STARTING_PER_FUNCTION = 4;
/** Lambda's limit on a synchronous invocation's response, in bytes (6 MB as its error message counts them). */
export const MAX_RESPONSE_BYTES = 6_291_556;
/** How long Lambda keeps an asynchronous event by default (MaximumEventAgeInSeconds' default, 6 hours). */
const MAX_EVENT_AGE_MS = 6 * 3600_000;

/** `--function-idle-timeout` / $FW_LOCAL_FUNCTION_IDLE_SECONDS: seconds, a number of at least 1. */
export function idleSecondsFrom(text: string | undefined, source: string): number {
  if (text === undefined || text.trim() === '') return DEFAULT_IDLE_SECONDS;
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds < 1) throw new ConfigError(`Invalid ${source}: expected the seconds an idle function environment lives (a number of at least 1), got ${JSON.stringify(text)}`);
  return seconds;
}

export interface RuntimeOptions {
  /** The account's concurrency limit: invocations running at once over all functions (default 1,000, AWS's). */
  concurrencyLimit?: number;
  /** Seconds an environment may stay idle before it is retired (default 120). */
  idleSeconds?: number;
}

/** The reserved concurrency of a function's resource, if it has one. */
export function reservedConcurrency(record: ResourceRecord): number | undefined {
  const value = record.properties.ReservedConcurrentExecutions;
  return value === undefined || value === null || value === '' ? undefined : Number(value);
}

export type { InvokeOutcome };

/** `name`, `name:qualifier`, or a function / version / alias ARN → the function name. */
export function functionNameOf(reference: string): string {
  const arn = /^arn:aws[a-z-]*:lambda:[^:]*:[^:]*:function:([^:]+)(?::.*)?$/.exec(reference);
  if (arn) return arn[1];
  return reference.split(':')[0];
}

/**
 * Runs the functions of the deployed stacks as Lambda does: one execution environment (a process)
 * per invocation running at once, kept warm for the next one, up to the account's concurrency limit
 * and each function's reserved concurrency (over them an invocation is throttled, not queued);
 * environments idle longer than the idle time are retired, those of a changed function replaced,
 * all stopped with the server.
 */
export class FunctionRuntime implements FunctionInvoker {
  private readonly pools = new Map<string, Worker[]>();
  /** Invocations waiting for an environment to start or to become free, per function. */
  private readonly waiting = new Map<string, { revision: string; resolve: (worker: Worker) => void; reject: (error: Error) => void }[]>();
  private closed = false;
  readonly concurrency: ConcurrencyLimits;
  readonly idleMs: number;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly cloud: RuntimeServices,
    options: RuntimeOptions = {},
  ) {
    this.concurrency = new ConcurrencyLimits(options.concurrencyLimit ?? DEFAULT_ACCOUNT_CONCURRENCY, () => this.reservations());
    this.idleMs = (options.idleSeconds ?? DEFAULT_IDLE_SECONDS) * 1000;
    this.sweeper = setInterval(() => this.retireIdle(), Math.max(100, Math.min(10_000, this.idleMs / 4)));
    this.sweeper.unref();
    this.memoryWatch = setInterval(() => this.enforceMemory(), MEMORY_CHECK_INTERVAL_MS);
    this.memoryWatch.unref();
    this.asyncInvocations = new AsyncInvocations(cloud.dataDir, {
      invoke: (reference, event, qualifier, requestId) => this.invoke(reference, event, qualifier, undefined, requestId),
      settings: (reference, qualifier) => this.asyncSettings(reference, qualifier),
      deliver: (arn, message, event, attributes) => this.cloud.sendToDestination(arn, message, attributes, event),
      isThrottle,
      log: (line) => this.cloud.log(line),
    });
  }

  private readonly asyncInvocations: AsyncInvocations;

  private readonly memoryWatch: NodeJS.Timeout;

  /** Checks the memory of the environments running an invocation for a check interval or more (shorter ones are not worth reading /proc for). */
  private enforceMemory(now = Date.now()): void {
    for (const pool of this.pools.values()) {
      for (const worker of pool) {
        const started = worker.invocationStarted;
        if (started !== undefined && now - started >= MEMORY_CHECK_INTERVAL_MS) worker.enforceMemory();
      }
    }
  }

  get concurrencyLimit(): number {
    return this.concurrency.accountLimit;
  }

  private reservations(): Map<string, number> {
    const found = new Map<string, number>();
    for (const { record } of this.cloud.resources('AWS::Lambda::Function')) {
      const reserved = reservedConcurrency(record);
      if (reserved !== undefined) found.set(record.physicalId, reserved);
    }
    return found;
  }

  /** Ends the environments idle for longer than the idle time, and whatever their processes started. */
  retireIdle(now = Date.now()): void {
    for (const [name, pool] of this.pools) {
      for (const worker of pool) if (!worker.busy && now - worker.lastUsed >= this.idleMs) worker.kill();
      const alive = pool.filter((worker) => !worker.dead);
      if (alive.length === 0) this.pools.delete(name);
      else this.pools.set(name, alive);
    }
  }


  record(reference: string): ResourceRecord {
    const name = functionNameOf(reference);
    const found = this.cloud.resources('AWS::Lambda::Function').find(({ record }) => record.physicalId === name);
    if (!found) {
      throw new AwsError('ResourceNotFoundException', `Function not found: arn:aws:lambda:us-east-1:${this.cloud.accountId}:function:${name}`, 404);
    }
    return found.record;
  }

  /** The published version a qualifier names (`3`), or none for `$LATEST` and no qualifier. */
  version(reference: string, qualifier?: string): PublishedVersion | undefined {
    const name = functionNameOf(reference);
    const named = qualifier ?? /^[^:]+:([^:]+)$/.exec(reference.replace(/^arn:[^:]*:lambda:[^:]*:[^:]*:function:/, ''))?.[1];
    if (named === undefined || named === '$LATEST') return undefined;
    // An alias runs the version it points at (runtime/aliases.ts).
    const wanted = versionOfQualifier(this.record(name), named);
    if (wanted === '$LATEST') return undefined;
    const found = publishedVersions(this.record(name)).find(version => version.Version === wanted);
    if (!found) {
      throw new AwsError('ResourceNotFoundException', `Function not found: arn:aws:lambda:us-east-1:${this.cloud.accountId}:function:${name}:${named}`, 404);
    }
    return found;
  }

  config(reference: string, qualifier?: string, record = this.record(reference)): FunctionConfig {
    const version = this.version(reference, qualifier);
    const properties = record.properties;
    const variables = ((properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {}) as Record<string, unknown>;
    // What the configuration is made of: while none of it changed, the one made last time is it.
    const inputs: unknown[] = [record.physicalId, properties.Handler, properties.Runtime, properties.MemorySize, properties.Timeout, record.attributes.Arn, version?.CodeSha256 ?? record.attributes.CodeSha256, this.cloud.baseUrl, ...layerArns(properties)];
    for (const name in variables) inputs.push(name, variables[name]);
    const cacheKey = `${record.physicalId}:${version?.Version ?? '$LATEST'}`;
    const cached = this.configs.get(cacheKey);
    if (cached && cached.inputs.length === inputs.length && cached.inputs.every((value, index) => value === inputs[index])) return cached.config;
    // A queue URL or API endpoint passed in the environment (`!Ref Queue`) must reach this server, not AWS.
    const environment = Object.fromEntries(Object.entries(variables).map(([key, value]) => [key, localizeEndpoints(String(value), this.cloud.baseUrl)]));
    const arn = String(record.attributes.Arn);
    const config: FunctionConfig = {
      name: record.physicalId,
      arn,
      handler: String(properties.Handler ?? 'index.handler'),
      runtime: String(properties.Runtime ?? 'nodejs20.x'),
      memory: Number(properties.MemorySize ?? 128),
      timeout: Number(properties.Timeout ?? 3),
      environment,
      codeDir: codeDirectory(this.cloud.dataDir, String(version?.CodeSha256 ?? record.attributes.CodeSha256)),
      optDir: this.layersOf(properties),
      region: arn.split(':')[3] ?? 'us-east-1',
      logGroup: `/aws/lambda/${record.physicalId}`,
      revision: '',
    };
    config.revision = JSON.stringify(config);
    this.configs.set(cacheKey, { inputs, config });
    return config;
  }

  /** The folder that plays /opt for a function's layers (those the local cloud has; the deploy names the others). */
  private layersOf(properties: Record<string, unknown>): string | undefined {
    const arns = layerArns(properties);
    if (arns.length === 0) return undefined;
    const versions = this.cloud.resources(LAYER_VERSION_TYPE).map(({ record }) => record);
    return optFolder(this.cloud.dataDir, layerFolders(this.cloud.dataDir, arns, versions).folders);
  }

  /** The configuration last made for each function version, with what it was made of (see config()). */
  private readonly configs = new Map<string, { inputs: unknown[]; config: FunctionConfig }>();

  /** Invokes a function and waits for its result, as `Invoke` with RequestResponse does. */
  async invoke(reference: string, event: unknown, qualifier?: string, clientContext?: unknown, requestId: string = randomUUID()): Promise<InvokeOutcome> {
    const record = this.record(reference);
    const config = this.config(reference, qualifier, record);
    const image = (record.properties.Code as { ImageUri?: unknown } | undefined)?.ImageUri;
    if (image !== undefined) {
      throw new AwsError('InvalidRuntimeException', `The local cloud does not run container image functions; ${config.name} runs ${String(image)}`, 502);
    }
    if (!runsLocally(config.runtime)) {
      throw new AwsError('InvalidRuntimeException', `The local cloud runs Node.js, Python and Runtime API (provided, go1.x) functions; ${config.runtime} is not supported`, 502);
    }
    const warm = this.pools.get(config.name)?.some((worker) => !worker.dead && worker.config.revision === config.revision);
    if (!warm && !existsSync(config.codeDir)) {
      throw new AwsError('ResourceNotReadyException', `The code of ${config.name} is missing from the local cloud's data folder`, 502);
    }
    let release: () => void;
    try {
      release = this.concurrency.acquire(config.name, reservedConcurrency(record));
    } catch (error) {
      // CloudWatch's Throttles metric counts it.
      this.cloud.invocationMetrics.record({ timestamp: Date.now(), functionName: config.name, durationMs: 0, error: false, throttled: true });
      throw error;
    }
    let worker: Worker;
    let result: Invocation;
    const started = Date.now();
    try {
      worker = await this.acquire(config);
      result = await worker.invoke(requestId, event, clientContext);
    } finally {
      release();
    }
    this.cloud.invocationMetrics.record({ timestamp: started, functionName: config.name, durationMs: Date.now() - started, error: !result.ok, throttled: false });
    if (result.ok) {
      const payload = result.payload ?? JSON.stringify(result.value ?? null);
      if (payload.length * 3 <= MAX_RESPONSE_BYTES || Buffer.byteLength(payload) <= MAX_RESPONSE_BYTES) return { requestId, payload, logs: result.logs, logStream: worker!.stream };
      const error = { errorMessage: `Response payload size exceeded maximum allowed payload size (${MAX_RESPONSE_BYTES} bytes).`, errorType: 'Function.ResponseSizeTooLarge' };
      return { requestId, payload: JSON.stringify(error), functionError: 'Unhandled', logs: result.logs, logStream: worker!.stream };
    }
    return { requestId, payload: JSON.stringify(result.error), functionError: 'Unhandled', logs: result.logs, logStream: worker!.stream };
  }

  /** Invokes without waiting (the `Event` type S3, SNS, EventBridge and schedules use): Lambda's event queue (async-invocations.ts). */
  invokeAsync(reference: string, event: unknown, qualifier?: string): void {
    this.asyncInvocations.enqueue(reference, event, qualifier);
  }

  /** What the event queue needs of a function: its retry and age limits, destinations and dead-letter target. */
  private asyncSettings(reference: string, qualifier: string | undefined): AsyncSettings | undefined {
    let record: ResourceRecord;
    try {
      record = this.record(reference);
    } catch {
      return undefined;
    }
    const which = qualifier ?? /^arn:[^:]+:lambda:[^:]*:[^:]*:function:[^:]+:(.+)$/.exec(reference)?.[1] ?? '$LATEST';
    const config = this.cloud
      .resources('AWS::Lambda::EventInvokeConfig')
      .map(({ record: entry }) => entry.properties)
      .find((properties) => functionNameOf(String(properties.FunctionName)) === record.physicalId && String(properties.Qualifier ?? '$LATEST') === which);
    const destinations = config?.DestinationConfig as { OnSuccess?: { Destination?: string }; OnFailure?: { Destination?: string } } | undefined;
    const number = (value: unknown, fallback: number) => (value === undefined || value === null || value === '' ? fallback : Number(value));
    return {
      functionArn: `${String(record.attributes.Arn)}:${which}`,
      maxRetries: number(config?.MaximumRetryAttempts, 2),
      maxAgeMs: number(config?.MaximumEventAgeInSeconds, MAX_EVENT_AGE_MS / 1000) * 1000,
      onSuccess: destinations?.OnSuccess?.Destination,
      onFailure: destinations?.OnFailure?.Destination,
      deadLetter: (record.properties.DeadLetterConfig as { TargetArn?: string } | undefined)?.TargetArn,
    };
  }

  /**
   * An environment for one invocation: a warm one of this revision of the function, else the first
   * to become free, whether one that is starting for it (started now, at most a few at a time per
   * function) or a warm one that finishes its invocation first. The concurrency limits were checked
   * before, so every invocation running at once still gets an environment of its own when it needs
   * one: a long invocation never waits behind another.
   */
  private acquire(config: FunctionConfig): Promise<Worker> {
    if (this.closed) throw new AwsError('ServiceException', 'The local cloud is stopping', 503);
    let pool = this.pools.get(config.name) ?? [];
    if (pool.some((worker) => worker.dead || (worker.config.revision !== config.revision && !worker.busy))) {
      for (const stale of pool.filter((worker) => worker.config.revision !== config.revision && !worker.busy)) stale.kill();
      pool = pool.filter((worker) => !worker.dead);
      this.pools.set(config.name, pool);
    }
    // The most recently used first: the others go idle and are retired sooner, as Lambda scales down.
    let idle: Worker | undefined;
    for (const worker of pool) {
      if (!worker.busy && worker.ready && worker.config.revision === config.revision && (!idle || worker.lastUsed > idle.lastUsed)) idle = worker;
    }
    if (idle) {
      idle.busy = true;
      return Promise.resolve(idle);
    }
    return new Promise((resolve, reject) => {
      const queue = this.waiting.get(config.name) ?? [];
      queue.push({ revision: config.revision, resolve, reject });
      this.waiting.set(config.name, queue);
      this.startEnvironments(config);
    });
  }

  /** Starts environments for the invocations waiting, up to MAX_STARTING_PER_FUNCTION at a time. */
  private startEnvironments(config: FunctionConfig): void {
    const wanted = (this.waiting.get(config.name) ?? []).filter((waiter) => waiter.revision === config.revision).length;
    const pool = this.pools.get(config.name) ?? [];
    let starting = pool.filter((worker) => !worker.ready && !worker.dead && worker.config.revision === config.revision).length;
    for (; starting < Math.min(wanted, MAX_STARTING_PER_FUNCTION); starting++) {
      const worker = new Worker(config, {
        baseUrl: this.cloud.baseUrl,
        credentials: this.cloud.credentials,
        pythonBootstrap: () => this.pythonBootstrap(),
        writeLogs: (group, stream, lines) => this.cloud.logs.append(group, stream, lines),
        available: (free) => this.available(free),
      });
      pool.push(worker);
    }
    this.pools.set(config.name, pool);
  }

  /**
   * An environment became ready or finished an invocation: the first invocation waiting for its
   * revision gets it. One that died before it was ready is handed over too, so that the invocation
   * fails with its exit reason (a runtime that cannot start), as Lambda's would.
   */
  private available(worker: Worker): void {
    const name = worker.config.name;
    const queue = this.waiting.get(name) ?? [];
    const index = queue.findIndex((waiter) => waiter.revision === worker.config.revision);
    if (worker.dead && (worker.ready || worker.busy)) {
      if (index !== -1 && !this.closed) this.startEnvironments(worker.config);
      return;
    }
    if (index === -1 || worker.busy) return;
    const [waiter] = queue.splice(index, 1);
    if (queue.length === 0) this.waiting.delete(name);
    worker.busy = true;
    waiter.resolve(worker);
    // Those still waiting get environments of their own as the starting ones become ready.
    if (queue.length > 0 && !this.closed) this.startEnvironments(worker.config);
  }

  private pythonBootstrapWritten = false;

  /** The Python bootstrap script, rewritten once per server run so it matches this version of fw. */
  private pythonBootstrap(): string {
    const file = join(this.cloud.dataDir, 'runtime', 'bootstrap.py');
    if (!this.pythonBootstrapWritten) writeFileAtomic(file, PYTHON_BOOTSTRAP);
    this.pythonBootstrapWritten = true;
    return file;
  }

  /** Stops the warm processes of one function (it went away), or of all; settles once they have exited. */
  async stop(name?: string): Promise<void> {
    const stopping: Promise<void>[] = [];
    if (name === undefined) {
      this.closed = true;
      this.asyncInvocations.close();
      clearInterval(this.sweeper);
      clearInterval(this.memoryWatch);
    }
    for (const [key, queue] of this.waiting) {
      if (name !== undefined && key !== name) continue;
      for (const waiter of queue) waiter.reject(new AwsError('ServiceException', name === undefined ? 'The local cloud is stopping' : `The function ${name} went away`, 503));
      this.waiting.delete(key);
    }
    for (const [key, pool] of this.pools) {
      if (name !== undefined && key !== name) continue;
      for (const worker of pool) {
        worker.kill();
        stopping.push(worker.gone);
      }
      this.pools.delete(key);
    }
    await Promise.all(stopping);
  }
}
