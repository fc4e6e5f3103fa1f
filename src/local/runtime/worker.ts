import { spawn, type ChildProcess } from 'node:child_process';
import { layerEnvironment } from './layers-folder';
import { pythonInterpreter, usesRuntimeApi } from './interpreters';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { processTreeResidentBytes } from './process-memory';
import { constants } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { peakMemoryMb } from './peak-memory';
import { FLUSH_MARKER, PAYLOAD_SEPARATOR, readLines, type FunctionErrorPayload, type InvokeMessage, type ReplyMessage } from './protocol';

export interface FunctionConfig {
  name: string;
  arn: string;
  handler: string;
  runtime: string;
  memory: number;
  timeout: number;
  environment: Record<string, string>;
  codeDir: string;
  /** The folder that plays /opt: the function's layers (layers-folder.ts), when it has any. */
  optDir?: string;
  region: string;
  logGroup: string;
  /** Changes whenever anything above changes, so warm processes of an old version are replaced. */
  revision: string;
}

export interface Invocation {
  ok: boolean;
  value?: unknown;
  /** The value as the JSON text the runtime serialized it to, when it sent that instead of `value`. */
  payload?: string;
  error?: FunctionErrorPayload;
  /** The log lines this invocation wrote, START to REPORT. */
  logs: string[];
}

export interface WorkerHost {
  baseUrl: string;
  /** What the function's SDK calls sign with: the credentials the local cloud requires, if any. */
  credentials: { accessKeyId: string; secretAccessKey: string };
  pythonBootstrap(): string;
  writeLogs(group: string, stream: string, lines: string[]): void;
  /** Called when the environment is ready (its handler loaded), has finished an invocation, or has gone. */
  available?(worker: Worker): void;
}

/** How often the peak memory of an environment's every process is read from /proc, at most (see Worker.peakMemory). */
const TREE_PEAK_READ_INTERVAL_MS = 1_000;

/** Lambda's limit on the init phase of an on-demand environment: one whose runtime is not ready by then is ended. */
const INIT_TIMEOUT_MS = 10_000;

/**
 * A compiled runtime script (the Node.js bootstrap, the Runtime API's). Beside this module under tsc's output; when the CLI
 * runs from the single-file bundle (dist/fw.js), __dirname is dist/ and the
 * compiled copy lives under dist/src/local/runtime/.
 */
function runtimeScript(file: 'node-bootstrap.js' | 'runtime-api-bootstrap.js'): string {
  const candidates = [join(__dirname, file), join(__dirname, 'src', 'local', 'runtime', file)];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) throw new Error(`The local cloud's ${file} is missing (looked for ${candidates.join(', ')}); run the build`);
  return found;
}

/**
 * On POSIX systems a function's process is started by a `/bin/sh` that was itself
 * started with the function's environment only, and stays its parent: so what a
 * function finds at /proc/$PPID/environ is its own environment, not the deployer's
 * (AWS keys, tokens). The shell leads a process group of its own, which is what is
 * killed, so nothing the function started outlives it.
 */
const LAUNCHED_THROUGH_SHELL = process.platform !== 'win32';
const RUN_AND_WAIT = '"$@"; exit $?';
/** The process groups alive, killed if fw exits without stopping them. */
const liveGroups = new Set<number>();
process.on('exit', () => {
  for (const group of liveGroups) killGroup(group);
});

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function launch(command: string, args: string[], cwd: string, env: Record<string, string>): ChildProcess {
  const stdio: 'pipe'[] = ['pipe', 'pipe', 'pipe', 'pipe'];
  if (!LAUNCHED_THROUGH_SHELL) return spawn(command, args, { cwd, env, stdio });
  const child = spawn('/bin/sh', ['-c', RUN_AND_WAIT, 'fw-function', command, ...args], { cwd, env, stdio, detached: true });
  if (child.pid !== undefined) {
    liveGroups.add(child.pid);
    child.once('exit', () => liveGroups.delete(child.pid!));
  }
  return child;
}

/** Why a process ended; the shell reports its child's death by signal N as exit status 128+N, and a missing command as 127. */
function exitReason(command: string, code: number | null, signal: NodeJS.Signals | null): string {
  if (LAUNCHED_THROUGH_SHELL && signal === null && code === 127) return `Runtime failed to start: ${command} not found`;
  if (LAUNCHED_THROUGH_SHELL && signal === null && code !== null && code > 128) {
    signal = (Object.entries(constants.signals).find(([, number]) => number === code - 128)?.[0] as NodeJS.Signals | undefined) ?? null;
  }
  return signal ? `signal: ${signal === 'SIGKILL' ? 'killed' : signal}` : `exit status ${code}`;
}

function streamName(): string {
  const day = new Date().toISOString().slice(0, 10).replace(/-/g, '/');
  return `${day}/[$LATEST]${randomBytes(16).toString('hex')}`;
}

/**
 * One warm process of a function: spawned on first use, handling one
 * invocation at a time, killed when it overruns its timeout.
 */
export class Worker {
  private readonly child: ChildProcess;
  /** The log stream this process writes to, what `context.logStreamName` says inside it. */
  readonly stream = streamName();
  private pending?: {
    id: string;
    resolve: (result: Invocation) => void;
    logs: string[];
    timer: NodeJS.Timeout;
    started: number;
    /** The outputs whose flush marker arrived, and the result waiting for them. */
    flushed: Set<Readable>;
    /** How many flush markers the result said were written. */
    markers?: number;
    result?: Invocation;
    /** The runtime process's own peak resident memory (kB), as its result said. */
    runtimePeakKb?: number;
  };
  private readonly startedAt = Date.now();
  private initDuration?: number;
  private stderrTail = '';
  busy = false;
  dead = false;
  /** Whether its runtime said it is ready (its handler loaded, or failed to load): invocations are sent only then. */
  ready = false;
  private readonly initTimer: NodeJS.Timeout;
  /** When its last invocation ended (or it started): environments idle too long are retired. */
  lastUsed = Date.now();
  /** Settles when the process has gone, so a stopping server leaves no child behind. */
  readonly gone: Promise<void>;

  constructor(readonly config: FunctionConfig, private readonly host: WorkerHost) {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
      LANG: 'en_US.UTF-8',
      TZ: ':UTC',
      LAMBDA_TASK_ROOT: config.codeDir,
      LAMBDA_RUNTIME_DIR: config.codeDir,
      _HANDLER: config.handler,
      AWS_EXECUTION_ENV: `AWS_Lambda_${config.runtime}`,
      AWS_LAMBDA_FUNCTION_NAME: config.name,
      AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(config.memory),
      AWS_LAMBDA_LOG_GROUP_NAME: config.logGroup,
      AWS_LAMBDA_LOG_STREAM_NAME: this.stream,
      AWS_REGION: config.region,
      AWS_DEFAULT_REGION: config.region,
      AWS_ACCESS_KEY_ID: host.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: host.credentials.secretAccessKey,
      AWS_SESSION_TOKEN: 'local',
      // SDK calls made by the function reach the local cloud, not AWS.
      AWS_ENDPOINT_URL: host.baseUrl,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      PYTHONUNBUFFERED: '1',
      NODE_PATH: join(config.codeDir, 'node_modules'),
      // Folders of modules the runtime provides (aws-sdk v2 for functions written for nodejs16.x and older): see node-bootstrap.ts.
      ...(process.env.FW_LOCAL_NODE_MODULES ? { FW_LOCAL_NODE_MODULES: process.env.FW_LOCAL_NODE_MODULES } : {}),
      ...config.environment,
    };
    if (config.optDir) Object.assign(env, layerEnvironment(config.optDir, config.runtime, config.runtime.startsWith('python') ? pythonInterpreter(config.runtime).version : undefined, env));
    // --preserve-symlinks: the code folder links folders shared with earlier packages (shared-folders.ts);
    // modules keep the paths under it, as under /var/task on AWS.
    const [command, args] = config.runtime.startsWith('python')
      ? [pythonInterpreter(config.runtime).command, ['-u', host.pythonBootstrap()]]
      : usesRuntimeApi(config.runtime)
        ? [process.execPath, [runtimeScript('runtime-api-bootstrap.js')]]
        : [process.execPath, [`--max-old-space-size=${config.memory}`, '--preserve-symlinks', runtimeScript('node-bootstrap.js')]];
    this.child = launch(command, args, config.codeDir, env);
    // The environment's log stream (and the function's group) exists from its start, as on Lambda, where its init is logged.
    host.writeLogs(config.logGroup, this.stream, []);

    this.gone = new Promise((resolve) => {
      this.child.once('close', () => resolve());
      // A process that never started has nothing to wait for.
      this.child.once('error', () => this.child.pid === undefined && resolve());
    });
    // One that never became ready is handed to an invocation once it has gone, which fails with its exit reason.
    void this.gone.then(() => this.host.available?.(this));
    this.initTimer = setTimeout(() => !this.ready && this.kill(), INIT_TIMEOUT_MS);
    this.initTimer.unref();
    this.child.on('error', (error) => this.exited(`Runtime failed to start: ${error.message}`));
    this.child.on('exit', (code, signal) => this.exited(exitReason(command, code, signal)));
    for (const output of [this.child.stdout, this.child.stderr] as Readable[]) {
      createInterface({ input: output }).on('line', (line) => {
        const marker = line.indexOf(FLUSH_MARKER);
        const text = marker === -1 ? line : line.slice(0, marker);
        if (output === this.child.stderr) this.stderrTail = (this.stderrTail + text + '\n').slice(-2000);
        if (marker === -1 || text) this.log(text);
        if (marker !== -1) this.flushed(output, line.slice(marker + FLUSH_MARKER.length));
      });
    }
    readLines(this.child.stdio[3] as Readable, (line) => this.received(line));
    // A process that died mid-write must not take the server down with an EPIPE.
    for (const pipe of this.child.stdio) pipe?.on('error', () => {});
  }

  private log(...lines: string[]): void {
    this.pending?.logs.push(...lines);
    this.host.writeLogs(this.config.logGroup, this.stream, lines);
  }

  private received(line: string): void {
    let message: ReplyMessage;
    const separator = line.indexOf(PAYLOAD_SEPARATOR);
    let payload: string | undefined;
    try {
      message = JSON.parse(separator === -1 ? line : line.slice(0, separator)) as ReplyMessage;
      if (separator !== -1) payload = line.slice(separator + 1);
    } catch {
      this.log(line);
      return;
    }
    if (message.type === 'ready') {
      this.initDuration = Date.now() - this.startedAt;
      this.ready = true;
      clearTimeout(this.initTimer);
      this.host.available?.(this);
    } else if (message.type === 'log') {
      this.log(`${new Date().toISOString()}\t${message.id ?? 'undefined'}\t${message.level}\t${message.message}`);
    } else if (message.type === 'result' && this.pending?.id === message.id) {
      if (!message.ok) {
        this.log(`${new Date().toISOString()}\t${message.id}\tERROR\tInvoke Error \t${JSON.stringify(message.error)}`);
      }
      this.pending.result = message.ok ? { ok: true, value: message.value, payload, logs: [] } : { ok: false, error: message.error, logs: [] };
      this.pending.markers = message.markers ?? 2;
      this.pending.runtimePeakKb = message.maxRss;
      this.finishWhenFlushed();
    }
  }

  private flushed(output: Readable, id: string): void {
    if (this.pending?.id !== id) return;
    this.pending.flushed.add(output);
    this.finishWhenFlushed();
  }

  private finishWhenFlushed(): void {
    const pending = this.pending;
    if (!pending?.result) return;
    if (pending.flushed.size >= (pending.markers ?? 2)) {
      this.finish(pending.result);
      return;
    }
    // A runtime that cannot write its markers (stdout closed by the function) still answers, a little later.
    clearTimeout(pending.timer);
    pending.timer = setTimeout(() => pending.result && this.finish(pending.result), 200);
  }

  private finish(result: Invocation): void {
    const pending = this.pending;
    if (!pending) return;
    clearTimeout(pending.timer);
    const duration = Date.now() - pending.started;
    const init = this.initDuration !== undefined && this.firstInvocation ? `\tInit Duration: ${this.initDuration.toFixed(2)} ms` : '';
    this.firstInvocation = false;
    // Like Lambda's, the peak of the environment over its life so far, never above its memory size.
    this.maxMemoryUsed = Math.min(this.config.memory, Math.max(this.maxMemoryUsed, this.peakMemory(pending.runtimePeakKb) ?? 0));
    // END and REPORT are stored together: one append to the log store per invocation's end.
    this.log(`END RequestId: ${pending.id}`, `REPORT RequestId: ${pending.id}\tDuration: ${duration.toFixed(2)} ms\tBilled Duration: ${Math.max(1, Math.ceil(duration))} ms\tMemory Size: ${this.config.memory} MB\tMax Memory Used: ${this.maxMemoryUsed || this.config.memory} MB${init}\t`);
    this.pending = undefined;
    this.busy = false;
    this.lastUsed = Date.now();
    pending.resolve({ ...result, logs: pending.logs });
    this.host.available?.(this);
  }

  private firstInvocation = true;
  private maxMemoryUsed = 0;
  /** When /proc was last read for the peak of the whole environment, and what its other processes (the shell, what the function started) added to the runtime's own peak, in kB. */
  private treeReadAt = 0;
  private othersPeakKb = 0;

  /**
   * The environment's peak memory in MB. Reading /proc for every process of the environment costs
   * more than a trivial invocation, so it is read at most once a second (and after the first
   * invocation); in between, the runtime's own peak (getrusage, sent with its result) plus what the
   * other processes added at the last read.
   */
  private peakMemory(runtimePeakKb: number | undefined): number | undefined {
    // Elsewhere than on Linux /proc is missing and getrusage's unit differs: the REPORT line says the memory size.
    if (process.platform !== 'linux') return undefined;
    const now = Date.now();
    if (runtimePeakKb !== undefined && now - this.treeReadAt < TREE_PEAK_READ_INTERVAL_MS) return Math.ceil((runtimePeakKb + this.othersPeakKb) / 1024);
    const tree = peakMemoryMb(this.child.pid);
    if (tree === undefined) return runtimePeakKb === undefined ? undefined : Math.ceil(runtimePeakKb / 1024);
    this.treeReadAt = now;
    if (runtimePeakKb !== undefined) this.othersPeakKb = Math.max(0, tree * 1024 - runtimePeakKb);
    return tree;
  }

  private deathReason?: string;

  private exited(reason: string): void {
    this.deathReason ??= reason;
    // A process killed on purpose (kill() marks it dead first) still settles its invocation: its
    // time-out timer would otherwise keep the process that runs the local cloud alive until it fires.
    this.dead = true;
    if (this.pending?.result) {
      this.finish(this.pending.result);
    } else if (this.pending) {
      const outOfMemory = /heap out of memory|MemoryError/.test(this.stderrTail);
      this.finish({
        ok: false,
        error: outOfMemory
          ? { errorType: 'Runtime.OutOfMemory', errorMessage: `RequestId: ${this.pending.id} Error: Runtime exited with error: ${reason}` }
          : { errorType: 'Runtime.ExitError', errorMessage: `RequestId: ${this.pending.id} Error: Runtime exited with error: ${reason}` },
        logs: [],
      });
    }
  }

  invoke(id: string, event: unknown, clientContext?: unknown): Promise<Invocation> {
    this.busy = true;
    if (this.dead) {
      // The process could not start (python3 missing, say) before it was handed this invocation.
      const error = { errorType: 'Runtime.ExitError', errorMessage: `RequestId: ${id} Error: Runtime exited with error: ${this.deathReason ?? 'not running'}` };
      return Promise.resolve({ ok: false, error, logs: [] });
    }
    return new Promise((resolve) => {
      const timeoutMs = this.config.timeout * 1000;
      const timer = setTimeout(() => {
        const seconds = this.config.timeout.toFixed(2);
        this.log(`${new Date().toISOString()} ${id} Task timed out after ${seconds} seconds`);
        // Ended before the invocation is answered, so the environment is not handed to another one.
        this.kill();
        this.finish({ ok: false, error: { errorType: 'Sandbox.Timedout', errorMessage: `RequestId: ${id} Error: Task timed out after ${seconds} seconds` }, logs: [] });
      }, timeoutMs);
      this.pending = { id, resolve, logs: [], timer, started: Date.now(), flushed: new Set() };
      this.log(`START RequestId: ${id} Version: $LATEST`);
      const message: InvokeMessage = { type: 'invoke', id, event, deadline: Date.now() + timeoutMs, invokedFunctionArn: this.config.arn, clientContext };
      (this.child.stdin as Writable).write(`${JSON.stringify(message)}\n`);
    });
  }

  /** When the invocation running now started, if one is. */
  get invocationStarted(): number | undefined {
    return this.pending?.started;
  }

  /**
   * Ends the environment when its processes (the runtime and whatever the function started) hold
   * more memory than the function's setting, as Lambda does: the invocation fails with
   * "Runtime exited with error: signal: killed". Returns the bytes resident, when it could read them.
   */
  enforceMemory(): number | undefined {
    if (!LAUNCHED_THROUGH_SHELL || this.dead || this.child.pid === undefined) return undefined;
    const resident = processTreeResidentBytes(this.child.pid);
    if (resident !== undefined && resident > this.config.memory * 1024 * 1024) {
      const pending = this.pending;
      this.kill();
      if (pending && !pending.result) {
        const errorMessage = `RequestId: ${pending.id} Error: Runtime exited with error: signal: killed`;
        this.log(`${errorMessage}\nRuntime.ExitError`);
        this.finish({ ok: false, error: { errorType: 'Runtime.ExitError', errorMessage }, logs: [] });
      }
    }
    return resident;
  }

  kill(): void {
    this.dead = true;
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    if (LAUNCHED_THROUGH_SHELL && this.child.pid !== undefined) killGroup(this.child.pid);
    else this.child.kill('SIGKILL');
  }
}
