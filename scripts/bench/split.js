#!/usr/bin/env node
// Stack splitting (issue 10): times `fw package` of the 300-function service (split into
// nested stacks) against the 100-function one (one stack), as whole processes, median of
// N runs after one warm-up; the target is at most twice the time (gated on CPU time, wall
// time printed too). Then checks that every
// packaged template is under CloudFormation's limits. With --deploy it also deploys the
// 300-function service into a local cloud (port 0, temporary data folder), calls an
// endpoint, redeploys unchanged (skipped) and with one more function (nothing moves).
//
//   node scripts/bench/split.js [--runs 7] [--deploy] [--keep]
//
// Run `npm run build` first: fw runs from dist/.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { functionsService } = require('./generate');
const { measure, median } = require('./measure');

const REPO = path.resolve(__dirname, '..', '..');
const FW = path.join(REPO, 'bin', 'fw.js');
const TARGET_RATIO = 2;

function parseArgs(argv) {
  const options = { runs: 7, deploy: false, keep: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--runs') options.runs = Number(argv[++i]);
    else if (argv[i] === '--deploy') options.deploy = true;
    else if (argv[i] === '--keep') options.keep = true;
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  return options;
}

async function timePackage(dir, runs) {
  const env = { NO_COLOR: '1' };
  const warm = await measure(process.execPath, [FW, 'package'], { cwd: dir, env });
  if (warm.code !== 0) throw new Error(`fw package failed in ${dir}:\n${warm.output}`);
  const walls = [];
  const cpus = [];
  for (let i = 0; i < runs; i++) {
    const run = await measure(process.execPath, [FW, 'package'], { cwd: dir, env });
    walls.push(run.wallMs);
    cpus.push(run.cpuMs);
  }
  return { wall: median(walls), cpu: median(cpus) };
}

function checkLimits(dir) {
  const { limitsExceeded } = require(path.join(REPO, 'dist', 'src', 'synth', 'split'));
  const out = path.join(dir, '.serverless');
  const files = fs.readdirSync(out).filter(file => /^cloudformation-template-(update-stack|nested-.+)\.json$/.test(file));
  const rows = files.map(file => {
    const template = JSON.parse(fs.readFileSync(path.join(out, file), 'utf8'));
    return { file, resources: Object.keys(template.Resources).length, outputs: Object.keys(template.Outputs ?? {}).length, over: limitsExceeded(template) };
  });
  for (const row of rows) console.log(`  ${row.file}: ${row.resources} resources, ${row.outputs} outputs${row.over.length ? `  OVER: ${row.over.join(', ')}` : ''}`);
  return rows.every(row => row.over.length === 0) && rows.length > 1;
}

async function deploy(dir) {
  const { startLocalCloud } = require(path.join(REPO, 'dist', 'src', 'local'));
  const { runFw } = require(path.join(REPO, 'dist', 'test', 'helpers', 'cli'));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-split-data-'));
  const cloud = await startLocalCloud({ port: 0, dataDir, quiet: true });
  const env = { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', NO_COLOR: '1' };
  const fw = async (...args) => {
    const started = Date.now();
    const result = await runFw([...args, '--endpoint-url', cloud.url], dir, env);
    if (result.code !== 0) throw new Error(`fw ${args.join(' ')} failed:\n${result.stderr}`);
    return { ...result, ms: Date.now() - started };
  };
  let ok = true;
  try {
    const first = await fw('deploy');
    const url = /GET - (\S+)\/f299\n/.exec(first.stdout)?.[1];
    const answer = url ? await fetch(`${url}/f299`) : undefined;
    console.log(`  deploy: ${first.ms} ms; GET /f299 → ${answer?.status}`);
    ok = ok && answer?.status === 200;
    const again = await fw('deploy');
    console.log(`  unchanged redeploy: ${again.ms} ms (${/No changes to deploy/.test(again.stdout) ? 'skipped' : 'NOT skipped'})`);
    ok = ok && /No changes to deploy/.test(again.stdout);
    const before = JSON.parse(fs.readFileSync(path.join(dir, '.serverless', 'serverless-state.json'), 'utf8')).placement.resources;
    const file = path.join(dir, 'serverless.yml');
    fs.writeFileSync(file, `${fs.readFileSync(file, 'utf8')}  f300:\n    handler: src/f0.handler\n    events:\n      - httpApi: 'GET /f300'\n`);
    const grown = await fw('deploy');
    const after = JSON.parse(fs.readFileSync(path.join(dir, '.serverless', 'serverless-state.json'), 'utf8')).placement.resources;
    const moved = Object.keys(before).filter(id => !id.startsWith('ApiGatewayDeployment') && before[id] !== after[id]);
    console.log(`  deploy with one more function: ${grown.ms} ms, ${moved.length} resources moved${/moves from/.test(grown.stdout) ? ' (reported)' : ''}`);
    ok = ok && moved.length === 0;
  } finally {
    await cloud.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return ok;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-split-'));
  try {
    const small = functionsService(path.join(root, 'f100'), 100);
    // The baseline is one stack, as fw packaged it before stack splitting (100 such functions are over 500 resources).
    const smallFile = path.join(small, 'serverless.yml');
    fs.writeFileSync(smallFile, fs.readFileSync(smallFile, 'utf8').replace('  name: aws\n', '  name: aws\n  stackSplitting: off\n'));
    const large = functionsService(path.join(root, 'f300'), 300);
    const unsplit = await timePackage(small, options.runs);
    const split = await timePackage(large, options.runs);
    // CPU time is the gate: on a shared machine wall time mostly measures the other processes.
    const ratio = split.cpu / unsplit.cpu;
    console.log(
      `fw package, median of ${options.runs}: 100 functions (one stack) ${unsplit.wall.toFixed(0)} ms wall / ${unsplit.cpu.toFixed(0)} ms CPU, ` +
        `300 functions (nested stacks) ${split.wall.toFixed(0)} ms wall / ${split.cpu.toFixed(0)} ms CPU: ` +
        `${ratio.toFixed(2)}x CPU, ${(split.wall / unsplit.wall).toFixed(2)}x wall (target ≤ ${TARGET_RATIO}x)`,
    );
    console.log('300 functions, packaged templates:');
    let ok = checkLimits(large) && ratio <= TARGET_RATIO;
    if (options.deploy) {
      console.log('300 functions on the local cloud:');
      ok = (await deploy(large)) && ok;
    }
    console.log(ok ? 'OK' : 'FAILED');
    process.exitCode = ok ? 0 : 1;
  } finally {
    if (options.keep) console.log(`services kept in ${root}`);
    else fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch(error => {
  console.error(error);
  process.exit(1);
});
