#!/usr/bin/env node
// Times `fw package` of two builds of fw in one sitting, alternating run by run, so that a change
// in the machine's load falls on both alike: a copy of an older build against this checkout (or another copy).
//
//   cp -r bin dist package.json /tmp/fw-before && ln -s "$PWD/node_modules" /tmp/fw-before/node_modules
//   … change and build …
//   node scripts/bench/side-by-side.js /tmp/fw-before [/tmp/fw-after] [--runs 7] [--cases 1,20,100]
//
// Prints, per case, the median wall and CPU time of each build. CPU time is the process's own
// (process.resourceUsage() from a --require hook, so fw runs from a code cache in a temporary
// user cache folder that the untimed first round writes, for both builds alike).
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { functionsService } = require('./generate');
const { measure, median } = require('./measure');

const REPO = path.resolve(__dirname, '..', '..');

function parseArgs(argv) {
  const options = { before: undefined, after: REPO, runs: 7, cases: ['1', '20', '100'] };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--runs') options.runs = Math.max(1, Number(argv[++i]));
    else if (argv[i] === '--cases') options.cases = String(argv[++i]).split(',');
    else if (options.before === undefined && !argv[i].startsWith('-')) options.before = path.resolve(argv[i]);
    else if (options.after === REPO && !argv[i].startsWith('-')) options.after = path.resolve(argv[i]);
    else throw new Error(`Unknown option ${argv[i]}`);
  }
  if (options.before === undefined) throw new Error('Usage: side-by-side.js <folder of the build before (bin/, dist/)> [<the build after, default this checkout>] [--runs N] [--cases 1,20,100]');
  return options;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const builds = [
    { label: 'before', bin: path.join(options.before, 'bin', 'fw.js') },
    { label: 'after', bin: path.join(options.after, 'bin', 'fw.js') },
  ];
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-side-by-side-'));
  const env = { NO_COLOR: '1', XDG_CACHE_HOME: path.join(work, 'cache') };
  try {
    console.log(`fw package, ${options.runs} runs of each build alternating (Node ${process.version}, load average ${os.loadavg()[0].toFixed(1)})`);
    for (const functions of options.cases.map(Number)) {
      const dir = path.join(work, `fns-${functions}`);
      functionsService(dir, functions);
      const samples = builds.map(() => []);
      for (let run = -1; run < options.runs; run++) {
        for (const [index, build] of builds.entries()) {
          fs.rmSync(path.join(dir, '.serverless'), { recursive: true, force: true });
          const sample = await measure(process.execPath, [build.bin, 'package'], { cwd: dir, env, exactCpu: true });
          if (sample.code !== 0) throw new Error(`${build.label} failed (exit ${sample.code}):\n${sample.output.slice(-2000)}`);
          if (run >= 0) samples[index].push(sample); // the first round warms the disk cache
        }
      }
      const line = builds.map((build, index) => `${build.label} ${Math.round(median(samples[index].map((s) => s.wallMs)))} ms (cpu ${Math.round(median(samples[index].map((s) => s.cpuMs)))} ms)`);
      console.log(`${String(functions).padStart(3)} function${functions === 1 ? ' ' : 's'}: ${line.join(', ')}`);
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error.message);
  process.exitCode = 1;
});
