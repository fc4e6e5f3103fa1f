import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createProgress, progressMode } from '../../src/terminal/progress';

const FW = resolve(__dirname, '../../../bin/fw.js');
const CLEAR = '\r\u001b[2K';

/** A stream that keeps what was written; `isTTY` as a terminal's stdout has it. */
function captured(tty: boolean): PassThrough & { text(): string } {
  const stream = new PassThrough() as PassThrough & { isTTY?: boolean; text(): string };
  let text = '';
  stream.on('data', chunk => (text += chunk));
  if (tty) stream.isTTY = true;
  stream.text = () => text;
  return stream;
}

const unit = suite('the progress line');

unit('is rewritten in place on a terminal, also with NO_COLOR; plain with CI=true, TERM=dumb or piped', () => {
  assert.is(progressMode(captured(true), {}), 'live');
  assert.is(progressMode(captured(true), { NO_COLOR: '1' }), 'live');
  assert.is(progressMode(captured(true), { CI: 'true' }), 'plain');
  assert.is(progressMode(captured(true), { TERM: 'dumb' }), 'plain');
  assert.is(progressMode(captured(false), { FORCE_COLOR: '1' }), 'plain');
});

unit('in a terminal: a spinner line redrawn in place, cleared for a lasting line and at the end', () => {
  const err = captured(true);
  const out = captured(false);
  let t = 0;
  const progress = createProgress(err, { env: { NO_COLOR: '1' }, lines: out, now: () => t });
  progress.update('Packaging: 1/3 files');
  t = 100;
  progress.update('Packaging: 2/3 files');
  progress.line('Uploaded 1 file');
  t = 200;
  progress.update('Updating stack (1/9 resources)');
  progress.done();
  assert.equal(err.text().split(CLEAR), ['', '⠙ Packaging: 1/3 files', '⠹ Packaging: 2/3 files', '', '⠸ Updating stack (1/9 resources)', '']);
  assert.is(out.text(), 'Uploaded 1 file\n');
});

unit('piped: a step shows after a second, then at most one line per interval, and its last state when it ends', () => {
  const err = captured(false);
  const out = captured(false);
  let t = 0;
  const progress = createProgress(err, { env: {}, lines: out, now: () => t, intervalMs: 3000 });
  for (const [at, line] of [[0, 'Uploading: 0.0 MB of 53.0 MB'], [500, 'Uploading: 10.0 MB of 53.0 MB'], [1200, 'Uploading: 20.0 MB of 53.0 MB'], [2000, 'Uploading: 30.0 MB of 53.0 MB'], [4300, 'Uploading: 40.0 MB of 53.0 MB'], [4400, 'Uploading: 53.0 MB of 53.0 MB']] as const) {
    t = at;
    progress.update(line);
  }
  t = 4500;
  progress.update('Updating stack (0/700 resources)');
  progress.update('Updating stack (1/700 resources)');
  progress.line('Service deployed');
  assert.is(err.text(), 'Uploading: 20.0 MB of 53.0 MB\nUploading: 40.0 MB of 53.0 MB\nUploading: 53.0 MB of 53.0 MB\n');
  assert.is(out.text(), 'Service deployed\n');
  assert.not.match(err.text(), '\u001b');
});

unit('a closed or failing stream (EPIPE) ends the progress quietly, without an uncaught error', async () => {
  const destroyed = captured(false);
  destroyed.destroy();
  createProgress(destroyed, { env: {}, intervalMs: 0 }).update('Packaging: 1/2 files');
  const failing = new Writable({ write: (_chunk, _encoding, callback) => callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })) });
  const progress = createProgress(failing, { env: {}, intervalMs: 0 });
  progress.update('Packaging: 1/2 files');
  progress.update('Packaging: 2/2 files');
  // The stream reports the failure on a later tick: with no listener it would end the process.
  await new Promise(resolve => setImmediate(resolve));
  progress.update('Packaging: 2/2 files, again');
  progress.done();
  assert.ok(failing.destroyed);
  assert.ok(failing.errored);
});

unit.run();

interface Service {
  dir: string;
}

const cli = suite<Service>('fw package, run from the built CLI');

cli.before(context => {
  context.dir = mkdtempSync(join(tmpdir(), 'fw-progress-'));
  const functions = Array.from({ length: 20 }, (_, i) => `  fn${i}:\n    handler: handler.main\n`).join('');
  writeFileSync(join(context.dir, 'fw.yml'), `service: many\nprovider:\n  name: aws\n  runtime: nodejs20.x\npackage:\n  individually: true\nfunctions:\n${functions}`);
  writeFileSync(join(context.dir, 'handler.js'), 'exports.main = async () => ({ statusCode: 200 });\n');
  writeFileSync(join(context.dir, 'package.json'), JSON.stringify({ name: 'many', dependencies: { lib: '1.0.0' } }));
  mkdirSync(join(context.dir, 'node_modules/lib'), { recursive: true });
  for (let i = 0; i < 300; i++) writeFileSync(join(context.dir, `node_modules/lib/f${i}.js`), `module.exports = ${i};\n`);
});

cli.after(context => rmSync(context.dir, { recursive: true, force: true }));

/** The environment of the test run without the settings the tests are about. */
function cleanEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const result: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const name of ['CI', 'FORCE_COLOR', 'NO_COLOR', 'FW_PROGRESS_INTERVAL_MS']) if (!(name in env)) delete result[name];
  return result;
}

const fw = (dir: string, args: string[], env: Record<string, string>) => spawnSync(process.execPath, [FW, ...args], { cwd: dir, encoding: 'utf8', env: cleanEnv(env) });

cli('piped: files and zips of all on stderr as plain lines, then one summary on stdout; NO_COLOR keeps the progress', context => {
  const envs: Array<Record<string, string>> = [{ FW_PROGRESS_INTERVAL_MS: '0' }, { FW_PROGRESS_INTERVAL_MS: '0', NO_COLOR: '1', CI: 'true' }];
  for (const env of envs) {
    const run = fw(context.dir, ['package'], env);
    assert.is(run.status, 0, run.stderr);
    const lines = run.stderr.trimEnd().split('\n');
    // 302 files in each of the 20 zips (handler, package.json, 300 in node_modules).
    assert.is(lines.at(-1), 'Packaging: 6,040/6,040 files, 20/20 zips');
    for (const line of lines) assert.ok(/^Packaging: [\d,]+\/6,040 files, \d+\/20 zips$/.test(line), line);
    assert.ok(lines.length > 20, `${lines.length} lines`);
    assert.match(run.stdout, /^✔ Packaged many for stage dev \(us-east-1\) in \d+ ms: 20 zips \([\d.]+ kB\), 2 templates and the state file in \.serverless\/\n$/);
  }
});

cli('--verbose lists every file written with its size', context => {
  const run = fw(context.dir, ['package', '--verbose'], {});
  assert.is(run.status, 0, run.stderr);
  const lines = run.stdout.trimEnd().split('\n');
  assert.equal(lines.slice(1, 4), ['  .serverless/cloudformation-template-update-stack.json', '  .serverless/cloudformation-template-create-stack.json', '  .serverless/serverless-state.json']);
  assert.equal(lines.slice(4).map(line => line.replace(/ \(.*\)$/, '')), Array.from({ length: 20 }, (_, i) => `  .serverless/fn${i}.zip`).sort());
});

cli('in a terminal (a pseudo-terminal from script(1)): the line is redrawn in place, even with NO_COLOR', context => {
  const probe = spawnSync('script', ['--version'], { encoding: 'utf8' });
  if (probe.status !== 0) throw new Error('script(1) (util-linux) is needed for this test');
  const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(FW)} package`;
  const run = spawnSync('script', ['-qec', command, '/dev/null'], { cwd: context.dir, encoding: 'utf8', env: cleanEnv({ NO_COLOR: '1', TERM: 'xterm' }) });
  assert.is(run.status, 0, run.stdout);
  assert.match(run.stdout, /\r\u001b\[2K[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Packaging: [\d,]+\/6,040 files/);
  assert.match(run.stdout, /\r\u001b\[2K✔ Packaged many/);
});

cli.run();
