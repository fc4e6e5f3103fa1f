// Times fw deploy into the local cloud: the first deploy of a 60-function service
// (about 400 resources: REST and HTTP API routes on every function), then unchanged redeploys.
'use strict';

const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');
const { median } = require('./measure');

const REPO = path.resolve(__dirname, '..', '..');
const FUNCTIONS = 60;

function service(dir) {
  const lines = ['service: bench-deploy', 'provider:', '  name: aws', '  runtime: nodejs20.x', 'functions:'];
  for (let i = 0; i < FUNCTIONS; i++) {
    lines.push(`  f${i}:`, '    handler: handler.main', '    events:', `      - httpApi: 'GET /f${i}/{id}'`, `      - http: GET f${i}/{id}`);
  }
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'fw.yml'), `${lines.join('\n')}\n`);
  fs.writeFileSync(path.join(dir, 'handler.js'), 'exports.main = async () => ({ statusCode: 200, body: "ok" });\n');
}

/** One `fw deploy` as a whole process (the local cloud answers from this process, so never spawnSync). */
function deploy(cwd, url) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [path.join(REPO, 'bin', 'fw.js'), 'deploy', '--endpoint-url', url], {
      cwd,
      env: { ...process.env, AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`fw deploy failed:\n${output}`));
      else resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, output });
    });
  });
}

async function deployBench(root, runs = 5) {
  const { startLocalCloud } = require(path.join(REPO, 'dist', 'src', 'local'));
  const dir = path.join(root, 'deploy-service');
  service(dir);
  const cloud = await startLocalCloud({ port: 0, dataDir: path.join(root, 'deploy-cloud'), quiet: true });
  try {
    const first = await deploy(dir, cloud.url);
    // The root template and, when the service was split, its nested stacks' templates.
    const templates = fs.readdirSync(path.join(dir, '.serverless')).filter((file) => /^cloudformation-template-(update-stack|nested-.*)\.json$/.test(file));
    const resources = templates
      .map((file) => JSON.parse(fs.readFileSync(path.join(dir, '.serverless', file), 'utf8')))
      .reduce((sum, template) => sum + Object.values(template.Resources).filter((r) => r.Type !== 'AWS::CloudFormation::Stack').length, 0);
    const unchanged = [];
    for (let i = 0; i < runs; i++) {
      const run = await deploy(dir, cloud.url);
      if (!run.output.includes('No changes to deploy')) throw new Error(`an unchanged redeploy was not skipped:\n${run.output}`);
      unchanged.push(run.ms);
    }
    return { functions: FUNCTIONS, resources, firstMs: first.ms, unchangedMs: median(unchanged), runs };
  } finally {
    await cloud.stop();
  }
}

module.exports = { deployBench };
