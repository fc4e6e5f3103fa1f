import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { Cli } from 'clipanion';
import { LocalResetCommand, LocalStartCommand, localDataDir } from '../../src/cli/local';

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
  const response = await fetch(`${url}/`);
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
