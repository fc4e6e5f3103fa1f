#!/usr/bin/env node
// Records the AWS calls of the reference (Serverless Framework v3.40.0) for each scenario of
// test/helpers/aws-call-scenarios.ts into test/fixtures/aws-calls/<scenario>.json, the goldens
// test/deploy/aws-calls.test.ts compares fw's calls with.
//
//   npm run build && node scripts/aws-call-goldens.js [scenario-name-regex]
//
// For every scenario: start fw's local cloud (a temporary data folder, a free port) and a recorder
// in front of it (test/helpers/aws-calls.ts); write the scenario's service files into a temporary
// folder; run each step's `serverless <args>` there with the SDK v2 pointed at the recorder (the
// `--require scripts/aws-sdk-v2-endpoint.js` preload), fake credentials, telemetry off; keep the
// calls of the steps marked `recorded`, as (service, operation, the parameters that carry settings).
// A step that fails stops the scenario and is written with its output, so the golden shows it.
//
// Environment:
//   FW_REFERENCE_DIR   folder whose node_modules/serverless is v3.40.0 (default ~/.cache/fw-reference)
//
// Needs `npm run build` first (it runs the compiled helpers and local cloud from dist/). Plain Node.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');

const REPO = path.resolve(__dirname, '..');
const OUT = path.join(REPO, 'test/fixtures/aws-calls');
const REFERENCE_VERSION = '3.40.0';
const { startLocalCloud } = require(path.join(REPO, 'dist/src/local/index.js'));
const { startRecorder } = require(path.join(REPO, 'dist/test/helpers/aws-calls.js'));
const { SCENARIOS, scenarioContext, writeStepFiles } = require(path.join(REPO, 'dist/test/helpers/aws-call-scenarios.js'));

function findReference() {
  const dir = process.env.FW_REFERENCE_DIR || path.join(os.homedir(), '.cache/fw-reference');
  const serverless = path.join(dir, 'node_modules/serverless');
  const pkg = path.join(serverless, 'package.json');
  if (!fs.existsSync(pkg) || JSON.parse(fs.readFileSync(pkg, 'utf8')).version !== REFERENCE_VERSION) {
    console.error(`${serverless} is not serverless@${REFERENCE_VERSION}: npm install serverless@${REFERENCE_VERSION} in ${dir}`);
    process.exit(1);
  }
  return serverless;
}

function runReference(serverless, args, cwd, endpoint, stepEnv) {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (/^(AWS_|SLS_|SERVERLESS_)/.test(key)) delete env[key];
  Object.assign(env, {
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_REGION: 'us-east-1',
    SLS_TELEMETRY_DISABLED: '1',
    SLS_NOTIFICATIONS_MODE: 'off',
    FW_REFERENCE_SERVERLESS: serverless,
    FW_AWS_ENDPOINT: endpoint,
    NO_COLOR: '1',
    ...stepEnv,
  });
  const preload = path.join(__dirname, 'aws-sdk-v2-endpoint.js');
  return new Promise(resolve => {
    // No standard input: `invoke` without --data reads its event from it.
    const child = spawn(process.execPath, ['--require', preload, path.join(serverless, 'bin/serverless.js'), ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', chunk => (output += chunk));
    child.stderr.on('data', chunk => (output += chunk));
    child.on('close', code => resolve({ code, output }));
  });
}

async function recordScenario(serverless, scenario) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-aws-calls-cloud-'));
  const serviceDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-aws-calls-service-'));
  const cloud = await startLocalCloud({ port: 0, dataDir, quiet: true });
  const recorder = await startRecorder(cloud.url);
  const context = scenarioContext(cloud.url);
  const steps = [];
  try {
    for (const step of scenario.steps) {
      writeStepFiles(serviceDir, step.files);
      if (step.before) await step.before(context);
      const args = typeof step.args === 'function' ? await step.args(context) : step.args;
      recorder.calls.length = 0;
      recorder.accessKeyIds.length = 0;
      const { code, output } = await runReference(serverless, args, serviceDir, recorder.url, step.env?.(serviceDir) ?? {});
      if (step.recorded) {
        steps.push({
          args: args.map(arg => (/^\d{13}$/.test(arg) ? '<timestamp>' : arg)),
          exitCode: code,
          ...(step.env ? { accessKeyIds: [...recorder.accessKeyIds] } : {}),
          calls: [...recorder.calls],
        });
      }
      if (code !== 0) {
        console.error(`${scenario.name}: serverless ${args.join(' ')} exited with ${code}:\n${output.replace(serviceDir, '<service>')}`);
        if (!step.recorded) steps.push({ args, exitCode: code, calls: [], output: output.split(serviceDir).join('<service>') });
        break;
      }
    }
  } finally {
    await recorder.close();
    await cloud.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(serviceDir, { recursive: true, force: true });
  }
  return { scenario: scenario.name, reference: `serverless@${REFERENCE_VERSION}`, steps };
}

async function main() {
  const serverless = findReference();
  const filter = new RegExp(process.argv[2] ?? '.');
  fs.mkdirSync(OUT, { recursive: true });
  for (const scenario of SCENARIOS.filter(s => filter.test(s.name))) {
    const started = Date.now();
    const golden = await recordScenario(serverless, scenario);
    fs.writeFileSync(path.join(OUT, `${scenario.name}.json`), `${JSON.stringify(golden, null, 2)}\n`);
    const calls = golden.steps.reduce((sum, step) => sum + step.calls.length, 0);
    console.log(`${scenario.name}: ${calls} calls in ${golden.steps.length} recorded step(s), ${((Date.now() - started) / 1000).toFixed(0)}s`);
  }
}

main().catch(error => {
  console.error(error);
  process.exit(1);
});
