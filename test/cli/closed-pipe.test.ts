import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { childEnv } from '../helpers/env';

const FW = join(__dirname, '..', '..', '..', 'bin', 'fw.js');

interface Context {
  dir: string;
  env: NodeJS.ProcessEnv;
}

const closedPipe = suite<Context>('fw whose reader closes the pipe (fw deploy --local | head -1)');

closedPipe.before((context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'fw-closed-pipe-'));
  context.env = childEnv({ FW_LOCAL_DATA: join(context.dir, 'cloud'), FW_LOCAL_PORT: '0', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' });
  writeFileSync(join(context.dir, 'fw.yml'), 'service: pipe\nprovider:\n  name: aws\n  runtime: nodejs20.x\nfunctions:\n  hello:\n    handler: handler.main\n');
  writeFileSync(join(context.dir, 'handler.js'), 'exports.main = async () => ({ statusCode: 200, body: "first" });\n');
});

closedPipe.after((context) => {
  rmSync(context.dir, { recursive: true, force: true });
});

/** Runs fw; with `firstLineOnly`, reads its first line of output and closes the pipe, as `| head -1` does. */
function fw(context: Context, args: string[], firstLineOnly = false): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [FW, ...args], { cwd: context.dir, env: context.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk;
    if (firstLineOnly && stdout.includes('\n')) child.stdout.destroy();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

closedPipe('the deploy finishes and saves its state, its output stops quietly, and the next --hotswap has its baseline', async (context) => {
  const first = await fw(context, ['deploy', '--local'], true);
  assert.is(first.stderr, '');
  assert.is(first.code, 0);
  writeFileSync(join(context.dir, 'handler.js'), 'exports.main = async () => ({ statusCode: 200, body: "second" });\n');
  const next = await fw(context, ['deploy', '--local', '--hotswap']);
  assert.is(next.code, 0, next.stderr);
  assert.not.match(next.stdout + next.stderr, /Hotswap not possible/);
  assert.match(next.stdout, /hotswapped/i);
});

closedPipe('fw schema | head -1 ends with exit code 0 and nothing on stderr', async (context) => {
  const schema = await fw(context, ['schema'], true);
  assert.is(schema.stderr, '');
  assert.is(schema.code, 0);
});

closedPipe.run();
