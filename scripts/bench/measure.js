// Runs one command as a whole process and measures it: wall time (ms), CPU time
// (user + system of the process and the children it waited for, ms) and peak
// resident memory (MB). Uses GNU time when present, otherwise a --require hook
// that reports the Node process's own resource usage at exit.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');

const GNU_TIME = ['/usr/bin/time', '/bin/time'].find((file) => {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
});

const HOOK = `
const fs = require('fs');
process.on('exit', () => {
  const usage = process.resourceUsage();
  fs.writeFileSync(process.env.FW_BENCH_USAGE_FILE, JSON.stringify({ user: usage.userCPUTime, system: usage.systemCPUTime, maxRSS: usage.maxRSS }));
});
`;

/**
 * `exactCpu` reads the process's own resource usage (microseconds) instead of GNU time's (10 ms
 * steps); its --require hook changes NODE_OPTIONS, so fw then runs from a user code cache.
 * @returns {Promise<{ wallMs: number, cpuMs: number, rssMb: number, code: number, output: string }>}
 */
function measure(command, args, { cwd, env, exactCpu = false }) {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-measure-'));
  const usageFile = path.join(scratch, 'usage');
  let file = command;
  let argv = args;
  const childEnv = { ...process.env, ...env };
  const gnuTime = exactCpu ? undefined : GNU_TIME;
  if (gnuTime) {
    file = gnuTime;
    argv = ['-o', usageFile, '-f', '%e %U %S %M', command, ...args];
  } else {
    // One path for every run: NODE_OPTIONS is part of the key of fw's code cache.
    const hook = path.join(os.tmpdir(), 'fw-bench-usage-hook.js');
    if (!fs.existsSync(hook) || fs.readFileSync(hook, 'utf8') !== HOOK) fs.writeFileSync(hook, HOOK);
    childEnv.FW_BENCH_USAGE_FILE = usageFile;
    childEnv.NODE_OPTIONS = `${childEnv.NODE_OPTIONS ?? ''} --require ${hook}`.trim();
  }
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(file, argv, { cwd, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      let cpuMs = NaN;
      let rssMb = NaN;
      try {
        const text = fs.readFileSync(usageFile, 'utf8').trim();
        if (gnuTime) {
          const last = text.split('\n').pop().split(' ').map(Number);
          cpuMs = (last[1] + last[2]) * 1000;
          rssMb = last[3] / 1024;
        } else {
          const usage = JSON.parse(text);
          cpuMs = (usage.user + usage.system) / 1000;
          rssMb = usage.maxRSS / 1024;
        }
      } catch {
        // the process died before reporting; keep NaN
      }
      fs.rmSync(scratch, { recursive: true, force: true });
      resolve({ wallMs, cpuMs, rssMb, code: code ?? 1, output });
    });
  });
}

function median(values) {
  const sorted = values.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

module.exports = { measure, median, GNU_TIME };
