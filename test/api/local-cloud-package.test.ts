import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');

// A user's own test file, run by Node's test runner in a project that has fw-deploy installed
// (a link to this checkout: resolved through package.json's `exports`, as an installed copy is).
const USER_TEST = `
const { test } = require('node:test');
const assert = require('node:assert');
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { startLocalCloud } = require('fw-deploy/local');
const { CloudFormationClient, DescribeStacksCommand } = require('@aws-sdk/client-cloudformation');
const { S3Client, CreateBucketCommand, PutObjectCommand, GetObjectCommand } = require('@aws-sdk/client-s3');

test('deploys the service into a local cloud of its own and calls it', async () => {
  const cloud = await startLocalCloud();
  let dataDir;
  try {
    dataDir = cloud.dataDir;
    const deployed = await cloud.deploy({ cwd: join(__dirname, 'service'), stage: 'test' });
    assert.deepStrictEqual(deployed.functions.map((f) => f.name), ['node-http-api-test-listItems', 'node-http-api-test-getItem']);
    const getItem = deployed.endpoints.find((endpoint) => endpoint.url.endsWith('/items/{id}'));
    const response = await fetch(getItem.url.replace('{id}', '2'));
    assert.strictEqual(response.status, 200);
    assert.deepStrictEqual(await response.json(), { id: '2', name: 'Pencil', price: 1.2 });

    const cfn = new CloudFormationClient(cloud.clientConfig);
    const { Stacks } = await cfn.send(new DescribeStacksCommand({ StackName: 'node-http-api-test' }));
    assert.strictEqual(Stacks[0].StackStatus, 'UPDATE_COMPLETE'); // created with its deployment bucket, then updated, as v3 deploys
    const s3 = new S3Client(cloud.clientConfig);
    await s3.send(new CreateBucketCommand({ Bucket: 'fixtures' }));
    await s3.send(new PutObjectCommand({ Bucket: 'fixtures', Key: 'a.txt', Body: 'hello' }));
    const object = await s3.send(new GetObjectCommand({ Bucket: 'fixtures', Key: 'a.txt' }));
    assert.strictEqual(await object.Body.transformToString(), 'hello');

    const removed = await cloud.remove({ cwd: join(__dirname, 'service'), stage: 'test' });
    assert.strictEqual(removed.stackName, 'node-http-api-test');
    cfn.destroy();
    s3.destroy();
  } finally {
    await cloud.stop();
  }
  assert.strictEqual(existsSync(dataDir), false, 'the temporary data folder is deleted by stop()');
  const fwModules = Object.keys(require.cache).filter((file) => file.includes('/dist/src/')).map((file) => file.replace(/.*\\/dist\\/src\\//, ''));
  console.log('LOADED ' + JSON.stringify(fwModules));
});

test('a cloud that requires credentials gives them to the clients and to deploy', async () => {
  const credentials = { accessKeyId: 'AKIDTEST', secretAccessKey: 'test-secret' };
  const cloud = await startLocalCloud({ credentials });
  try {
    assert.deepStrictEqual(cloud.clientConfig, { endpoint: cloud.url, region: 'us-east-1', credentials, forcePathStyle: true });
    assert.deepStrictEqual(cloud.environment, {
      AWS_ENDPOINT_URL: cloud.url, AWS_REGION: 'us-east-1', AWS_DEFAULT_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'AKIDTEST', AWS_SECRET_ACCESS_KEY: 'test-secret',
    });
    const deployed = await cloud.deploy({ cwd: join(__dirname, 'service') });
    assert.strictEqual(deployed.stackName, 'node-http-api-dev');
    const wrong = new S3Client({ ...cloud.clientConfig, credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'guess' } });
    await assert.rejects(wrong.send(new CreateBucketCommand({ Bucket: 'nope' })), (error) => error.name === 'SignatureDoesNotMatch');
    wrong.destroy();
  } finally {
    await cloud.stop();
  }
});
`;

const entry = suite('fw-deploy/local, as a test suite of a user uses it');

entry('starts a local cloud from a plain Node test file, deploys a service, calls it with fetch and SDK v3, and loads nothing of the CLI', () => {
  const project = mkdtempSync(join(tmpdir(), 'fw-user-project-'));
  try {
    mkdirSync(join(project, 'node_modules'));
    symlinkSync(root, join(project, 'node_modules', 'fw-deploy'), 'dir');
    cpSync(join(root, 'examples', 'node-http-api'), join(project, 'service'), { recursive: true });
    writeFileSync(join(project, 'cloud.test.js'), USER_TEST);
    const run = spawnSync(process.execPath, ['--test', '--test-reporter=tap', 'cloud.test.js'], {
      cwd: project,
      encoding: 'utf8',
      timeout: 120_000,
      // The SDK clients the user's test imports come from fw's own dependencies.
      env: { ...process.env, NODE_PATH: join(root, 'node_modules'), AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', NO_COLOR: '1' },
    });
    const output = `${run.stdout}\n${run.stderr}`;
    assert.is(run.status, 0, output);
    assert.match(run.stdout, /# pass 2\n# fail 0/);
    const loaded: string[] = JSON.parse(/LOADED (.*)/.exec(run.stdout)?.[1] ?? '[]');
    assert.ok(loaded.includes('api/local-cloud.js') && loaded.includes('local/index.js'), output);
    assert.equal(loaded.filter((file) => file.startsWith('cli/')), []);
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
});

entry.run();
