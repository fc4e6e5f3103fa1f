import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runFw } from '../helpers/cli';
import { childEnv } from '../helpers/env';
import { startTestCloud, type TestCloud } from '../helpers/local-cloud';

const FW = join(__dirname, '..', '..', '..', 'bin', 'fw.js');
const ENV = { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', NO_COLOR: '1' };

interface Context extends TestCloud {
  work: string;
  /** In front of the local cloud: holds the first ExecuteChangeSet until a second change set exists. */
  proxy: Server;
  proxyUrl: string;
  actions: string[];
}

const concurrent = suite<Context>('Two fw deploy of one stack at once');

concurrent.before(async context => {
  Object.assign(context, await startTestCloud());
  context.work = mkdtempSync(join(tmpdir(), 'fw-concurrent-'));
  context.actions = [];
  let createdChangeSets = 0;
  let releaseExecute: (() => void) | undefined;
  const secondChangeSet = new Promise<void>(resolve => (releaseExecute = resolve));
  let heldOne = false;
  context.proxy = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', async () => {
      const body = Buffer.concat(chunks);
      const action = /(?:^|&)Action=([^&]+)/.exec(body.toString('utf8'))?.[1] ?? '';
      context.actions.push(action);
      // The race made certain: one deploy's change set executes after the other's was created.
      if (action === 'ExecuteChangeSet' && !heldOne) {
        heldOne = true;
        await Promise.race([secondChangeSet, new Promise(resolve => setTimeout(resolve, 20_000))]);
      }
      const forward = request(`${context.cloud.url}${incoming.url}`, { method: incoming.method, headers: incoming.headers }, answer => {
        outgoing.writeHead(answer.statusCode ?? 500, answer.headers);
        answer.pipe(outgoing);
        if (action === 'CreateChangeSet') answer.on('end', () => ++createdChangeSets === 2 && releaseExecute!());
      });
      forward.end(body);
    });
  });
  await new Promise<void>(resolve => context.proxy.listen(0, '127.0.0.1', resolve));
  context.proxyUrl = `http://127.0.0.1:${(context.proxy.address() as AddressInfo).port}`;
});

concurrent.after(async context => {
  await new Promise(resolve => context.proxy.close(resolve));
  await context.stop();
  rmSync(context.work, { recursive: true, force: true });
});

/** A copy of the service in its own folder (each deploy packages into its own .serverless/), answering `greeting`. */
function serviceCopy(context: Context, greeting: string): string {
  const dir = join(context.work, greeting);
  mkdirSync(dir);
  writeFileSync(join(dir, 'fw.yml'), 'service: race\nprovider:\n  name: aws\n  runtime: nodejs20.x\nfunctions:\n  hello:\n    handler: handler.main\n');
  writeFileSync(join(dir, 'handler.js'), `exports.main = async () => ({ statusCode: 200, body: ${JSON.stringify(greeting)} });\n`);
  return dir;
}

function deployInItsOwnProcess(context: Context, dir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [FW, 'deploy', '--endpoint-url', context.proxyUrl], { cwd: dir, env: childEnv(ENV), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', chunk => (stdout += chunk));
  child.stderr.on('data', chunk => (stderr += chunk));
  return new Promise(resolve => child.on('close', code => resolve({ code, stdout, stderr })));
}

concurrent('the deploy whose change set was overtaken says another operation changed the stack, and exits 1', async context => {
  const first = serviceCopy(context, 'first');
  const created = await runFw(['deploy', '--endpoint-url', context.cloud.url], first, ENV);
  assert.is(created.code, 0, created.stdout + created.stderr);
  const one = serviceCopy(context, 'one');
  const two = serviceCopy(context, 'two');
  const results = await Promise.all([deployInItsOwnProcess(context, one), deployInItsOwnProcess(context, two)]);
  assert.equal(results.map(result => result.code).sort(), [0, 1], results.map(result => result.stdout + result.stderr).join('\n---\n'));
  const loser = results.find(result => result.code === 1)!;
  const status = /\(stack status: ([A-Z_]+)\)/.exec(loser.stderr)?.[1];
  assert.ok(status && ['UPDATE_IN_PROGRESS', 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS', 'UPDATE_COMPLETE'].includes(status), loser.stderr);
  assert.is(
    loser.stderr,
    `Error: Another deploy or operation changed stack race-dev while this deploy was preparing (stack status: ${status}), so this deploy changed nothing. ` +
      'Run "fw deploy" again: it waits for an operation in progress.\n',
  );
  assert.is(context.actions.filter(action => action === 'CreateChangeSet').length, 2, 'each deploy made its change set');
});

concurrent.run();
