import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startLocalCloud, type RunningLocalCloud } from '../../src/local';
import { runFw } from '../helpers/cli';

const EXAMPLES = join(__dirname, '..', '..', '..', 'examples');
const ENV = { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', NO_COLOR: '1' };
const hasPython = spawnSync('python3', ['--version']).status === 0;

interface Context {
  cloud: RunningLocalCloud;
  work: string;
}

const examples = suite<Context>('examples deploy to the local cloud and answer over HTTP');

examples.before(async context => {
  context.work = mkdtempSync(join(tmpdir(), 'fw-examples-'));
  context.cloud = await startLocalCloud({ port: 0, dataDir: join(context.work, 'cloud'), quiet: true });
});

examples.after(async context => {
  await context.cloud.stop();
  rmSync(context.work, { recursive: true, force: true });
});

/** Copies an example, deploys it, and returns what `fw deploy` printed. */
async function deploy(context: Context, name: string): Promise<{ stdout: string; dir: string }> {
  const dir = join(context.work, name);
  cpSync(join(EXAMPLES, name), dir, { recursive: true });
  const result = await runFw(['deploy', '--endpoint-url', context.cloud.url], dir, ENV);
  assert.is(result.code, 0, `fw deploy of ${name} failed:\n${result.stderr}`);
  return { stdout: result.stdout, dir };
}

function endpoint(stdout: string, method: string, path: string): string {
  const line = stdout.split('\n').find(l => l.trim().startsWith(`${method} - `) && l.trim().endsWith(path));
  assert.ok(line, `no "${method} … ${path}" endpoint in:\n${stdout}`);
  return line!.trim().slice(`${method} - `.length, -path.length);
}

examples('node-http-api: GET /items/{id} answers from the handler', async context => {
  const { stdout } = await deploy(context, 'node-http-api');
  const base = endpoint(stdout, 'GET', '/items/{id}');
  const found = await fetch(`${base}/items/1`);
  assert.is(found.status, 200);
  assert.equal(await found.json(), { id: '1', name: 'Notebook', price: 4.5 });
  assert.is((await fetch(`${base}/items/9`)).status, 404);
});

examples('node-rest-api: notes are created and read through the REST API', async context => {
  const { stdout } = await deploy(context, 'node-rest-api');
  const base = endpoint(stdout, 'GET', '/notes/{id}');
  const created = await fetch(`${base}/notes`, { method: 'POST', body: JSON.stringify({ text: 'x' }), headers: { 'content-type': 'application/json' } });
  assert.is(created.status, 201);
  const listed = await fetch(`${base}/notes`);
  assert.is(listed.status, 200);
});

examples('node-typescript: the TypeScript handler is bundled and answers', async context => {
  const { stdout } = await deploy(context, 'node-typescript');
  const base = endpoint(stdout, 'GET', '/hello/{name}');
  const response = await fetch(`${base}/hello/Ada`);
  assert.is(response.status, 200);
  assert.equal(await response.json(), { greeting: 'Hello, Ada.', path: '/hello/Ada' });
});

examples('orders: the larger service deploys with its table, queues and outputs', async context => {
  const { stdout } = await deploy(context, 'orders');
  const base = endpoint(stdout, 'GET', '/health');
  const response = await fetch(`${base}/health`);
  assert.is(response.status, 200);
  assert.equal(await response.json(), { ok: true, service: 'orders', stage: 'dev' });
});

examples('node-scheduled: the scheduled function deploys and can be invoked', async context => {
  const { dir } = await deploy(context, 'node-scheduled');
  const invoked = await runFw(['invoke', '-f', 'report', '--endpoint-url', context.cloud.url], dir, ENV);
  assert.is(invoked.code, 0, invoked.stderr);
  assert.match(invoked.stdout, '"kind": "hourly"');
});

examples('python-http-api: a Python handler answers over the HTTP API', async context => {
  if (!hasPython) {
    console.log('  python3 is not installed: the Python example is packaged by the create tests only');
    return;
  }
  const { stdout } = await deploy(context, 'python-http-api');
  const base = endpoint(stdout, 'GET', '/items/{id}');
  const response = await fetch(`${base}/items/1`);
  assert.is(response.status, 200);
  assert.equal(await response.json(), { id: '1', name: 'Notebook', price: 4.5 });
});

examples.run();
