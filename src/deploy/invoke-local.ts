import { existsSync } from 'node:fs';
import { importEsm } from '../import-module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomUUID } from 'node:crypto';
import { ConfigError } from '../errors';
import type { FunctionConfig } from '../constructs/model';
import type { LoadedService } from '../package/load';

export interface LocalInvocation {
  loaded: LoadedService;
  key: string;
  fn: FunctionConfig;
  physicalName: string;
  event: unknown;
  log: (text: string) => void;
}

/** Environment values as the function would see them; CloudFormation intrinsics cannot be known locally and are left out. */
function environment(loaded: LoadedService, fn: FunctionConfig): Record<string, string> {
  const variables = { ...(loaded.config.provider.environment ?? {}), ...(fn.environment ?? {}) };
  return Object.fromEntries(Object.entries(variables).filter(([, v]) => v !== null && typeof v !== 'object').map(([k, v]) => [k, String(v)]));
}

/**
 * Runs a Node.js handler in this process with a Lambda-like context: async and
 * callback styles, CommonJS or ESM; a thrown error is returned as Lambda reports it.
 */
export async function invokeHandler(invocation: LocalInvocation): Promise<{ result: unknown } | { error: Record<string, unknown> }> {
  const { loaded, fn, key } = invocation;
  if (typeof fn.handler !== 'string') throw new ConfigError(`Invalid configuration in 'functions.${key}.handler': invoke local needs a handler`);
  const runtime = fn.runtime ?? loaded.config.provider.runtime ?? 'nodejs';
  if (!runtime.startsWith('nodejs')) throw new ConfigError(`fw invoke local runs Node.js handlers; functions.${key} uses ${runtime}: deploy it (fw deploy --local) and use fw invoke`);
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
