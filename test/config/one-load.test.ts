import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childEnv } from '../helpers/env';

const fw = join(__dirname, '..', '..', '..', 'bin', 'fw.js');

// Counts, in the fw process, every time a file is opened for reading by its name: the service file's count is printed at exit.
const COUNT_READS = `
const fs = require('node:fs');
const watched = process.env.FW_TEST_WATCHED_FILE;
let reads = 0;
for (const name of ['readFileSync', 'openSync']) {
  const original = fs[name];
  fs[name] = function (path, ...rest) {
    if (String(path) === watched && (name === 'readFileSync' || !/[wa+]/.test(String(rest[0] ?? 'r')))) reads++;
    return original.call(this, path, ...rest);
  };
}
process.on('exit', () => process.stderr.write('SERVICE FILE READS ' + reads + '\\n'));
`;

const PLUGIN = `module.exports = class { constructor(serverless) { this.hooks = { 'before:package:initialize': () => {} }; } };\n`;

function servicefolder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'fw-one-load-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

function packageIn(dir: string, env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [fw, 'package'], { cwd: dir, encoding: 'utf8', env: childEnv({ XDG_CACHE_HOME: join(dir, '.cache'), ...env }) });
}

const once = suite('fw package reads the service file once');

once('a serverless.yml that lists a plugin is read once: the plugins, variables and validation share that read', () => {
  const dir = servicefolder({
    'serverless.yml': 'service: app\nplugins:\n  - ./plugins/noop\nprovider:\n  name: aws\n  runtime: nodejs20.x\n  stage: ${opt:stage, "dev"}\nfunctions:\n  hello:\n    handler: handler.hello\n',
    'plugins/noop.js': PLUGIN,
    'handler.js': 'exports.hello = async () => 1;\n',
    'count-reads.js': COUNT_READS,
  });
  try {
    const run = packageIn(dir, { NODE_OPTIONS: `--require ${join(dir, 'count-reads.js')}`, FW_TEST_WATCHED_FILE: join(dir, 'serverless.yml') });
    assert.is(run.status, 0, run.stderr);
    assert.match(run.stderr, /SERVICE FILE READS 1\n/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

once('an fw.js that lists a plugin runs once (its side effects happen once)', () => {
  const dir = servicefolder({
    'fw.js': `require('node:fs').appendFileSync(require('node:path').join(__dirname, 'loads.txt'), 'loaded\\n');\nmodule.exports = { service: 'app', plugins: ['./plugins/noop'], provider: { name: 'aws', runtime: 'nodejs20.x' }, functions: { hello: { handler: 'handler.hello' } } };\n`,
    'plugins/noop.js': PLUGIN,
    'handler.js': 'exports.hello = async () => 1;\n',
  });
  try {
    const run = packageIn(dir);
    assert.is(run.status, 0, run.stderr);
    assert.is(readFileSync(join(dir, 'loads.txt'), 'utf8'), 'loaded\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

once('what a plugin changes in the configuration it is handed does not leak into the file as written', () => {
  const dir = servicefolder({
    'serverless.yml': 'service: app\nplugins:\n  - ./plugins/renames\nprovider:\n  name: aws\n  runtime: nodejs20.x\nfunctions:\n  hello:\n    handler: handler.hello\n',
    // A v3 plugin writing into the configuration at construction: fw applies it again once variables are resolved, as before.
    'plugins/renames.js': `module.exports = class { constructor(serverless) { serverless.service.provider.memorySize = 256; } };\n`,
    'handler.js': 'exports.hello = async () => 1;\n',
  });
  try {
    const run = packageIn(dir);
    assert.is(run.status, 0, run.stderr);
    const template = JSON.parse(readFileSync(join(dir, '.serverless', 'cloudformation-template-update-stack.json'), 'utf8'));
    assert.is(template.Resources.HelloLambdaFunction.Properties.MemorySize, 256);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

once.run();
