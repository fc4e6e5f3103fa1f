// Times a 10-service application (no dependencies between the services; a few functions and an
// HTTP API each) deployed two ways into `fw local start --provisioning-delay 0.05` (each resource
// takes 5% of its typical AWS creation time, independent resources side by side, as CloudFormation
// provisions them): `fw deploy --max-concurrency 10` in the compose folder (and `fw deploy` with
// its default of 4 at once), against the same services deployed one after another with `fw deploy`
// in each service's folder. Each run deploys to a new stage, so
// every stack is created from scratch; medians of the runs.
'use strict';

const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');
const { median } = require('./measure');

const REPO = path.resolve(__dirname, '..', '..');
const FW = path.join(REPO, 'bin', 'fw.js');
const SERVICES = 10;
const FUNCTIONS = 3;
const PROVISIONING_DELAY = 0.05;

function application(dir) {
  const compose = ['services:'];
  for (let s = 0; s < SERVICES; s++) {
    const name = `svc${s}`;
    const lines = [`service: bench-compose-${name}`, 'provider:', '  name: aws', '  runtime: nodejs20.x', 'functions:'];
    for (let f = 0; f < FUNCTIONS; f++) lines.push(`  f${f}:`, '    handler: handler.main', '    events:', `      - httpApi: 'GET /f${f}'`);
    fs.mkdirSync(path.join(dir, name), { recursive: true });
    fs.writeFileSync(path.join(dir, name, 'fw.yml'), `${lines.join('\n')}\n`);
    fs.writeFileSync(path.join(dir, name, 'handler.js'), 'exports.main = async () => ({ statusCode: 200, body: "ok" });\n');
    compose.push(`  ${name}:`, `    path: ${name}`);
  }
  fs.writeFileSync(path.join(dir, 'fw-compose.yml'), `${compose.join('\n')}\n`);
}

/** fw as a whole process; resolves with its output, rejects naming the command when it fails. */
function fw(args, cwd, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [FW, ...args], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(output) : reject(new Error(`fw ${args.join(' ')} failed in ${cwd}:\n${output}`))));
  });
}

/** `fw local start` as its own process, on a free port; resolves once it listens. */
function startCloud(dataDir, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [FW, 'local', 'start', '--port', '0', '--data', dataDir, '--provisioning-delay', String(PROVISIONING_DELAY)], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) resolve({ url, stop: () => new Promise((done) => (child.once('close', done), child.kill('SIGINT'))) });
    });
    child.stderr.on('data', () => undefined);
    child.on('error', reject);
    child.on('close', (code) => reject(new Error(`fw local start exited with ${code}:\n${output}`)));
  });
}

async function timed(work) {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

async function composeBench(root, runs = 3) {
  const dir = path.join(root, 'compose-application');
  const dataDir = path.join(root, 'compose-cloud');
  application(dir);
  // `--local` finds the running `fw local start` by what it records in this data folder.
  const env = { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', NO_COLOR: '1', FW_LOCAL_DATA: dataDir };
  const cloud = await startCloud(dataDir, env);
  const services = fs.readdirSync(dir).filter((name) => name.startsWith('svc')).sort();
  const compose = [];
  const composeDefault = [];
  const oneByOne = [];
  try {
    for (let run = 0; run < runs; run++) {
      compose.push(await timed(() => fw(['deploy', '--local', '--stage', `c${run}`, '--max-concurrency', String(SERVICES)], dir, env)));
      composeDefault.push(await timed(() => fw(['deploy', '--local', '--stage', `d${run}`], dir, env)));
      oneByOne.push(
        await timed(async () => {
          for (const name of services) await fw(['deploy', '--local', '--stage', `s${run}`], path.join(dir, name), env);
        }),
      );
    }
  } finally {
    await cloud.stop();
  }
  const resources = Object.keys(JSON.parse(fs.readFileSync(path.join(dir, 'svc0', '.serverless', 'cloudformation-template-update-stack.json'), 'utf8')).Resources).length;
  return { services: SERVICES, functions: FUNCTIONS, resources, delay: PROVISIONING_DELAY, runs, composeMs: median(compose), composeDefaultMs: median(composeDefault), oneByOneMs: median(oneByOne) };
}

module.exports = { composeBench };
