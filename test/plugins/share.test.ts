import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { childEnv } from '../helpers/env';

const FW = join(__dirname, '..', '..', '..', 'bin', 'fw.js');

/** `fw print --path service` in a new folder holding `files`. */
function printedService(files: Record<string, string>): { code: number | null; stdout: string; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), 'fw-share-'));
  try {
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
    const run = spawnSync(process.execPath, [FW, 'print', '--path', 'service'], { cwd: dir, encoding: 'utf8', env: childEnv() });
    return { code: run.status, stdout: run.stdout, stderr: run.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const share = suite('fw module names in service files');

share("require('fw-deploy') and the older require('fw') give the running fw's one module", () => {
  const result = printedService({
    'fw.js': [
      "const named = require('fw-deploy');",
      "const bare = require('fw');",
      "module.exports = { service: `same-${named === bare}-${typeof named.defineConfig}`, provider: { name: 'aws' } };",
      '',
    ].join('\n'),
  });
  assert.equal(result, { code: 0, stdout: 'same-true-function\n', stderr: '' });
});

share("a fw.ts with top-level await imports defineConfig from 'fw-deploy'", () => {
  const result = printedService({
    'fw.ts': [
      "import { defineConfig } from 'fw-deploy';",
      "const name: string = await Promise.resolve('awaited');",
      "export default defineConfig({ service: name, provider: { name: 'aws' } });",
      '',
    ].join('\n'),
  });
  assert.equal(result, { code: 0, stdout: 'awaited\n', stderr: '' });
});

share.run();
