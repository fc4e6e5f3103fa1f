import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AwsError } from '../protocol/errors';
import type { FunctionInvoker, InvokeOutcome, RuntimeServices } from '../service-interfaces';
import type { ResourceRecord } from '../cloudformation/model';
import { localizeEndpoints } from '../gateway/endpoints';
import { writeFileAtomic } from '../state/files';
import { codeDirectory, publishedVersions, type PublishedVersion } from './code';
import { versionOfQualifier } from './aliases';
import { PYTHON_BOOTSTRAP } from './python-bootstrap';
import { Worker, type FunctionConfig, type Invocation } from './worker';

const MAX_WARM_PROCESSES_PER_FUNCTION = 8;

export type { InvokeOutcome };

/** `name`, `name:qualifier`, or a function / version / alias ARN → the function name. */
export function functionNameOf(reference: string): string {
  const arn = /^arn:aws[a-z-]*:lambda:[^:]*:[^:]*:function:([^:]+)(?::.*)?$/.exec(reference);
  if (arn) return arn[1];
  return reference.split(':')[0];
}

/**
 * Runs the functions of the deployed stacks: a pool of warm processes per
 * function, replaced when the function changes, all stopped with the server.
 */
export class FunctionRuntime implements FunctionInvoker {
  private readonly pools = new Map<string, Worker[]>();
  private readonly waiting = new Map<string, (() => void)[]>();
  private closed = false;

  constructor(private readonly cloud: RuntimeServices) {}

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

  config(reference: string, qualifier?: string): FunctionConfig {
    const record = this.record(reference);
    const version = this.version(reference, qualifier);
    const properties = record.properties;
    const variables = ((properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {}) as Record<string, unknown>;
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
      region: arn.split(':')[3] ?? 'us-east-1',
      logGroup: `/aws/lambda/${record.physicalId}`,
      revision: '',
    };
    config.revision = JSON.stringify(config);
    return config;
  }

  /** Invokes a function and waits for its result, as `Invoke` with RequestResponse does. */
  async invoke(reference: string, event: unknown, qualifier?: string, clientContext?: unknown): Promise<InvokeOutcome> {
    const config = this.config(reference, qualifier);
    const image = (this.record(reference).properties.Code as { ImageUri?: unknown } | undefined)?.ImageUri;
    if (image !== undefined) {
      throw new AwsError('InvalidRuntimeException', `The local cloud does not run container image functions; ${config.name} runs ${String(image)}`, 502);
    }
    if (!config.runtime.startsWith('nodejs') && !config.runtime.startsWith('python')) {
      throw new AwsError('InvalidRuntimeException', `The local cloud runs Node.js and Python functions; ${config.runtime} is not supported`, 502);
    }
    if (!existsSync(config.codeDir)) {
      throw new AwsError('ResourceNotReadyException', `The code of ${config.name} is missing from the local cloud's data folder`, 502);
    }
    const worker = await this.acquire(config);
    let result: Invocation;
    const started = Date.now();
    const requestId = randomUUID();
    try {
      result = await worker.invoke(requestId, event, clientContext);
    } finally {
      this.release(config.name);
    }
    this.cloud.invocationMetrics.record({ timestamp: started, functionName: config.name, durationMs: Date.now() - started, error: !result.ok, throttled: false });
    if (result.ok) return { requestId, payload: JSON.stringify(result.value ?? null), logs: result.logs, logStream: worker.stream };
    return { requestId, payload: JSON.stringify(result.error), functionError: 'Unhandled', logs: result.logs, logStream: worker.stream };
  }

  /** Invokes without waiting (the `Event` type S3, SNS and schedules use); failures only reach the function's log. */
  invokeAsync(reference: string, event: unknown, qualifier?: string): void {
    this.invoke(reference, event, qualifier).catch((error: Error) => this.cloud.log(`async invoke of ${reference} failed: ${error.message}`));
  }

  private async acquire(config: FunctionConfig): Promise<Worker> {
    for (;;) {
      if (this.closed) throw new AwsError('ServiceException', 'The local cloud is stopping', 503);
      let pool = (this.pools.get(config.name) ?? []).filter((worker) => !worker.dead);
      for (const stale of pool.filter((worker) => worker.config.revision !== config.revision && !worker.busy)) stale.kill();
      pool = pool.filter((worker) => !worker.dead);
      this.pools.set(config.name, pool);
      const idle = pool.find((worker) => !worker.busy && worker.config.revision === config.revision);
      if (idle) {
        idle.busy = true;
        return idle;
      }
      if (pool.length < MAX_WARM_PROCESSES_PER_FUNCTION) {
        const worker = new Worker(config, {
          baseUrl: this.cloud.baseUrl,
          credentials: this.cloud.credentials,
          pythonBootstrap: () => this.pythonBootstrap(),
          writeLogs: (group, stream, lines) => this.cloud.logs.append(group, stream, lines),
        });
        worker.busy = true;
        pool.push(worker);
        return worker;
      }
      await new Promise<void>((resolve) => {
        const queue = this.waiting.get(config.name) ?? [];
        queue.push(resolve);
        this.waiting.set(config.name, queue);
      });
    }
  }

  private release(name: string): void {
    this.waiting.get(name)?.shift()?.();
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
    if (name === undefined) this.closed = true;
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
