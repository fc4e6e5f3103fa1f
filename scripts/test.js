#!/usr/bin/env node
// Runs every uvu suite under dist/test (built by `npm run build`), each test file in a process of its
// own, several at a time, and ends with the plain "N passed, N failed" line CI reads.
//
//   npm test                  every file
//   npm test -- synth         the files whose path matches /synth/
//
// Environment:
//   FW_TEST_JOBS   files run at once (default: twice the available cores, at least 2): most test
//                  time is spent waiting on child processes, sockets and timers, not on the CPU.
//
// A line is printed as each file ends (in a terminal too: no cursor tricks), the output of each
// failing file in full at the end. How long each file took is kept in the temporary folder, so the
// next run starts the longest files first and the run ends when the slowest file does.
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.join(__dirname, '..');
const testRoot = path.join(root, 'dist', 'test');
const pattern = new RegExp(`(?:${process.argv[2] ?? '.'}).*\\.test\\.js$`);
const jobs = Math.max(1, Number(process.env.FW_TEST_JOBS) || Math.max(2, 2 * (os.availableParallelism?.() ?? os.cpus().length)));
const timingsFile = path.join(os.tmpdir(), 'fw-test-durations.json');
const uvuBin = path.join(root, 'node_modules', 'uvu', 'bin.js');

/**
 * Every test file under dist/test, relative to it, fixtures excepted, and only those whose source
 * test/….test.ts still exists: tsc leaves the output of a moved or deleted test behind, which would
 * run against stale modules in dist/src and pass without testing anything current.
 */
function testFiles(dir = testRoot, prefix = '') {
  const files = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (entry.name !== 'fixtures') files.push(...testFiles(path.join(dir, entry.name), relative));
    } else if (pattern.test(relative) && fs.existsSync(path.join(root, 'test', relative.replace(/\.js$/, '.ts')))) {
      files.push(relative);
    }
  }
  return files;
}

function readTimings() {
  try {
    return JSON.parse(fs.readFileSync(timingsFile, 'utf8'));
  } catch {
    return {};
  }
}

const escapeRegExp = text => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const withoutForceColor = env => Object.fromEntries(Object.entries(env).filter(([key]) => key !== 'FORCE_COLOR'));
const seconds = ms => `${(ms / 1000).toFixed(1)} s`;

/** Runs one file with uvu in a child process; resolves with its counts and output. */
function runFile(file, cacheHome) {
  const started = Date.now();
  return new Promise(resolve => {
    const child = spawn(process.execPath, [uvuBin, path.join('dist', 'test'), `^${escapeRegExp(file)}$`, '--ignore', 'fixtures', '--no-color'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...withoutForceColor(process.env), XDG_CACHE_HOME: cacheHome },
    });
    let output = '';
    child.stdout.on('data', chunk => (output += chunk));
    child.stderr.on('data', chunk => (output += chunk));
    child.on('close', (code, signal) => {
      const count = label => Number(new RegExp(`${label}:\\s+(\\d+)`).exec(output)?.[1] ?? 0);
      const total = count('Total');
      const passed = count('Passed');
      const skipped = count('Skipped');
      // A file that exits non-zero without reporting a failed test (a crash at import, an
      // unhandled rejection after its suites) counts as one failure, so it cannot pass unseen.
      const failed = total - passed - skipped || (code === 0 && total > 0 ? 0 : 1);
      resolve({ file, code, signal, total, passed, skipped, failed, output, ms: Date.now() - started });
    });
  });
}

async function main() {
  const timings = readTimings();
  // Longest first (files not timed yet count as long), so the run does not end waiting on one file.
  const files = testFiles().sort((a, b) => (timings[b] ?? Infinity) - (timings[a] ?? Infinity) || a.localeCompare(b));
  if (files.length === 0) {
    console.log('0 passed, 0 failed');
    console.error('no test ran');
    process.exit(1);
  }
  // fw run with other flags (`node -e …`) writes a code cache to $XDG_CACHE_HOME/fw: a temporary one, not the user's.
  const cacheHome = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-test-cache-'));
  const started = Date.now();
  console.log(`${files.length} test files, ${Math.min(jobs, files.length)} at a time`);
  const results = [];
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const result = await runFile(files[next++], cacheHome);
      results.push(result);
      timings[result.file] = result.ms;
      const mark = result.failed ? 'FAIL' : 'ok  ';
      const counts = `${result.passed} passed${result.failed ? `, ${result.failed} failed` : ''}${result.skipped ? `, ${result.skipped} skipped` : ''}`;
      console.log(`${mark} [${results.length}/${files.length}] ${result.file} (${counts}, ${seconds(result.ms)})`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, files.length) }, worker));
  fs.rmSync(cacheHome, { recursive: true, force: true });
  try {
    fs.writeFileSync(timingsFile, JSON.stringify(timings));
  } catch {
    // the durations only order the next run
  }

  const failures = results.filter(result => result.failed);
  for (const failure of failures) {
    console.log(`\n──── ${failure.file} (exit ${failure.signal ?? failure.code}) ────\n${failure.output.trim()}`);
  }
  const sum = key => results.reduce((total, result) => total + result[key], 0);
  const slowest = [...results].sort((a, b) => b.ms - a.ms).slice(0, 5);
  console.log(`\nslowest: ${slowest.map(result => `${result.file} ${seconds(result.ms)}`).join(', ')}`);
  console.log(`${files.length} files in ${seconds(Date.now() - started)}${failures.length ? `; failed: ${failures.map(f => f.file).join(', ')}` : ''}`);
  const skipped = sum('skipped');
  console.log(`${sum('passed')} passed, ${sum('failed')} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(failures.length || sum('total') === 0 ? 1 : 0);
}

main();
