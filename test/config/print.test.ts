import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { Cli } from 'clipanion';
import { PrintCommand } from '../../src/cli/print';
import { SecretValues } from '../../src/secrets';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { startLocalCloud } from '../../src/local';
import { tempService } from './helpers';

async function print(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const cli = new Cli({ binaryName: 'fw' });
  cli.register(PrintCommand);
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await cli.run(args, { stdin: process.stdin, stdout, stderr, env: {}, colorDepth: 1 });
  // Colours depend on the terminal running the tests; compare plain text.
  const plain = (text: string) => text.replace(/\u001b\[\d+m/g, '');
  return { code, stdout: plain(out), stderr: plain(err) };
}

const SERVICE = "service: app\nprovider:\n  name: aws\n  stage: ${opt:stage, 'dev'}\n  environment:\n    TABLE: ${self:service}-${sls:stage}\n    DEBUG: ${strToBool(1)}\n";

const printCommand = suite('fw print');

printCommand('prints the resolved configuration as YAML by default', async () => {
  const folder = tempService({ 'fw.yml': SERVICE });
  try {
    const result = await print(['print', '--config', join(folder.dir, 'fw.yml'), '--stage', 'prod']);
    assert.equal(result, {
      code: 0,
      stdout: 'service: app\nprovider:\n  name: aws\n  stage: prod\n  environment:\n    TABLE: app-prod\n    DEBUG: true\n',
      stderr: '',
    });
  } finally {
    folder.cleanup();
  }
});

printCommand('--format json --path prints one part as JSON', async () => {
  const folder = tempService({ 'fw.yml': SERVICE });
  try {
    const result = await print(['print', '--config', join(folder.dir, 'fw.yml'), '--format', 'json', '--path', 'provider.environment']);
    assert.equal(result, { code: 0, stdout: '{\n  "TABLE": "app-dev",\n  "DEBUG": true\n}\n', stderr: '' });
  } finally {
    folder.cleanup();
  }
});

printCommand('a path that leads nowhere, or an unknown format, is a one-line error', async () => {
  const folder = tempService({ 'fw.yml': SERVICE });
  try {
    const missing = await print(['print', '--config', join(folder.dir, 'fw.yml'), '--path', 'provider.nope']);
    assert.equal(missing, { code: 1, stdout: '', stderr: 'Error: Nothing at "provider.nope" in the resolved configuration\n' });
    const format = await print(['print', '--config', join(folder.dir, 'fw.yml'), '--format', 'xml']);
    assert.equal(format, { code: 1, stdout: '', stderr: 'Error: --format expects "yaml", "json" or "text", got "xml"\n' });
  } finally {
    folder.cleanup();
  }
});

printCommand('an unresolved variable is printed without a stack trace', async () => {
  const folder = tempService({ 'fw.yml': 'service: app\nprovider:\n  name: aws\n  environment:\n    TABLE: ${env:FW_TEST_SURELY_UNSET_TABLE}\n' });
  try {
    const result = await print(['print', '--config', join(folder.dir, 'fw.yml')]);
    assert.equal(result, {
      code: 1,
      stdout: '',
      stderr: 'Error: Cannot resolve variable at "provider.environment.TABLE": ${env:FW_TEST_SURELY_UNSET_TABLE} is not set and has no fallback\n',
    });
  } finally {
    folder.cleanup();
  }
});

printCommand('values from ssm: show where they came from unless --show-secrets (against the local cloud)', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'fw-print-cloud-'));
  const cloud = await startLocalCloud({ port: 0, dataDir, quiet: true });
  const saved = { ...process.env };
  const folder = tempService({ 'fw.yml': 'service: app\nprovider:\n  name: aws\n  environment:\n    DB_PASSWORD: ${ssm:/app/db-password}\n    DB_URL: postgres://app:${ssm:/app/db-password}@db\n    PLAIN: visible\n' });
  try {
    // The AWS SDK reads its endpoint and credentials from the environment, as a user would set them.
    Object.assign(process.env, { AWS_ENDPOINT_URL: cloud.url, AWS_ACCESS_KEY_ID: 'AKIAFAKE', AWS_SECRET_ACCESS_KEY: 'fake', AWS_REGION: 'us-east-1' });
    const { SSMClient, PutParameterCommand } = await import('@aws-sdk/client-ssm');
    const ssm = new SSMClient({ region: 'us-east-1' });
    await ssm.send(new PutParameterCommand({ Name: '/app/db-password', Value: 'hunter2-secret', Type: 'SecureString' }));
    ssm.destroy();
    const file = join(folder.dir, 'fw.yml');
    const masked = await print(['print', '--config', file, '--path', 'provider.environment', '--format', 'json']);
    assert.equal(masked.stdout, '{\n  "DB_PASSWORD": "<secret from ssm:/app/db-password>",\n  "DB_URL": "postgres://app:<secret from ssm:/app/db-password>@db",\n  "PLAIN": "visible"\n}\n');
    const shown = await print(['print', '--config', file, '--path', 'provider.environment', '--format', 'json', '--show-secrets']);
    assert.equal(shown.stdout, '{\n  "DB_PASSWORD": "hunter2-secret",\n  "DB_URL": "postgres://app:hunter2-secret@db",\n  "PLAIN": "visible"\n}\n');
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
    folder.cleanup();
    await cloud.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

printCommand.run();

const mask = suite('SecretValues.maskValue');

mask('masks secret values wherever they appear, naming their origin; a tiny one only as a whole value', () => {
  const secrets = new SecretValues();
  secrets.add('s3cr3t-value', 'ssm:/app/password');
  secrets.add({ port: 5432, flag: 1 }, 'ssm:/app/db');
  assert.equal(
    secrets.maskValue({ a: 's3cr3t-value', b: 'postgres://u:s3cr3t-value@h', c: 5432, d: ['v1.0', 1], e: 'plain' }),
    {
      a: '<secret from ssm:/app/password>',
      b: 'postgres://u:<secret from ssm:/app/password>@h',
      c: '<secret from ssm:/app/db>',
      d: ['v1.0', '<secret from ssm:/app/db>'],
      e: 'plain',
    },
  );
});

mask('without secrets the value is unchanged', () => {
  const value = { a: 1 };
  assert.is(new SecretValues().maskValue(value), value);
});

mask.run();
