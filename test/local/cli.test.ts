import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { Cli } from 'clipanion';
import { LocalResetCommand, LocalStartCommand } from '../../src/cli/local';
import { localDataDir } from '../../src/local/state/data-dir';
import { signatureShaped } from './helpers';

function run(args: string[]): { done: Promise<number>; output: () => string } {
  const cli = new Cli({ binaryName: 'fw' });
  cli.register(LocalStartCommand);
  cli.register(LocalResetCommand);
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let text = '';
  stdout.on('data', (chunk) => (text += chunk));
  stderr.on('data', (chunk) => (text += chunk));
  const done = cli.run(args, { stdin: process.stdin, stdout, stderr, env: process.env, colorDepth: 1 });
  return { done, output: () => text };
}

const commands = suite<{ dir: string }>('fw local commands');

commands.before((context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'fw-local-cli-'));
});
commands.after((context) => {
  rmSync(context.dir, { recursive: true, force: true });
});

commands('the data folder is --data, else $FW_LOCAL_DATA, else ~/.fw/local', () => {
  assert.is(localDataDir('rel/dir', {}), resolve('rel/dir'));
  assert.is(localDataDir(undefined, { FW_LOCAL_DATA: '/srv/cloud' }), '/srv/cloud');
  assert.is(localDataDir(undefined, {}), join(homedir(), '.fw', 'local'));
});

commands('local start serves until interrupted and prints how to use it', async ({ dir }) => {
  const started = run(['local', 'start', '--port', '0', '--data', join(dir, 'state')]);
  let url: string | undefined;
  for (let i = 0; i < 200 && !url; i++) {
    url = /listening on (http:\/\/\S+)/.exec(started.output())?.[1];
    if (!url) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.ok(url, started.output());
  const response = await fetch(`${url}/`, { headers: signatureShaped() });
  assert.is(response.status, 200);
  assert.match(started.output(), /aws --endpoint-url http:\/\/127\.0\.0\.1:\d+ cloudformation describe-stacks/);
  process.emit('SIGINT');
  assert.is(await started.done, 130);
});

commands('local start stopped by SIGTERM exits 143', async ({ dir }) => {
  const started = run(['local', 'start', '--port', '0', '--data', join(dir, 'state-term')]);
  for (let i = 0; i < 200 && !/listening on/.test(started.output()); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  process.emit('SIGTERM');
  assert.is(await started.done, 143);
  assert.match(started.output(), /Stopping the local cloud…\n$/);
});

commands('local start on every interface warns that it is reachable from the network and prints the real address', async ({ dir }) => {
  const started = run(['local', 'start', '--port', '0', '--host', '0.0.0.0', '--data', join(dir, 'exposed')]);
  let port: string | undefined;
  for (let i = 0; i < 200 && !port; i++) {
    port = /listening on http:\/\/0\.0\.0\.0:(\d+) /.exec(started.output())?.[1];
    if (!port) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.ok(port, started.output());
  const lines = started.output().split('\n');
  assert.is(lines[0], `Local cloud listening on http://0.0.0.0:${port} (state in ${join(dir, 'exposed')})`);
  assert.ok(
    lines.includes(
      'Warning: the local cloud is reachable from the network (--host 0.0.0.0): whoever reaches it can deploy stacks and run code as this user on this machine. ' +
        'Any signature is accepted: add --require-credentials, or listen on 127.0.0.1.',
    ),
    started.output(),
  );
  assert.not.match(lines[0], '127.0.0.1');
  process.emit('SIGINT');
  assert.is(await started.done, 130);
});

commands('local start refuses a bad origin or credentials in one line, the secret hidden', async ({ dir }) => {
  const origin = run(['local', 'start', '--port', '0', '--data', join(dir, 'state'), '--allow-origin', 'http://localhost:3000/app']);
  assert.is(await origin.done, 1);
  assert.match(origin.output(), 'Invalid --allow-origin: expected an origin such as http://localhost:3000 (scheme, host and port, no path) or *, got "http://localhost:3000/app"');
  const keys = run(['local', 'start', '--port', '0', '--data', join(dir, 'state'), '--require-credentials', 'AKID:']);
  assert.is(await keys.done, 1);
  assert.match(keys.output(), 'Invalid --require-credentials: expected ACCESS_KEY_ID:SECRET (the key of letters, digits, "_", "." or "-"), got "AKID:****"');
  const secretOnly = run(['local', 'start', '--port', '0', '--data', join(dir, 'state'), '--require-credentials', 'no-colon-secret']);
  assert.is(await secretOnly.done, 1);
  assert.match(secretOnly.output(), 'got "****"');
  assert.not.match(secretOnly.output(), 'no-colon-secret');
});

commands('local start refuses a bad port', async ({ dir }) => {
  const started = run(['local', 'start', '--port', 'abc', '--data', join(dir, 'state')]);
  assert.is(await started.done, 1);
  assert.match(started.output(), /Invalid --port: expected a number from 0 to 65535, got "abc"/);
});

commands('local reset wipes the data folder', async ({ dir }) => {
  const data = join(dir, 'wipe');
  mkdirSync(join(data, 'state'), { recursive: true });
  writeFileSync(join(data, 'state', 's3.json'), '{}');
  const reset = run(['local', 'reset', '--data', data]);
  assert.is(await reset.done, 0);
  assert.not.ok(existsSync(data));
  assert.match(reset.output(), /Removed the local cloud state in/);
});

commands.run();
