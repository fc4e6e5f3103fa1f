import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalCloud, type RunningLocalCloud } from '../../src/local';
import { tempService } from '../config/helpers';
import { FW_BIN } from '../config/fuzz-run';

/**
 * A secret read from SSM and placed where fw complains about it (a number field, inside a
 * string, a strToBool) must never reach the terminal, whatever the command: every command
 * that reads the service runs through the built CLI against a local cloud holding the secret.
 */
const SECRET = 'S3cr3t-Pa55w0rd-7c1e9';
const MARK = '<secret from ssm:/sec/db-password>';

const WARNS = [
  'service: leak',
  'provider:',
  '  name: aws',
  '  runtime: nodejs20.x',
  '  memorySize: ${ssm:/sec/db-password}',
  '  environment:',
  '    DB_URL: postgres://app:${ssm:/sec/db-password}@db',
  'functions:',
  '  hello:',
  '    handler: h.main',
  "    timeout: 'pre-${ssm:/sec/db-password}-post'",
  '    tags:',
  '      - ${ssm:/sec/db-password}',
  '',
].join('\n');

const HANDLER = 'exports.main = async () => { console.log("DB_URL is", process.env.DB_URL); return { url: process.env.DB_URL }; };\n';

let cloud: RunningLocalCloud;
let dataDir: string;

function fw(args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => key !== 'FORCE_COLOR'));
  Object.assign(env, { NO_COLOR: '1', AWS_ENDPOINT_URL: cloud.url, AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', AWS_REGION: 'us-east-1', FW_LOCAL_DATA: dataDir });
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [FW_BIN, ...args], { cwd, env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, output });
    });
  });
}

const leaks = suite('secrets never reach the terminal');

leaks.before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'fw-secrets-cloud-'));
  cloud = await startLocalCloud({ port: 0, dataDir, quiet: true });
  const { SSMClient, PutParameterCommand } = await import('@aws-sdk/client-ssm');
  const ssm = new SSMClient({ endpoint: cloud.url, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  await ssm.send(new PutParameterCommand({ Name: '/sec/db-password', Value: SECRET, Type: 'SecureString' }));
  await ssm.send(new PutParameterCommand({ Name: '/sec/flag', Value: SECRET, Type: 'SecureString' }));
  ssm.destroy();
});

leaks.after(async () => {
  await cloud.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

leaks('every command that reads the service masks the secret in warnings, errors and output', async () => {
  const folder = tempService({ 'fw.yml': WARNS, 'h.js': HANDLER });
  const endpoint = ['--endpoint-url', cloud.url];
  const commands = [
    ['package'],
    ['print'],
    ['print', '--format', 'json', '--path', 'provider'],
    ['deploy', ...endpoint],
    ['diff', ...endpoint],
    ['info', ...endpoint],
    ['invoke', 'local', '-f', 'hello'],
    ['invoke', ...endpoint, '-f', 'hello', '--log'],
    ['logs', ...endpoint, '-f', 'hello'],
    ['remove', ...endpoint],
  ];
  try {
    const leaked: string[] = [];
    const outputs: Record<string, string> = {};
    for (const args of commands) {
      const { output } = await fw(args, folder.dir);
      outputs[args.join(' ')] = output;
      if (output.includes(SECRET)) leaked.push(`fw ${args.join(' ')}:\n${output}`);
    }
    assert.equal(leaked, []);
    // The warnings say where the secret came from instead.
    assert.ok(
      outputs.package.includes(`Warning: invalid configuration at "provider.memorySize": expected a number, got ${MARK}\n`),
      outputs.package,
    );
    assert.ok(outputs.package.includes(`Warning: invalid configuration at "functions.hello.timeout": expected a number, got "pre-${MARK}-post"\n`), outputs.package);
    assert.ok(outputs.print.includes(`  memorySize: ${MARK}\n`), outputs.print);
    assert.ok(outputs['invoke local -f hello'].includes(`DB_URL is postgres://app:${MARK}@db`), outputs['invoke local -f hello']);
  } finally {
    folder.cleanup();
  }
});

leaks('errors that quote the secret mask it: a strToBool of it, and configValidationMode: error', async () => {
  const strToBool = tempService({ 'fw.yml': 'service: leak\nprovider:\n  name: aws\ncustom:\n  on: ${strToBool(${ssm:/sec/flag})}\n', 'h.js': HANDLER });
  const strict = tempService({ 'fw.yml': `configValidationMode: error\n${WARNS}`, 'h.js': HANDLER });
  try {
    assert.equal(await fw(['package'], strToBool.dir), {
      code: 1,
      output: 'Error: Cannot resolve variable at "custom.on": ${strToBool(${ssm:/sec/flag})}: strToBool expects "true", "false", "1" or "0", got "<secret from ssm:/sec/flag>"\n',
    });
    const { code, output } = await fw(['print'], strict.dir);
    assert.equal({ code, leaked: output.includes(SECRET), first: output.split('\n')[0] }, { code: 1, leaked: false, first: 'Error: Invalid configuration (configValidationMode: error):' });
    assert.ok(output.includes(`  - at "provider.memorySize": expected a number, got ${MARK}\n`), output);
  } finally {
    strToBool.cleanup();
    strict.cleanup();
  }
});

leaks('--show-secrets shows the values in fw print, and only there', async () => {
  const folder = tempService({ 'fw.yml': WARNS, 'h.js': HANDLER });
  try {
    const { code, output } = await fw(['print', '--show-secrets', '--format', 'json', '--path', 'provider.environment'], folder.dir);
    assert.is(code, 0);
    assert.ok(output.endsWith(`{\n  "DB_URL": "postgres://app:${SECRET}@db"\n}\n`), output);
    assert.ok(output.includes(`got ${MARK}`), output);
  } finally {
    folder.cleanup();
  }
});

leaks.run();
