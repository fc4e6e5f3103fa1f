import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { Cli } from 'clipanion';
import { LocalResetCommand, LocalStartCommand } from '../../src/cli/local';
import { localDataDir } from '../../src/local/state/data-dir';
import { startLocalCloud } from '../../src/local/index';
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
  // clipanion colours "Error:" when the test runner forces colours: the words are what is asserted.
  return { done, output: () => text.replace(/\u001b\[\d+m/g, '') };
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

commands('local reset refuses a folder the local cloud did not make, and leaves every file in it', async ({ dir }) => {
  const thesis = join(dir, 'thesis');
  mkdirSync(join(thesis, 'state'), { recursive: true });
  writeFileSync(join(thesis, 'chapter1.tex'), 'my work');
  writeFileSync(join(thesis, 'state', 'notes.txt'), 'mine too');
  const reset = run(['local', 'reset', '--data', thesis]);
  assert.is(await reset.done, 1);
  assert.is(reset.output(), `Error: Refusing to reset ${thesis}: it holds no .fw-local-cloud marker, so the local cloud did not make it\n`);
  assert.equal(readdirSync(thesis).sort(), ['chapter1.tex', 'state']);
  assert.is(readFileSync(join(thesis, 'state', 'notes.txt'), 'utf8'), 'mine too');
});

commands('local reset removes only what the local cloud made, lists it, and keeps files that were there before', async ({ dir }) => {
  const shared = join(dir, 'shared');
  mkdirSync(shared);
  writeFileSync(join(shared, 'README.txt'), 'mine');
  const cloud = await startLocalCloud({ port: 0, dataDir: shared, quiet: true });
  const s3 = new S3Client({ region: 'us-east-1', endpoint: cloud.url, forcePathStyle: true, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  await s3.send(new CreateBucketCommand({ Bucket: 'photos' }));
  await s3.send(new PutObjectCommand({ Bucket: 'photos', Key: 'a.txt', Body: 'x' }));
  await cloud.stop();
  const reset = run(['local', 'reset', '--data', shared]);
  assert.is(await reset.done, 0, reset.output());
  const removed = reset.output().split('\n').slice(1, -1).map((line) => line.trim());
  assert.is(reset.output().split('\n')[0], `Removed the local cloud state in ${shared}:`);
  assert.ok(removed.includes('state') && removed.includes('blobs') && removed.includes('.fw-local-cloud'), reset.output());
  assert.equal(readdirSync(shared), ['README.txt']);
});

commands('local reset removes a folder the local cloud created, and nothing is left', async ({ dir }) => {
  const data = join(dir, 'made-by-cloud');
  const cloud = await startLocalCloud({ port: 0, dataDir: data, quiet: true });
  await cloud.stop();
  const reset = run(['local', 'reset', '--data', data]);
  assert.is(await reset.done, 0, reset.output());
  assert.match(reset.output(), /and the folder itself, which the local cloud had made\n$/);
  assert.not.ok(existsSync(data));
  const again = run(['local', 'reset', '--data', data]);
  assert.is(await again.done, 0);
  assert.is(again.output(), `Nothing to remove: ${data} holds no local cloud state\n`);
});

commands('local reset refuses the folder of a running local cloud, whose state and endpoint.json stay', async ({ dir }) => {
  const data = join(dir, 'running');
  const started = run(['local', 'start', '--port', '0', '--data', data]);
  let url: string | undefined;
  for (let i = 0; i < 200 && !url; i++) {
    url = /listening on (http:\/\/\S+)/.exec(started.output())?.[1];
    if (!url) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.ok(url, started.output());
  const before = readdirSync(data).sort();
  const reset = run(['local', 'reset', '--data', data]);
  assert.is(await reset.done, 1);
  assert.is(reset.output(), `Error: Refusing to reset ${data}: the local cloud at ${url} (process ${process.pid}) uses it: stop it first (Ctrl+C in its terminal)\n`);
  assert.equal(readdirSync(data).sort(), before);
  assert.ok(before.includes('endpoint.json'));
  assert.is((await fetch(`${url}/`, { headers: signatureShaped() })).status, 200);
  process.emit('SIGINT');
  assert.is(await started.done, 130);
});

commands('local reset refuses a folder a command-run local cloud (deploy --local) is using', async ({ dir }) => {
  const data = join(dir, 'in-process');
  const cloud = await startLocalCloud({ port: 0, dataDir: data, quiet: true });
  const reset = run(['local', 'reset', '--data', data]);
  assert.is(await reset.done, 1);
  assert.is(reset.output(), `Error: Refusing to reset ${data}: a local cloud in process ${process.pid} uses it: let that command finish first\n`);
  await cloud.stop();
  const after = run(['local', 'reset', '--data', data]);
  assert.is(await after.done, 0, after.output());
  assert.not.ok(existsSync(data));
});

commands.run();
