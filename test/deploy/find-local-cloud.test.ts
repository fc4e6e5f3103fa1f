import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Cli } from 'clipanion';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LocalStartCommand } from '../../src/cli/local';
import { runningLocalCloudPort } from '../../src/deploy/connect';
import { runFw } from '../helpers/cli';
import { startTestCloud, TEST_ENV } from '../helpers/local-cloud';

const SERVICE = `service: found
provider:
  name: aws
  runtime: nodejs20.x
functions:
  hello:
    handler: handler.main
    events:
      - httpApi: GET /hello
`;

/** `fw local start` in this process, as a user runs it; `stop` interrupts it as Ctrl-C does. */
async function localStart(args: string[]): Promise<{ url: string; output: () => string; stop(): Promise<number> }> {
  const cli = new Cli({ binaryName: 'fw' });
  cli.register(LocalStartCommand);
  const stdout = new PassThrough();
  let text = '';
  stdout.on('data', chunk => (text += chunk));
  const done = cli.run(['local', 'start', ...args], { stdin: process.stdin, stdout, stderr: stdout, env: process.env, colorDepth: 1 });
  let url: string | undefined;
  for (let i = 0; i < 300 && !url; i++) {
    url = /listening on (http:\/\/\S+)/.exec(text)?.[1];
    if (!url) await new Promise(resolve => setTimeout(resolve, 10));
  }
  if (!url) throw new Error(`fw local start did not start:\n${text}`);
  return { url, output: () => text, stop: () => (process.emit('SIGINT'), done) };
}

const find = suite<{ dir: string; port?: string }>('--local finds the running local cloud');

find.before(context => {
  context.dir = mkdtempSync(join(tmpdir(), 'fw-find-local-'));
  // The explicit port would win over the record these tests are about.
  context.port = process.env.FW_LOCAL_PORT;
  delete process.env.FW_LOCAL_PORT;
});

find.after(context => {
  if (context.port !== undefined) process.env.FW_LOCAL_PORT = context.port;
  rmSync(context.dir, { recursive: true, force: true });
});

find('fw local start --port records where it listens; fw deploy --local deploys there; the record goes when it stops', async ({ dir }) => {
  const data = join(dir, 'data');
  const service = join(dir, 'service');
  const cloud = await localStart(['--port', '0', '--data', data]);
  try {
    const port = Number(new URL(cloud.url).port);
    assert.equal(JSON.parse(readFileSync(join(data, 'endpoint.json'), 'utf8')), { url: cloud.url, port, pid: process.pid });
    assert.match(cloud.output(), `Deploy to it with: FW_LOCAL_DATA=${data} fw deploy --local\n`);
    mkdirSync(service);
    writeFileSync(join(service, 'fw.yml'), SERVICE);
    writeFileSync(join(service, 'handler.js'), 'exports.main = async () => ({ statusCode: 200, body: "found" });\n');
    const { code, stdout, stderr } = await runFw(['deploy', '--local'], service, { ...TEST_ENV, FW_LOCAL_DATA: data });
    assert.equal({ code, stderr }, { code: 0, stderr: '' });
    const endpoint = /GET - (\S+)/.exec(stdout)?.[1] ?? '';
    assert.ok(endpoint.startsWith(`${cloud.url}/`), stdout);
    assert.not.match(stdout, 'The local cloud ran inside this command');
    const response = await fetch(endpoint);
    assert.equal({ status: response.status, body: await response.text() }, { status: 200, body: 'found' });
  } finally {
    assert.is(await cloud.stop(), 130);
  }
  assert.is(existsSync(join(data, 'endpoint.json')), false);
});

find('a record whose process is gone is ignored; FW_LOCAL_PORT wins over a record', async ({ dir }) => {
  const test = await startTestCloud();
  const other = await startTestCloud();
  try {
    const data = join(dir, 'records');
    mkdirSync(data, { recursive: true });
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(join(data, 'endpoint.json'), JSON.stringify({ url: test.cloud.url, port: test.cloud.port, pid: dead }));
    assert.is.not(await runningLocalCloudPort({ dataDir: data }, {}), test.cloud.port);
    writeFileSync(join(data, 'endpoint.json'), JSON.stringify({ url: test.cloud.url, port: test.cloud.port, pid: process.pid }));
    assert.is(await runningLocalCloudPort({ dataDir: data }, {}), test.cloud.port);
    assert.is(await runningLocalCloudPort({ dataDir: data }, { FW_LOCAL_PORT: String(other.cloud.port) }), other.cloud.port);
    assert.is(await runningLocalCloudPort({ port: other.cloud.port, dataDir: data }, {}), other.cloud.port);
  } finally {
    await test.stop();
    await other.stop();
  }
});

find.run();
