/**
 * Runs a function of an OS-only runtime (`provided`, `provided.al2`, `provided.al2023`, and
 * `go1.x`) as Lambda does: its executable — the `bootstrap` file of its code (or of a layer, under
 * /opt), for go1.x the handler's file — is started with AWS_LAMBDA_RUNTIME_API naming the Lambda
 * Runtime API this process serves on 127.0.0.1, and fetches each invocation from it (GET
 * /2018-06-01/runtime/invocation/next), answering with POST …/response or …/error, or
 * /runtime/init/error when it cannot start. Go (aws-lambda-go), Rust (lambda_runtime), a shell
 * script with curl: whatever speaks that API runs. To the local cloud this process is the
 * function's runtime, speaking the protocol the Node.js and Python bootstraps speak (protocol.ts);
 * the executable's output is the function's log.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { FLUSH_MARKER, readLines, type FunctionErrorPayload, type InvokeMessage, type ReplyMessage } from './protocol';

const replies = new Socket({ fd: 3, readable: false, writable: true });
const reply = (message: ReplyMessage) => replies.write(`${JSON.stringify(message)}\n`);

const PREFIX = '/2018-06-01/runtime';
/** Lambda's limit on a response posted to the Runtime API (6 MB). */
const MAX_RESPONSE_BYTES = 6 * 1024 * 1024;

/** The file Lambda starts for this runtime. */
function executable(): string {
  const root = process.env.LAMBDA_TASK_ROOT ?? process.cwd();
  if (process.env.AWS_EXECUTION_ENV === 'AWS_Lambda_go1.x') return join(root, process.env._HANDLER ?? '');
  const opt = process.env.FW_LOCAL_OPT;
  const own = join(root, 'bootstrap');
  return !existsSync(own) && opt && existsSync(join(opt, 'bootstrap')) ? join(opt, 'bootstrap') : own;
}

let ready = false;
let child: ChildProcess | undefined;
/** The invocation the local cloud sent and the executable has not answered yet. */
let current: InvokeMessage | undefined;
/** The executable's request for the next invocation, waiting for one. */
let waiting: ServerResponse | undefined;
/** Why the runtime cannot run invocations (an init error, the executable gone): each one fails with it. */
let broken: FunctionErrorPayload | undefined;

/** Whether the executable reported an init error: the environment ends once an invocation has been failed with it. */
let initFailed = false;

async function failWithInitError(): Promise<void> {
  await finish({ ok: false, error: broken! });
  replies.end(() => process.exit(1));
}

function becomeReady(): void {
  if (ready) return;
  ready = true;
  reply({ type: 'ready' });
}

/** Ends the current invocation: what the executable printed first, then the markers, then the result. */
async function finish(result: { ok: true; value: unknown } | { ok: false; error: FunctionErrorPayload }): Promise<void> {
  const invocation = current;
  if (!invocation) return;
  current = undefined;
  // Output the executable wrote before it answered is in the pipes already: one more turn reads it.
  await new Promise((resolve) => setImmediate(resolve));
  await Promise.all([process.stdout, process.stderr].map((stream) => new Promise((done) => stream.write(`${FLUSH_MARKER}${invocation.id}\n`, () => done(undefined)))));
  reply({ type: 'result', id: invocation.id, ...result, markers: 2, maxRss: process.resourceUsage().maxRSS } as ReplyMessage);
}

function traceId(): string {
  const hex = randomBytes(20).toString('hex');
  return `Root=1-${Math.floor(Date.now() / 1000).toString(16)}-${hex.slice(0, 24)};Parent=${hex.slice(24, 40)};Sampled=0`;
}

/** Hands the current invocation to the executable's waiting request. */
function deliver(): void {
  if (!current || !waiting) return;
  const response = waiting;
  waiting = undefined;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'lambda-runtime-aws-request-id': current.id,
    'lambda-runtime-deadline-ms': String(current.deadline),
    'lambda-runtime-invoked-function-arn': current.invokedFunctionArn,
    'lambda-runtime-trace-id': traceId(),
  };
  if (current.clientContext !== undefined) headers['lambda-runtime-client-context'] = JSON.stringify(current.clientContext);
  response.writeHead(200, headers).end(JSON.stringify(current.event ?? null));
}

function answer(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** An error the executable posted: its JSON body, the type from Lambda-Runtime-Function-Error-Type when the body has none. */
function postedError(request: IncomingMessage, body: Buffer): FunctionErrorPayload {
  const typeHeader = request.headers['lambda-runtime-function-error-type'];
  let parsed: Partial<FunctionErrorPayload> = {};
  try {
    parsed = JSON.parse(body.toString('utf8') || '{}') as Partial<FunctionErrorPayload>;
  } catch {
    parsed = { errorMessage: body.toString('utf8') };
  }
  return {
    errorType: String(parsed.errorType ?? (typeof typeHeader === 'string' ? typeHeader : 'Runtime.Unknown')),
    errorMessage: String(parsed.errorMessage ?? ''),
    ...(Array.isArray(parsed.stackTrace) ? { stackTrace: parsed.stackTrace.map(String) } : {}),
  };
}

async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path = (request.url ?? '').split('?')[0];
  const body = await readBody(request);
  if (request.method === 'GET' && path === `${PREFIX}/invocation/next`) {
    becomeReady();
    waiting?.destroy();
    waiting = response;
    return deliver();
  }
  if (request.method === 'POST' && path === `${PREFIX}/init/error`) {
    broken = postedError(request, body);
    answer(response, 202, { status: 'OK' });
    becomeReady();
    // As on Lambda, the invocation that started this environment fails with the init error (now, or
    // when it arrives), and the next one starts a new environment.
    initFailed = true;
    child?.kill('SIGKILL');
    if (current) await failWithInitError();
    return;
  }
  const posted = /^\/2018-06-01\/runtime\/invocation\/([^/]+)\/(response|error)$/.exec(path);
  if (request.method === 'POST' && posted) {
    const id = decodeURIComponent(posted[1]);
    if (!current || current.id !== id) return answer(response, 400, { errorMessage: 'Invalid request ID', errorType: 'InvalidRequestID' });
    if (posted[2] === 'error') {
      answer(response, 202, { status: 'OK' });
      return finish({ ok: false, error: postedError(request, body) });
    }
    if (body.length > MAX_RESPONSE_BYTES) {
      answer(response, 413, { errorMessage: `Exceeded maximum allowed payload size (${MAX_RESPONSE_BYTES} bytes).`, errorType: 'RequestEntityTooLarge' });
      return finish({ ok: false, error: { errorType: 'Function.ResponseSizeTooLarge', errorMessage: `Response payload size exceeded maximum allowed payload size (${MAX_RESPONSE_BYTES} bytes).` } });
    }
    answer(response, 202, { status: 'OK' });
    const text = body.toString('utf8');
    let value: unknown = text;
    try {
      value = text === '' ? null : JSON.parse(text);
    } catch {
      // Lambda returns what the function posted as it is; a text that is not JSON stays a text.
    }
    return finish({ ok: true, value });
  }
  answer(response, 404, { errorMessage: `Unknown Runtime API path ${request.method} ${path}`, errorType: 'InvalidRequest' });
}

function exitReason(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `signal: ${signal === 'SIGKILL' ? 'killed' : signal}` : `exit status ${code ?? 0}`;
}

function main(): void {
  const server = createServer((request, response) => void serve(request, response).catch((error: Error) => answer(response, 500, { errorMessage: error.message, errorType: 'Runtime.Unknown' })));
  server.keepAliveTimeout = 0;
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    const file = executable();
    child = spawn(file, [], { env: { ...process.env, AWS_LAMBDA_RUNTIME_API: `127.0.0.1:${port}` }, stdio: ['ignore', 'pipe', 'pipe'], cwd: process.env.LAMBDA_TASK_ROOT });
    child.stdout!.pipe(process.stdout);
    child.stderr!.pipe(process.stderr);
    child.on('error', (error: NodeJS.ErrnoException) => {
      // Lambda's words for an executable that cannot be started.
      broken = { errorType: 'Runtime.InvalidEntrypoint', errorMessage: `Error: fork/exec ${file}: ${error.code === 'ENOENT' ? 'no such file or directory' : error.code === 'EACCES' ? 'permission denied' : error.message}` };
      becomeReady();
      if (current) void finish({ ok: false, error: broken });
    });
    child.on('exit', (code, signal) => {
      if (broken?.errorType === 'Runtime.InvalidEntrypoint' || initFailed) return;
      const reason = `Runtime exited with error: ${exitReason(code, signal)}`;
      broken = broken ?? { errorType: 'Runtime.ExitError', errorMessage: `Error: ${reason}` };
      becomeReady();
      const invocation = current;
      const ended = invocation ? finish({ ok: false, error: { errorType: 'Runtime.ExitError', errorMessage: `RequestId: ${invocation.id} Error: ${reason}` } }) : Promise.resolve();
      // The environment ends with its runtime: the next invocation starts a new one.
      void ended.then(() => replies.end(() => process.exit(1)));
    });
  });
  readLines(process.stdin, (line) => {
    const message = JSON.parse(line) as InvokeMessage;
    current = message;
    if (initFailed) return void failWithInitError();
    if (broken) return void finish({ ok: false, error: broken });
    deliver();
  });
  process.stdin.on('close', () => {
    child?.kill('SIGKILL');
    process.exit(0);
  });
}

main();
