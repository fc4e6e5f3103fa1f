#!/usr/bin/env node
// Runs every uvu suite under dist/test (built by `npm run build`) and ends with
// the plain "N passed, N failed" line CI reads. Extra arguments narrow the run:
// `npm test -- synth` runs the files whose path matches /synth/.
'use strict';
const { spawnSync } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');

const root = path.join(__dirname, '..');
const withoutForceColor = env => Object.fromEntries(Object.entries(env).filter(([key]) => key !== 'FORCE_COLOR'));
const pattern = process.argv[2] ?? '.';
// fw run with other flags (`node -e …`) writes a code cache to $XDG_CACHE_HOME/fw: a temporary one, not the user's.
const cacheHome = mkdtempSync(path.join(tmpdir(), 'fw-test-cache-'));
const result = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules', 'uvu', 'bin.js'), path.join('dist', 'test'), `(?:${pattern}).*\\.test\\.js$`, '--ignore', 'fixtures'],
  { cwd: root, encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'inherit'], env: { ...withoutForceColor(process.env), XDG_CACHE_HOME: cacheHome } },
);
rmSync(cacheHome, { recursive: true, force: true });
process.stdout.write(result.stdout ?? '');
const total = Number(/Total:\s+(\d+)/.exec(result.stdout ?? '')?.[1] ?? 0);
const passed = Number(/Passed:\s+(\d+)/.exec(result.stdout ?? '')?.[1] ?? 0);
const skipped = Number(/Skipped:\s+(\d+)/.exec(result.stdout ?? '')?.[1] ?? 0);
const failed = total - passed - skipped;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
if (total === 0) {
  console.error('no test ran');
  process.exit(1);
}
process.exit(result.status === 0 && failed === 0 ? 0 : 1);
