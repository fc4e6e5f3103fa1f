import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer as createHttpServer } from 'node:http';
import { awsTimeouts, timeoutSettings } from '../../src/aws/timeouts';
import { createClients } from '../../src/aws/clients';
import { describeStack } from '../../src/deploy/stack';
import { childEnv } from '../helpers/env';

const FW = join(__dirname, '..', '..', '..', 'bin', 'fw.js');

interface Context {
  /** Accepts every TCP connection and never sends a byte. */
  silent: Server;
  sockets: Socket[];
  url: string;
  work: string;
}

const silent = suite<Context>('An endpoint that accepts the connection and never answers');

silent.before(async context => {
  context.work = mkdtempSync(join(tmpdir(), 'fw-silent-'));
  context.sockets = [];
  context.silent = createServer(socket => context.sockets.push(socket));
  await new Promise<void>(resolve => context.silent.listen(0, '127.0.0.1', resolve));
  context.url = `http://127.0.0.1:${(context.silent.address() as AddressInfo).port}`;
});

silent.after(async context => {
  for (const socket of context.sockets) socket.destroy();
  await new Promise(resolve => context.silent.close(resolve));
  rmSync(context.work, { recursive: true, force: true });
});

/** Runs the built CLI in its own process, with half-second time-outs, and says how long it took. */
async function fw(context: Context, service: string, args: string[], extraEnv: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string; seconds: number }> {
  const dir = mkdtempSync(join(context.work, 'service-'));
  writeFileSync(join(dir, 'fw.yml'), service);
  writeFileSync(join(dir, 'handler.js'), 'exports.main = async () => ({ statusCode: 200 });\n');
  const env = childEnv({ AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', FW_AWS_REQUEST_TIMEOUT: '0.5', FW_AWS_CONNECT_TIMEOUT: '0.5', ...extraEnv });
  delete env.AWS_ENDPOINT_URL;
  const started = Date.now();
  const child = spawn(process.execPath, [FW, ...args], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', chunk => (stdout += chunk));
  child.stderr.on('data', chunk => (stderr += chunk));
  const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const code = await new Promise<number | null>(resolve => child.on('close', resolve));
  clearTimeout(killer);
  return { code, stdout, stderr, seconds: (Date.now() - started) / 1000 };
}

const SERVICE = `service: quiet
provider:
  name: aws
  runtime: nodejs20.x
functions:
  hello:
    handler: handler.main
`;

silent('fw deploy --endpoint-url fails in bounded time naming CloudFormation DescribeStacks and the endpoint', async context => {
  const result = await fw(context, SERVICE, ['deploy', '--endpoint-url', context.url]);
  assert.is(result.code, 1, result.stdout + result.stderr);
  const lines = `${result.stdout}${result.stderr}`.trim().split('\n');
  assert.is(lines.at(-1), `Error: CloudFormation DescribeStacks at ${context.url} did not answer within 0.5 s (2 attempts; FW_AWS_REQUEST_TIMEOUT sets the limit)`);
  assert.ok(result.seconds < 15, `took ${result.seconds} s`);
});

silent('fw info fails in bounded time with the same one line', async context => {
  const result = await fw(context, SERVICE, ['info', '--endpoint-url', context.url]);
  assert.is(result.code, 1);
  assert.is(`${result.stdout}${result.stderr}`, `Error: CloudFormation DescribeStacks at ${context.url} did not answer within 0.5 s (2 attempts; FW_AWS_REQUEST_TIMEOUT sets the limit)\n`);
  assert.ok(result.seconds < 15, `took ${result.seconds} s`);
});

silent('an ${ssm:} variable fails in bounded time, naming the config path and SSM GetParameter', async context => {
  const service = `${SERVICE}custom:\n  apiKey: \${ssm:/quiet/api-key}\n`;
  const result = await fw(context, service, ['info', '--endpoint-url', context.url]);
  assert.is(result.code, 1);
  assert.is(
    `${result.stdout}${result.stderr}`,
    `Error: Cannot resolve variable at "custom.apiKey": \${ssm:/quiet/api-key}: SSM GetParameter at ${context.url} did not answer within 0.5 s (2 attempts; FW_AWS_REQUEST_TIMEOUT sets the limit)\n`,
  );
  assert.ok(result.seconds < 15, `took ${result.seconds} s`);
});

silent('an unusable time-out setting is one line naming the variable and the value', async context => {
  const result = await fw(context, SERVICE, ['info', '--endpoint-url', context.url], { FW_AWS_REQUEST_TIMEOUT: 'soon' });
  assert.is(result.code, 1);
  assert.is(`${result.stdout}${result.stderr}`, 'Error: Invalid environment variable FW_AWS_REQUEST_TIMEOUT: expected a number of seconds greater than 0, got "soon"\n');
});

silent('an answer that keeps flowing is not cut, however much longer than the time-out it takes', async () => {
  const xml =
    '<DescribeStacksResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><DescribeStacksResult><Stacks><member>' +
    '<StackName>slow-dev</StackName><StackStatus>UPDATE_COMPLETE</StackStatus><CreationTime>2026-01-01T00:00:00Z</CreationTime>' +
    '</member></Stacks></DescribeStacksResult></DescribeStacksResponse>';
  // Eight pieces 200 ms apart: 1.6 s in all, never silent for the 0.5 s limit.
  const slow = createHttpServer((request, response) => {
    request.resume();
    response.writeHead(200, { 'content-type': 'text/xml' });
    const pieces = xml.match(/[^]{1,40}/g)!;
    const step = Math.ceil(pieces.length / 8);
    let sent = 0;
    const timer = setInterval(() => {
      response.write(pieces.slice(sent, sent + step).join(''));
      sent += step;
      if (sent >= pieces.length) {
        clearInterval(timer);
        response.end();
      }
    }, 200);
  });
  await new Promise<void>(resolve => slow.listen(0, '127.0.0.1', resolve));
  const previous = process.env.FW_AWS_REQUEST_TIMEOUT;
  process.env.FW_AWS_REQUEST_TIMEOUT = '0.5';
  try {
    const clients = createClients({ region: 'us-east-1', endpoint: `http://127.0.0.1:${(slow.address() as AddressInfo).port}`, credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
    const started = Date.now();
    const stack = await describeStack(clients, 'slow-dev');
    assert.equal({ name: stack?.StackName, status: stack?.StackStatus }, { name: 'slow-dev', status: 'UPDATE_COMPLETE' });
    assert.ok(Date.now() - started >= 1400, `answered in ${Date.now() - started} ms`);
    clients.cloudFormation.destroy();
  } finally {
    if (previous === undefined) delete process.env.FW_AWS_REQUEST_TIMEOUT;
    else process.env.FW_AWS_REQUEST_TIMEOUT = previous;
    await new Promise(resolve => slow.close(resolve));
  }
});

silent('the request time-out limits silence on the socket, not the length of a request', () => {
  assert.equal(timeoutSettings(awsTimeouts({})), { requestHandler: { connectionTimeout: 10_000, socketTimeout: 60_000 } });
  assert.equal(awsTimeouts({ FW_AWS_CONNECT_TIMEOUT: '3', FW_AWS_REQUEST_TIMEOUT: '120' }), { connectSeconds: 3, requestSeconds: 120 });
});

silent.run();
