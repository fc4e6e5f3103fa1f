/**
 * Runs inside a function's own Node.js process, as Lambda's runtime does:
 * loads the handler once (CommonJS or ESM), then answers one invocation at a
 * time. console output becomes log events tagged with the request id.
 */
import { Socket } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import Module, { register } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { format } from 'node:util';
import { FLUSH_MARKER, PAYLOAD_SEPARATOR, readLines, type FunctionErrorPayload, type InvokeMessage, type ReplyMessage } from './protocol';

/**
 * Lambda's Node.js runtimes bundle the AWS SDK v3 (NODE_PATH ends with /var/runtime/node_modules),
 * so functions require it without shipping it. Here fw's own install plays that folder: it is
 * searched after the function's own node_modules, so a service's SDK wins, as on AWS. NODE_PATH
 * serves require(); ESM import ignores NODE_PATH, so a resolve hook retries a missing bare
 * specifier from fw's folder. The hook is registered only for a handler that may import (see
 * `mayImport`): registering starts the loader's thread, about 100 ms of every cold start.
 */
let runtimeModules: string | undefined;
function provideRuntimeSdk(): void {
  for (let dir = __dirname; !runtimeModules && dirname(dir) !== dir; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', '@aws-sdk', 'client-dynamodb'))) runtimeModules = join(dir, 'node_modules');
  }
  // $FW_LOCAL_NODE_MODULES: folders the runtime provides after those, as /var/runtime/node_modules
  // held aws-sdk v2 on nodejs16.x and older, which functions of that time require without shipping it.
  const provided = process.env.FW_LOCAL_NODE_MODULES;
  if (!runtimeModules && !provided) return;
  process.env.NODE_PATH = [process.env.NODE_PATH, runtimeModules, provided].filter(Boolean).join(delimiter);
  (Module as unknown as { _initPaths(): void })._initPaths();
}
provideRuntimeSdk();

/**
 * A layer's files are under /opt on Lambda, and handlers require them by that path
 * (`require('/opt/nodejs/lib/db')`). Here the folder FW_LOCAL_OPT names plays /opt
 * (runtime/layers-folder.ts), so such a path is resolved there.
 */
function provideLayersAtOpt(): void {
  const opt = process.env.FW_LOCAL_OPT;
  if (!opt) return;
  const loader = Module as unknown as { _resolveFilename(request: string, ...rest: unknown[]): string };
  const resolve = loader._resolveFilename;
  loader._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]) {
    return resolve.call(this, request === '/opt' || request.startsWith('/opt/') ? join(opt, request.slice(4)) : request, ...rest);
  };
}
provideLayersAtOpt();

let importFallbackRegistered = false;
/** Lets ESM `import` of a bare specifier the function lacks find it in fw's folder, as require() does through NODE_PATH. */
function provideRuntimeSdkToImport(): void {
  // module.register came with Node.js 20.6: on older 20.x, require() finds the SDK and import does not.
  if (importFallbackRegistered || !runtimeModules || typeof register !== 'function') return;
  importFallbackRegistered = true;
  const fallback = `let parentURL;
export function initialize(data) { parentURL = data; }
export async function resolve(specifier, context, next) {
  try { return await next(specifier, context); } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || /^([./]|[a-z]+:)/i.test(specifier)) throw error;
    return next(specifier, { ...context, parentURL });
  }
}`;
  register(`data:text/javascript,${encodeURIComponent(fallback)}`, { data: pathToFileURL(join(runtimeModules, 'fw-runtime-sdk.js')).href });
}

/**
 * Whether the handler may load modules through ESM `import` from the start: an `.mjs` file, or one whose
 * text says `import(`. A `.js` file that require() cannot load is imported after registering the hook
 * (loadHandler). A CommonJS handler whose own dependencies call import() on the runtime's SDK is the
 * case this leaves out.
 */
function mayImport(file: string): boolean {
  return file.endsWith('.mjs') || /\bimport\s*\(/.test(readFileSync(file, 'utf8'));
}

/**
 * A WebSocket API's callback URL is `https://<requestContext.domainName>/<stage>`, and the local
 * cloud's domain names are `<apiId>.execute-api.localhost:PORT`, served over plain HTTP on the
 * local cloud's port. So an HTTPS request to a `*.localhost` host at that port (what
 * `new ApiGatewayManagementApiClient({ endpoint: 'https://' + domainName + '/' + stage })` sends)
 * is made over HTTP to the local cloud's address, its Host header unchanged. So is an HTTPS request to
 * the local cloud's own address on port 443 for one of its `/_fw/` URLs (a custom resource's
 * ResponseURL, which handlers send to port 443 whatever the URL says). Nothing else is touched.
 */
function routeLocalHttps(): void {
  let local: URL;
  try {
    local = new URL(process.env.AWS_ENDPOINT_URL ?? '');
  } catch {
    return;
  }
  const https = require('node:https') as typeof import('node:https');
  const http = require('node:http') as typeof import('node:http');
  const redirect = (original: typeof https.request): typeof https.request =>
    function (this: unknown, ...args: unknown[]) {
      const url = typeof args[0] === 'string' || args[0] instanceof URL ? new URL(String(args[0])) : undefined;
      const options = (url ? (typeof args[1] === 'object' && args[1] !== null ? args[1] : {}) : (args[0] ?? {})) as import('node:https').RequestOptions;
      const hostname = String(options.hostname ?? options.host ?? url?.hostname ?? '').replace(/:\d+$/, '');
      const port = String(options.port ?? url?.port ?? '');
      const path = String(options.path ?? url?.pathname ?? '');
      const toApi = hostname.endsWith('.localhost') && port === local.port;
      // A custom resource's ResponseURL (or a wait condition's) at the local cloud's own address, sent to port 443 as
      // AWS's cfn-response module and v3's custom resources send it (they build the request with `port: 443`).
      const toResponseUrl = hostname === local.hostname.replace(/^\[(.*)\]$/, '$1') && (port === '443' || port === '') && path.startsWith('/_fw/');
      if (!toApi && !toResponseUrl) return (original as (...a: unknown[]) => unknown).apply(this, args);
      const callback = args.find((arg) => typeof arg === 'function') as ((response: import('node:http').IncomingMessage) => void) | undefined;
      const merged: import('node:http').RequestOptions = {
        ...(url ? { path: `${url.pathname}${url.search}`, method: 'GET' } : {}),
        ...options,
        protocol: 'http:',
        hostname: local.hostname.replace(/^\[(.*)\]$/, '$1'),
        host: undefined,
        port: local.port,
        agent: undefined,
        headers: { host: toApi ? `${hostname}:${port}` : local.host, ...options.headers },
      };
      return http.request(merged, callback);
    } as typeof https.request;
  const request = redirect(https.request);
  https.request = request;
  https.get = ((...args: Parameters<typeof https.get>) => {
    const outgoing = (request as (...a: unknown[]) => import('node:http').ClientRequest)(...args);
    outgoing.end();
    return outgoing;
  }) as typeof https.get;
  (require('node:module') as { syncBuiltinESMExports(): void }).syncBuiltinESMExports();
}
routeLocalHttps();

/**
 * The AWS SDK for JavaScript v2 (`aws-sdk`, what Lambda's nodejs16.x and older runtimes bundled and
 * most published Serverless examples use) ignores `AWS_ENDPOINT_URL`: left alone it calls AWS's real
 * hostnames. So every copy of it the function loads (its own, or one found through NODE_PATH) gets
 * the local cloud as its global endpoint the moment it is first required, the way SDK v3 and boto3
 * read the variable. S3 is addressed path-style (`/bucket/key`), since `bucket.127.0.0.1` does not
 * resolve. A client built with its own `endpoint` keeps it, as it would on AWS.
 */
function routeSdkV2(): void {
  const endpoint = process.env.AWS_ENDPOINT_URL;
  if (!endpoint) return;
  const configured = new WeakSet<object>();
  const loader = Module as unknown as { _load(request: string, parent: unknown, isMain: boolean): unknown };
  const load = loader._load;
  loader._load = function (this: unknown, request: string, parent: unknown, isMain: boolean) {
    const loaded = load.call(this, request, parent, isMain);
    // A bare `aws-sdk` or `aws-sdk/clients/…` from require(); a file path under aws-sdk/ from an ESM import.
    if (/(^|[\\/])aws-sdk([\\/]|$)/.test(request)) {
      for (const [file, cached] of Object.entries(require.cache)) {
        const core = cached?.exports as { config?: { update(options: object): void } } | undefined;
        if (!/[\\/]aws-sdk[\\/]lib[\\/]core\.js$/.test(file) || !core?.config || configured.has(core)) continue;
        configured.add(core);
        core.config.update({ endpoint, s3ForcePathStyle: true });
      }
    }
    return loaded;
  };
}
routeSdkV2();

type Handler = (event: unknown, context: Record<string, unknown>, callback: (error?: unknown, value?: unknown) => void) => unknown;

const replies = new Socket({ fd: 3, readable: false, writable: true });
let currentRequest: string | undefined;

function reply(message: ReplyMessage): void {
  replies.write(`${JSON.stringify(message)}\n`);
}

function errorPayload(error: unknown): FunctionErrorPayload {
  if (error instanceof Error) {
    return { errorType: error.name || 'Error', errorMessage: error.message, trace: (error.stack ?? '').split('\n') };
  }
  return { errorType: typeof error === 'string' ? 'string' : 'Error', errorMessage: typeof error === 'string' ? error : JSON.stringify(error) };
}

/** The outputs written to directly (process.stdout.write) since the last invocation ended. */
const dirty = new Set<NodeJS.WriteStream>();
const originalWrite = new Map<NodeJS.WriteStream, NodeJS.WriteStream['write']>();
for (const stream of [process.stdout, process.stderr]) {
  const write = stream.write;
  originalWrite.set(stream, write);
  stream.write = function (this: NodeJS.WriteStream, ...args: unknown[]) {
    dirty.add(stream);
    return (write as (...a: unknown[]) => boolean).apply(this, args);
  } as NodeJS.WriteStream['write'];
}

for (const [method, level] of [['log', 'INFO'], ['info', 'INFO'], ['warn', 'WARN'], ['error', 'ERROR'], ['debug', 'DEBUG'], ['trace', 'TRACE']] as const) {
  console[method] = (...args: unknown[]) => reply({ type: 'log', id: currentRequest, level, message: format(...args) });
}

async function loadHandler(): Promise<Handler> {
  const spec = process.env._HANDLER ?? '';
  const root = process.env.LAMBDA_TASK_ROOT ?? process.cwd();
  const dot = spec.lastIndexOf('.');
  if (dot <= 0) throw Object.assign(new Error(`Bad handler ${spec}: expected "file.function"`), { name: 'Runtime.MalformedHandlerName' });
  const modulePath = spec.slice(0, dot);
  const exportName = spec.slice(dot + 1);
  const file = ['.js', '.mjs', '.cjs'].map((extension) => join(root, modulePath + extension)).find((candidate) => existsSync(candidate));
  if (!file) throw Object.assign(new Error(`Cannot find module '${modulePath}'`), { name: 'Runtime.ImportModuleError' });
  let loaded: Record<string, unknown>;
  if (mayImport(file)) provideRuntimeSdkToImport();
  if (file.endsWith('.mjs')) {
    loaded = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } else {
    try {
      loaded = require(file) as Record<string, unknown>;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ERR_REQUIRE_ESM' && !(error instanceof SyntaxError && /import|export/.test(error.message))) throw error;
      provideRuntimeSdkToImport();
      loaded = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    }
  }
  const handler = (loaded[exportName] ?? (loaded.default as Record<string, unknown> | undefined)?.[exportName]) as Handler | undefined;
  if (typeof handler !== 'function') {
    throw Object.assign(new Error(`${modulePath}.${exportName} is undefined or not exported`), { name: 'Runtime.HandlerNotFound' });
  }
  return handler;
}

function run(handler: Handler, message: InvokeMessage): Promise<unknown> {
  const env = process.env;
  return new Promise((resolve, reject) => {
    const callback = (error?: unknown, value?: unknown) => (error !== undefined && error !== null ? reject(error) : resolve(value));
    const context: Record<string, unknown> = {
      functionName: env.AWS_LAMBDA_FUNCTION_NAME,
      functionVersion: env.AWS_LAMBDA_FUNCTION_VERSION,
      invokedFunctionArn: message.invokedFunctionArn,
      memoryLimitInMB: env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
      awsRequestId: message.id,
      logGroupName: env.AWS_LAMBDA_LOG_GROUP_NAME,
      logStreamName: env.AWS_LAMBDA_LOG_STREAM_NAME,
      callbackWaitsForEmptyEventLoop: true,
      getRemainingTimeInMillis: () => Math.max(0, message.deadline - Date.now()),
      ...(message.clientContext !== undefined ? { clientContext: message.clientContext } : {}),
      done: callback,
      succeed: (value: unknown) => callback(null, value),
      fail: (error: unknown) => callback(error ?? new Error('handled')),
    };
    try {
      const returned = handler(message.event, context, callback);
      if (returned && typeof (returned as Promise<unknown>).then === 'function') (returned as Promise<unknown>).then(resolve, reject);
      else if (handler.length < 3) resolve(returned);
    } catch (error) {
      reject(error);
    }
  });
}

async function main(): Promise<void> {
  let handler: Handler | undefined;
  let loadError: unknown;
  try {
    handler = await loadHandler();
  } catch (error) {
    loadError = error;
  }
  process.on('uncaughtException', (error) => {
    if (currentRequest) reply({ type: 'result', id: currentRequest, ok: false, error: errorPayload(error) });
    replies.end(() => process.exit(1));
  });
  process.on('unhandledRejection', (error) => {
    if (currentRequest) reply({ type: 'result', id: currentRequest, ok: false, error: errorPayload(error) });
    replies.end(() => process.exit(1));
  });
  reply({ type: 'ready' });
  // One invocation at a time: the local cloud sends the next only after this one's result.
  readLines(process.stdin, (line) => void invokeOnce(handler, loadError, JSON.parse(line) as InvokeMessage));
  process.stdin.on('close', () => process.exit(0));
}

async function invokeOnce(handler: Handler | undefined, loadError: unknown, message: InvokeMessage): Promise<void> {
  currentRequest = message.id;
  let value: unknown;
  let error: FunctionErrorPayload | undefined;
  try {
    if (!handler) throw loadError;
    value = await run(handler, message);
  } catch (thrown) {
    error = errorPayload(thrown);
  }
  // Only the outputs written to since the last invocation need a marker (console.* goes to fd 3).
  let markers = 0;
  if (dirty.size > 0) {
    const written = [process.stdout, process.stderr].filter((stream) => dirty.has(stream));
    dirty.clear();
    markers = written.length;
    await Promise.all(written.map((stream) => new Promise((done) => (originalWrite.get(stream) as (chunk: string, callback: () => void) => boolean).call(stream, `${FLUSH_MARKER}${message.id}\n`, () => done(undefined)))));
  }
  const maxRss = process.resourceUsage().maxRSS;
  if (error) reply({ type: 'result', id: message.id, ok: false, error, markers, maxRss });
  // The value goes as its JSON text after the result's own (see PAYLOAD_SEPARATOR): serialized once, here.
  else replies.write(`${JSON.stringify({ type: 'result', id: message.id, ok: true, markers, maxRss })}${PAYLOAD_SEPARATOR}${JSON.stringify(value) ?? 'null'}\n`);
  currentRequest = undefined;
}

void main();
