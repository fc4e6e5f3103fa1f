#!/usr/bin/env node
// `npm run bench`: times `fw package` against the reference (`serverless package`,
// Serverless Framework v3) on generated services, as whole processes.
//
//   npm run bench                      all cases, 7 runs each (median reported)
//   npm run bench -- --quick           3 runs each
//   npm run bench -- --runs 11 --cases 100,modules
//   npm run bench -- --no-reference    fw only
//   npm run bench -- --keep            keep the generated services (path printed)
//
// Cases: services with 1, 20, 100 and 300 functions, and "modules": one function
// with a node_modules of more than 5,000 files (a third of the packages are
// development dependencies); "mixed": 100 functions cycling through every event
// type (target: at most twice the HTTP-only 100); "deploy": a 60-function service
// (about 400 resources) deployed into the local cloud (targets: first deploy under
// 10 s, unchanged redeploy under 1 s); "dev": a one-line change to one function of a 20-function
// service with a 5,000-file node_modules, from save to the function answering it, through
// `fw deploy`, `fw deploy --hotswap` and `fw dev` against the local cloud, with the AWS requests
// each makes (targets: under 1 s, at most 4 sequential round trips for hotswap; see bench/dev.js); "compose": a 10-service application deployed with fw deploy in
// its compose folder vs the services one after another, against fw local start --provisioning-delay
// 0.05 (target: at least 3x faster); "dynamodb": PutItem and GetItem through a lean client and the
// AWS SDK against `fw local start` and moto (`python3 -m moto.server`, when installed), 10,000 items
// from 1 and 16 clients (targets: 5x moto's throughput, p50 under 2 ms; FW_BENCH_DYNAMODB_* vars:
// see bench/dynamodb.js); "lambda-http": a trivial function behind an HTTP API in `fw local start` and a
// do-nothing Node.js server, 1, 10 and 100 clients (autocannon), then the memory once idle
// environments are retired (targets: 5,000 req/s at 10 clients, p99 under 20 ms, no errors, under
// 200 MB; FW_BENCH_HTTP_* vars: see bench/lambda-http.js). Each run packages the service from scratch; one
// untimed warm-up run per tool and case comes first.
//
// The reference is never a dependency of fw. Install it once in a cache folder
// outside the repository:
//   mkdir -p ~/.cache/fw-reference && cd ~/.cache/fw-reference && npm init -y && npm install serverless@3.40.0
// It is looked up in $FW_REFERENCE_DIR, then /work/ref, then ~/.cache/fw-reference
// (a folder whose node_modules/serverless is installed). Without it only fw is timed.
//
// Run `npm run build` first: fw runs from dist/.
'use strict';

const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { functionsService, nodeModulesService, mixedService, countFiles } = require('./bench/generate');
const { measure, median, GNU_TIME } = require('./bench/measure');

const REPO = path.resolve(__dirname, '..');
const FW = path.join(REPO, 'bin', 'fw.js');

// Targets from issue 5 (medians on the 2-core reference machine).
const TARGETS = { 100: 15, modules: 5 };
const MEMORY_TARGET = 1 / 3;

function parseArgs(argv) {
  const options = { runs: 7, cases: ['1', '20', '100', '300', 'modules', 'mixed', 'deploy', 'dev', 'compose', 'dynamodb', 'lambda-http'], reference: true, keep: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') options.runs = 3;
    else if (arg === '--runs') options.runs = Math.max(1, Number(argv[++i]));
    else if (arg === '--cases') options.cases = String(argv[++i]).split(',');
    else if (arg === '--no-reference') options.reference = false;
    else if (arg === '--keep') options.keep = true;
    else if (arg === '--help' || arg === '-h') {
      process.stdout.write(fs.readFileSync(__filename, 'utf8').split('\n').slice(1, 31).map((line) => line.replace(/^\/\/ ?/, '')).join('\n') + '\n');
      process.exit(0);
    } else {
      console.error(`Unknown option ${arg} (see --help)`);
      process.exit(2);
    }
  }
  return options;
}

function findReference() {
  const candidates = [process.env.FW_REFERENCE_DIR, '/work/ref', path.join(os.homedir(), '.cache', 'fw-reference')].filter(Boolean);
  for (const dir of candidates) {
    const bin = path.join(dir, 'node_modules', 'serverless', 'bin', 'serverless.js');
    if (fs.existsSync(bin)) {
      const { version } = JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', 'serverless', 'package.json'), 'utf8'));
      return { bin, version };
    }
  }
  return undefined;
}

const REFERENCE_ENV = {
  AWS_ACCESS_KEY_ID: 'AKIAFAKEBENCH',
  AWS_SECRET_ACCESS_KEY: 'fake',
  AWS_REGION: 'us-east-1',
  SLS_TELEMETRY_DISABLED: '1',
  SLS_TRACKING_DISABLED: '1',
  SLS_NOTIFICATIONS_MODE: 'off',
  SLS_DEPRECATION_DISABLE: '*',
  SLS_INTERACTIVE_SETUP_DISABLE: '1',
  CI: '1',
};

/** sha256 of every zip the run left in .serverless/, to check that runs give identical bytes. */
function zipHashes(cwd) {
  const dir = path.join(cwd, '.serverless');
  if (!fs.existsSync(dir)) return '';
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.zip'))
    .sort()
    .map((name) => `${name}:${crypto.createHash('sha256').update(fs.readFileSync(path.join(dir, name))).digest('hex')}`)
    .join(',');
}

async function timeTool(label, command, args, cwd, env, runs) {
  const clean = () => fs.rmSync(path.join(cwd, '.serverless'), { recursive: true, force: true });
  clean();
  const warm = await measure(command, args, { cwd, env });
  if (warm.code !== 0) {
    throw new Error(`${label} failed in ${cwd} (exit ${warm.code}):\n${warm.output.slice(-2000)}`);
  }
  const samples = [];
  const hashes = new Set([zipHashes(cwd)]);
  for (let i = 0; i < runs; i++) {
    clean();
    const sample = await measure(command, args, { cwd, env });
    if (sample.code !== 0) throw new Error(`${label} failed in ${cwd} (exit ${sample.code}):\n${sample.output.slice(-2000)}`);
    samples.push(sample);
    hashes.add(zipHashes(cwd));
  }
  return {
    identical: hashes.size === 1,
    wallMs: median(samples.map((sample) => sample.wallMs)),
    cpuMs: median(samples.map((sample) => sample.cpuMs)),
    rssMb: median(samples.map((sample) => sample.rssMb)),
  };
}

const fmtMs = (ms) => (Number.isNaN(ms) ? '-' : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);
const fmtMb = (mb) => (Number.isNaN(mb) ? '-' : `${Math.round(mb)} MB`);
const fmtRatio = (ratio) => (Number.isFinite(ratio) ? `${ratio.toFixed(1)}x` : '-');

function table(rows) {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => String(row[column]).length)));
  return rows.map((row) => row.map((cell, column) => (column === 0 ? String(cell).padEnd(widths[column]) : String(cell).padStart(widths[column]))).join('  ')).join('\n');
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (!['fw.js', 'src/cli/main.js'].some((file) => fs.existsSync(path.join(REPO, 'dist', file)))) {
    console.error('dist/ is missing: run `npm run build` first.');
    process.exit(1);
  }
  const reference = options.reference ? findReference() : undefined;
  if (options.reference && !reference) {
    console.log('Reference not found (set FW_REFERENCE_DIR, or install it once:');
    console.log('  mkdir -p ~/.cache/fw-reference && cd ~/.cache/fw-reference && npm init -y && npm install serverless@3.40.0)');
    console.log('Timing fw only.\n');
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-'));
  const results = [];
  try {
    for (const name of options.cases) {
      const dir = path.join(root, name);
      if (['deploy', 'dev', 'compose', 'dynamodb', 'lambda-http'].includes(name)) continue; // timed below, against the local cloud
      if (name === 'modules') nodeModulesService(dir);
      else if (name === 'mixed') mixedService(dir, 100);
      else if (/^\d+$/.test(name)) functionsService(dir, Number(name));
      else throw new Error(`Unknown case ${name}: use 1, 20, 100, 300 (any number) or modules`);
      const label =
        name === 'modules'
          ? `node_modules (${countFiles(path.join(dir, 'node_modules'))} files)`
          : name === 'mixed'
            ? '100 functions, every event type'
            : `${name} function${name === '1' ? '' : 's'}`;
      process.stderr.write(`${label}: fw…`);
      const fw = await timeTool('fw package', process.execPath, [FW, 'package'], dir, {}, options.runs);
      let ref;
      if (reference) {
        process.stderr.write(' reference…');
        ref = await timeTool('serverless package', process.execPath, [reference.bin, 'package'], dir, REFERENCE_ENV, options.runs);
      }
      process.stderr.write(' done\n');
      results.push({ name, label, fw, ref });
    }
  } finally {
    if (options.keep) console.log(`Services kept in ${root}`);
    else fs.rmSync(root, { recursive: true, force: true });
  }

  const rows = [['service', 'fw wall', 'fw cpu', 'fw peak', 'same zip', ...(reference ? ['ref wall', 'ref cpu', 'ref peak', 'speed-up', 'cpu ratio', 'memory'] : [])]];
  const verdicts = [];
  for (const { name, label, fw, ref } of results) {
    const row = [label, fmtMs(fw.wallMs), fmtMs(fw.cpuMs), fmtMb(fw.rssMb), fw.identical ? 'yes' : 'NO'];
    if (!fw.identical) verdicts.push(`FAIL  ${label}: fw wrote different zip bytes from one run to the next`);
    if (ref) {
      const speedUp = ref.wallMs / fw.wallMs;
      const memory = fw.rssMb / ref.rssMb;
      row.push(fmtMs(ref.wallMs), fmtMs(ref.cpuMs), fmtMb(ref.rssMb), fmtRatio(speedUp), fmtRatio(ref.cpuMs / fw.cpuMs), Number.isFinite(memory) ? `${Math.round(memory * 100)}%` : '-');
      if (TARGETS[name]) verdicts.push(`${speedUp >= TARGETS[name] ? 'PASS' : 'FAIL'}  ${label}: ${fmtRatio(speedUp)} faster (target ${TARGETS[name]}x)`);
      if (Number.isFinite(memory)) verdicts.push(`${memory <= MEMORY_TARGET ? 'PASS' : 'FAIL'}  ${label}: peak memory ${Math.round(memory * 100)}% of the reference (target at most 33%)`);
    }
    rows.push(row);
  }
  // Every event type costs at most twice what HTTP-only events do, for the same number of functions.
  const mixed = results.find((result) => result.name === 'mixed');
  const http100 = results.find((result) => result.name === '100');
  if (mixed && http100) {
    const ratio = mixed.fw.wallMs / http100.fw.wallMs;
    verdicts.push(`${ratio <= 2 ? 'PASS' : 'FAIL'}  every event type: ${fmtRatio(ratio)} the time of the HTTP-only 100-function service (target at most 2x)`);
  }
  if (options.cases.includes('deploy')) {
    process.stderr.write('deploy to the local cloud…');
    const { deployBench } = require('./bench/deploy');
    const deploy = await deployBench(root);
    process.stderr.write(' done\n');
    verdicts.push(`${deploy.firstMs < 10000 ? 'PASS' : 'FAIL'}  first deploy of ${deploy.functions} functions (${deploy.resources} resources) to the local cloud: ${fmtMs(deploy.firstMs)} (target under 10 s)`);
    verdicts.push(`${deploy.unchangedMs < 1000 ? 'PASS' : 'FAIL'}  unchanged redeploy: ${fmtMs(deploy.unchangedMs)}, median of ${deploy.runs} (target under 1 s)`);
  }
  if (options.cases.includes('dev')) {
    process.stderr.write('save-to-answer in the local cloud…');
    const { devBench } = require('./bench/dev');
    const devRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-dev-'));
    let dev;
    try {
      dev = await devBench(devRoot, options.runs);
    } finally {
      fs.rmSync(devRoot, { recursive: true, force: true });
    }
    process.stderr.write(' done\n');
    for (const [mode, label] of [['full', 'fw deploy'], ['hotswap', 'fw deploy --hotswap'], ['dev', 'fw dev']]) {
      const r = dev[mode];
      const verdict = mode === 'full' ? 'INFO' : r.ms < 1000 ? 'PASS' : 'FAIL';
      verdicts.push(`${verdict}  save-to-answer, ${label}: ${fmtMs(r.ms)}; ${r.requests} AWS requests, ${r.sequential} sequential (median of ${dev.runs}, ${dev.functions} functions${mode === 'full' ? '' : '; target under 1 s'})`);
    }
    verdicts.push(`${dev.dev.sequential <= 4 ? 'PASS' : 'FAIL'}  sequential round trips of a code-only hotswap in fw dev: ${dev.dev.sequential} (target at most 4): ${dev.dev.chain.join(' → ')}`);
    verdicts.push(`INFO  sequential round trips of fw deploy --hotswap (a new process): ${dev.hotswap.chain.join(' → ')}`);
    verdicts.push(`INFO  where a fw dev round goes (FW_DEV_TIMINGS, medians): ${Object.entries(dev.dev.phases).map(([phase, ms]) => `${phase} ${ms} ms`).join(', ')}`);
  }
  if (options.cases.includes('compose')) {
    process.stderr.write('compose application to the local cloud…');
    const { composeBench } = require('./bench/compose');
    const compose = await composeBench(root);
    process.stderr.write(' done\n');
    const speedUp = compose.oneByOneMs / compose.composeMs;
    verdicts.push(
      `${speedUp >= 3 ? 'PASS' : 'FAIL'}  ${compose.services} services (${compose.functions} functions, ${compose.resources} resources each), provisioning delay ${compose.delay}: ` +
        `fw deploy --max-concurrency ${compose.services} of the application ${fmtMs(compose.composeMs)} vs one after another ${fmtMs(compose.oneByOneMs)}, ${fmtRatio(speedUp)} faster, medians of ${compose.runs} (target 3x)`,
    );
    verdicts.push(`INFO  the same with fw deploy's default --max-concurrency (4): ${fmtMs(compose.composeDefaultMs)}, ${fmtRatio(compose.oneByOneMs / compose.composeDefaultMs)} faster`);
  }
  let dynamodb;
  if (options.cases.includes('dynamodb')) {
    process.stderr.write('DynamoDB in the local cloud and moto…');
    const { dynamodbBench, dynamodbReport } = require('./bench/dynamodb');
    dynamodb = dynamodbReport(await dynamodbBench());
    process.stderr.write(' done\n');
    verdicts.push(...dynamodb.verdicts);
  }
  let lambdaHttp;
  if (options.cases.includes('lambda-http')) {
    process.stderr.write('HTTP API → function in the local cloud and a do-nothing server…');
    const { lambdaHttpBench, lambdaHttpReport } = require('./bench/lambda-http');
    lambdaHttp = lambdaHttpReport(await lambdaHttpBench());
    process.stderr.write(' done\n');
    verdicts.push(...lambdaHttp.verdicts);
  }
  console.log(`\nfw package${reference ? ` vs serverless@${reference.version} package` : ''}: medians of ${options.runs} runs (${os.cpus().length} CPUs, Node ${process.version}${GNU_TIME ? '' : ', CPU and memory of the Node process only'})\n`);
  if (results.length > 0) console.log(table(rows));
  if (dynamodb) console.log(`\n${table(dynamodb.rows)}`);
  if (lambdaHttp) console.log(`\n${table(lambdaHttp.table)}\n${lambdaHttp.note}`);
  if (verdicts.length > 0) console.log(`\n${verdicts.join('\n')}`);
  if (verdicts.some((verdict) => verdict.startsWith('FAIL'))) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error.message);
  process.exit(1);
});
