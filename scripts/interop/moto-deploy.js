// Deploys with fw to moto (`python3 -m moto.server`), another AWS emulator, through --endpoint-url,
// addressed both as http://127.0.0.1:PORT and as http://localhost:PORT: a small service (its
// template goes inline) and one whose template is over CloudFormation's 51,200-byte inline limit
// (it goes by URL from the deployment bucket, which moto must resolve to its own S3), then an
// update and a removal. Skipped, and said so, when python3 has no moto.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');
const { hasPython, startMoto } = require('../bench/servers');

const FW = path.join(__dirname, '..', '..', 'bin', 'fw.js');
const STEP_TIMEOUT_MS = 120_000;

function fw(args, cwd) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [FW, ...args], {
      cwd,
      env: { ...process.env, AWS_ACCESS_KEY_ID: 'moto', AWS_SECRET_ACCESS_KEY: 'moto', AWS_REGION: 'us-east-1', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), STEP_TIMEOUT_MS);
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** A service with one function; `queues` queues with 50 long tags each make the template big. */
function writeService(dir, name, queues) {
  const lines = [`service: ${name}`, 'provider:', '  name: aws', '  runtime: nodejs20.x', 'functions:', '  hello:', '    handler: handler.main'];
  if (queues > 0) {
    lines.push('resources:', '  Resources:');
    for (let q = 0; q < queues; q++) {
      lines.push(`    Queue${q}:`, '      Type: AWS::SQS::Queue', '      Properties:', '        Tags:');
      for (let t = 0; t < 50; t++) lines.push(`          - Key: tag${t}`, `            Value: ${'v'.repeat(250)}`);
    }
  }
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'fw.yml'), `${lines.join('\n')}\n`);
  fs.writeFileSync(path.join(dir, 'handler.js'), 'exports.main = async () => ({ statusCode: 200, body: "v1" });\n');
}

/** `PASS  …`, `FAIL  …` and `SKIP  …` lines, one per check. */
async function motoDeployChecks() {
  if (!hasPython(['moto.server'])) return ['SKIP  fw deploy to moto: python3 has no moto (pip install "moto[server]")'];
  const results = [];
  const moto = await startMoto();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-interop-moto-'));
  try {
    for (const [size, queues] of [['small', 0], ['large', 5]]) {
      for (const host of ['127.0.0.1', 'localhost']) {
        const endpoint = `http://${host}:${new URL(moto.url).port}`;
        const name = `moto-${size}-${host.replace(/\W/g, '')}`;
        const dir = path.join(scratch, name);
        writeService(dir, name, queues);
        const label = `fw deploy, update and remove of a ${size} service (template ${size === 'small' ? 'inline' : 'by URL'}) to moto at ${endpoint}`;
        try {
          const steps = [
            ['deploy', () => fw(['deploy', '--endpoint-url', endpoint], dir)],
            ['update', () => (fs.writeFileSync(path.join(dir, 'handler.js'), 'exports.main = async () => ({ statusCode: 200, body: "v2" });\n'), fw(['deploy', '--endpoint-url', endpoint], dir))],
            ['remove', () => fw(['remove', '--endpoint-url', endpoint], dir)],
          ];
          for (const [step, run] of steps) {
            const { code, output } = await run();
            if (code !== 0) throw new Error(`${step} exited ${code}: ${output.trim().split('\n').slice(-3).join(' | ')}`);
          }
          if (size === 'large') {
            const bytes = fs.statSync(path.join(dir, '.serverless', 'cloudformation-template-update-stack.json')).size;
            if (bytes <= 51_200) throw new Error(`the large template is only ${bytes} bytes: it went inline, not by URL`);
          }
          results.push(`PASS  ${label}`);
        } catch (error) {
          results.push(`FAIL  ${label}: ${error.message}`);
        }
      }
    }
  } finally {
    await moto.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return results;
}

module.exports = { motoDeployChecks };

if (require.main === module) {
  motoDeployChecks().then((results) => {
    console.log(results.join('\n'));
    if (results.some((line) => line.startsWith('FAIL'))) process.exitCode = 1;
  });
}
