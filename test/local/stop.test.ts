import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { join } from 'node:path';

// The script runs in a process of its own: what is asserted is that this process ends by itself.
const SCRIPT = `
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { LambdaClient, CreateFunctionCommand, InvokeCommand } = require('@aws-sdk/client-lambda');
const { startLocalCloud } = require(${JSON.stringify(join(__dirname, '..', '..', 'src', 'local'))});
const { zip } = require(${JSON.stringify(join(__dirname, 'helpers'))});
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'fw-local-stop-'));
  const cloud = await startLocalCloud({ port: 0, dataDir, quiet: true });
  const lambda = new LambdaClient({ endpoint: cloud.url, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  await lambda.send(new CreateFunctionCommand({
    FunctionName: 'never-answers', Runtime: 'nodejs20.x', Handler: 'index.handler', Role: 'arn:aws:iam::000000000000:role/r',
    Timeout: 300, Code: { ZipFile: await zip({ 'index.js': "exports.handler = () => { console.log('started'); return new Promise(() => {}); };" }) },
  }));
  const invocation = lambda.send(new InvokeCommand({ FunctionName: 'never-answers' })).then(() => 'answered', (error) => error.name);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  await cloud.stop();
  rmSync(dataDir, { recursive: true, force: true });
  lambda.destroy();
  console.log('stopped; invocation: ' + await Promise.race([invocation, new Promise((resolve) => setTimeout(() => resolve('pending'), 100))]));
})();
`;

const stop = suite('stopping the local cloud');

stop('ends a function still running, so the process that started the cloud can exit before the function would time out', async () => {
  const child = spawn(process.execPath, ['-e', SCRIPT], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  // The function's time-out is 300 s; the process must be gone long before.
  const code = await new Promise<number | string>((resolve) => {
    const guard = setTimeout(() => {
      child.kill('SIGKILL');
      resolve('still running after 60 s');
    }, 60_000);
    child.on('exit', (exitCode) => {
      clearTimeout(guard);
      resolve(exitCode ?? 'killed');
    });
  });
  assert.is(code, 0, output);
  assert.match(output, /stopped; invocation: \w+/);
});

stop.run();
