import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { importEsm } from '../import-module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomUUID } from 'node:crypto';
import { ConfigError } from '../errors';
import type { FunctionConfig } from '../constructs/model';
import type { LoadedService } from '../service/load';

export interface LocalInvocation {
  loaded: LoadedService;
  key: string;
  fn: FunctionConfig;
  physicalName: string;
  event: unknown;
  /** `--context`/`--contextPath`: the context's client context. */
  clientContext?: unknown;
  /** `--env KEY=VALUE`: set over the service's environment. */
  environment?: Record<string, string>;
  log: (text: string) => void;
}

type Outcome = { result: unknown } | { error: Record<string, unknown> };

/** `--env KEY=VALUE` options as variables; a value may hold "=". */
export function parseEnvOptions(options: string[]): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const option of options) {
    const equals = option.indexOf('=');
    if (equals <= 0) throw new ConfigError(`Invalid --env "${option}": expected KEY=VALUE`);
    variables[option.slice(0, equals)] = option.slice(equals + 1);
  }
  return variables;
}

/** Environment values as the function would see them; CloudFormation intrinsics cannot be known locally and are left out. */
function environment(loaded: LoadedService, fn: FunctionConfig): Record<string, string> {
  const variables = { ...(loaded.config.provider.environment ?? {}), ...(fn.environment ?? {}) };
  return Object.fromEntries(Object.entries(variables).filter(([, v]) => v !== null && typeof v !== 'object').map(([k, v]) => [k, String(v)]));
}

/**
 * Runs a Node.js handler in this process with a Lambda-like context: async and
 * callback styles, CommonJS or ESM; a thrown error is returned as Lambda reports it.
 * A Python handler runs in python3 with the local cloud's Python runtime.
 */
export async function invokeHandler(invocation: LocalInvocation): Promise<Outcome> {
  const { loaded, fn, key } = invocation;
  if (typeof fn.handler !== 'string') throw new ConfigError(`Invalid configuration in 'functions.${key}.handler': invoke local needs a handler`);
  const runtime = fn.runtime ?? loaded.config.provider.runtime ?? 'nodejs';
  if (runtime.startsWith('python')) return invokePython(invocation, fn.handler, runtime);
  if (!runtime.startsWith('nodejs')) throw new ConfigError(`fw invoke local runs Node.js and Python handlers; functions.${key} uses ${runtime}`);
  const dot = fn.handler.lastIndexOf('.');
  const modulePath = fn.handler.slice(0, dot);
  const exportName = fn.handler.slice(dot + 1);
  const file = ['.js', '.mjs', '.cjs'].map(ext => join(loaded.serviceDir, modulePath + ext)).find(existsSync);
  if (!file) throw new ConfigError(`Invalid configuration in 'functions.${key}.handler': no file ${modulePath}.js, .mjs or .cjs in ${loaded.serviceDir}`);

  Object.assign(process.env, {
    AWS_LAMBDA_FUNCTION_NAME: invocation.physicalName,
    AWS_REGION: loaded.region,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memorySize ?? loaded.config.provider.memorySize ?? 1024),
    ...environment(loaded, fn),
    ...invocation.environment,
  });
  const timeoutSeconds = Number(fn.timeout ?? loaded.config.provider.timeout ?? 6);
  const started = Date.now();
  const context = {
    functionName: invocation.physicalName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${loaded.region}:000000000000:function:${invocation.physicalName}`,
    memoryLimitInMB: String(fn.memorySize ?? loaded.config.provider.memorySize ?? 1024),
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${invocation.physicalName}`,
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(0, timeoutSeconds * 1000 - (Date.now() - started)),
    ...(invocation.clientContext !== undefined ? { clientContext: invocation.clientContext } : {}),
  };
  const module = await importEsm(pathToFileURL(file).href);
  const handler = (module[exportName] ?? (module.default as Record<string, unknown> | undefined)?.[exportName]) as Function | undefined;
  if (typeof handler !== 'function') {
    throw new ConfigError(`Invalid configuration in 'functions.${key}.handler': ${modulePath} has no exported function "${exportName}"`);
  }
  try {
    const result = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(Object.assign(new Error(`Task timed out after ${timeoutSeconds.toFixed(2)} seconds`), { name: 'TimeoutError' })), timeoutSeconds * 1000);
      timer.unref();
      const callback = (error: unknown, value: unknown) => (error ? reject(error) : resolve(value));
      const returned = handler(invocation.event, context, callback);
      if (returned && typeof (returned as Promise<unknown>).then === 'function') (returned as Promise<unknown>).then(resolve, reject);
    });
    return { result };
  } catch (error) {
    const err = error instanceof Error ? error : new Error(String(error));
    return { error: { errorType: err.name, errorMessage: err.message, trace: (err.stack ?? '').split('\n') } };
  }
}

/**
 * A Python handler, run as the local cloud runs it (python3 with its bootstrap, the service folder as
 * the code), once. Its SDK calls go where the deployer's would: the deployer's AWS credentials and
 * endpoint are passed on. What it prints goes to `log`.
 */
async function invokePython(invocation: LocalInvocation, handler: string, runtime: string): Promise<Outcome> {
  const { Worker } = require('../local/runtime/worker') as typeof import('../local/runtime/worker');
  const { PYTHON_BOOTSTRAP } = require('../local/runtime/python-bootstrap') as typeof import('../local/runtime/python-bootstrap');
  const { loaded, fn } = invocation;
  const folder = mkdtempSync(join(tmpdir(), 'fw-invoke-local-'));
  const bootstrap = join(folder, 'bootstrap.py');
  writeFileSync(bootstrap, PYTHON_BOOTSTRAP);
  const deployer = Object.fromEntries(
    ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_PROFILE', 'AWS_ENDPOINT_URL', 'HOME'].map(name => [name, process.env[name] ?? '']),
  );
  const worker = new Worker(
    {
      name: invocation.physicalName,
      arn: `arn:aws:lambda:${loaded.region}:000000000000:function:${invocation.physicalName}`,
      handler,
      runtime,
      memory: Number(fn.memorySize ?? loaded.config.provider.memorySize ?? 1024),
      timeout: Number(fn.timeout ?? loaded.config.provider.timeout ?? 6),
      environment: { ...deployer, ...environment(loaded, fn), ...invocation.environment },
      codeDir: loaded.serviceDir,
      region: loaded.region,
      logGroup: `/aws/lambda/${invocation.physicalName}`,
      revision: '',
    },
    {
      baseUrl: process.env.AWS_ENDPOINT_URL ?? '',
      credentials: { accessKeyId: process.env.AWS_ACCESS_KEY_ID ?? '', secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY ?? '' },
      pythonBootstrap: () => bootstrap,
      writeLogs: (_group, _stream, lines) => {
        for (const line of lines) if (!/^(START|END|REPORT) RequestId: /.test(line)) invocation.log(`${line}\n`);
      },
    },
  );
  try {
    const result = await worker.invoke(randomUUID(), invocation.event, invocation.clientContext);
    return result.ok ? { result: result.value } : { error: { ...result.error } };
  } finally {
    worker.kill();
    await worker.gone;
    rmSync(folder, { recursive: true, force: true });
  }
}
