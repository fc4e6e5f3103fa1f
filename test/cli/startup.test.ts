import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { childEnv } from '../helpers/env';

const FW = join(__dirname, '..', '..', '..', 'bin', 'fw.js');
const env = childEnv();

/** Runs fw with a hook that lists every AWS SDK module the process loads. */
function sdkModulesLoadedBy(args: string[], cwd: string): { code: number | null; modules: string[]; stdout: string } {
  const probe = `
    const Module = require('module');
    const load = Module._load;
    const seen = new Set();
    Module._load = function (request, ...rest) { if (/^@aws-sdk\\//.test(request)) seen.add(request); return load.call(this, request, ...rest); };
    process.on('exit', () => process.stderr.write('SDK:' + JSON.stringify([...seen]) + '\\n'));
    require(${JSON.stringify(FW)});
  `;
  const run = spawnSync(process.execPath, ['-e', probe, 'fw', ...args], { cwd, encoding: 'utf8', env });
  const modules = JSON.parse(/SDK:(.*)/.exec(run.stderr)?.[1] ?? '[]') as string[];
  return { code: run.status, modules, stdout: run.stdout };
}

const startup = suite('fw startup');

startup('package, --help and --version load no AWS SDK module', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'fw-startup-'));
  writeFileSync(join(cwd, 'fw.yml'), 'service: app\nprovider:\n  name: aws\nfunctions:\n  hello:\n    handler: handler.hello\n    events:\n      - httpApi: GET /\n');
  writeFileSync(join(cwd, 'handler.js'), 'exports.hello = async () => ({})\n');
  try {
    for (const args of [['package'], ['--help'], ['--version']]) {
      const result = sdkModulesLoadedBy(args, cwd);
      assert.is(result.code, 0, `fw ${args.join(' ')} failed`);
      if (args[0] === 'package') assert.match(result.stdout, 'Packaged app for stage dev');
      assert.equal(result.modules, [], `fw ${args.join(' ')} loaded ${result.modules.join(', ')}`);
    }
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});

startup('--version prints the package version', () => {
  const run = spawnSync(process.execPath, [FW, '--version'], { encoding: 'utf8', env });
  assert.is(run.stdout, `${require('../../../package.json').version}\n`);
});

startup('output has no colour codes when NO_COLOR is set or stdout is not a terminal', () => {
  const run = spawnSync(process.execPath, [FW, '--help'], { encoding: 'utf8', env });
  assert.not.match(run.stdout, /\u001b\[/);
});

startup.run();
