import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  CloudFormationClient,
  DescribeStackEventsCommand,
  DescribeStackResourcesCommand,
  DescribeStacksCommand,
  ListStackResourcesCommand,
  ListStacksCommand,
  type Stack,
} from '@aws-sdk/client-cloudformation';
import { CreateBucketCommand, ListBucketsCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { startLocalCloud, type RunningLocalCloud } from '../../src/local';
import { childEnv } from '../helpers/env';

// The SDK warns once per process that Node 20 support ends; tests need not say so.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const FW = join(__dirname, '..', '..', '..', 'bin', 'fw.js');
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const HANDLER = "exports.main = async (event) => ({ statusCode: 200, body: 'hi from ' + event.rawPath });\n";

/** A service with an HTTP function per name; `wait` adds a wait condition nobody signals, so the update holds until interrupted. */
function service(name: string, functions: string[], options: { wait?: boolean; bucket?: string; nested?: string } = {}): string {
  const lines = [`service: ${name}`, 'provider:', '  name: aws', '  runtime: nodejs20.x', 'functions:'];
  for (const fn of functions) lines.push(`  ${fn}:`, '    handler: handler.main', '    events:', `      - httpApi: 'GET /${fn}'`);
  if (options.wait || options.bucket || options.nested) lines.push('resources:', '  Resources:');
  if (options.nested) lines.push('    Child:', '      Type: AWS::CloudFormation::Stack', '      Properties:', `        TemplateURL: ${options.nested}`);
  if (options.bucket) lines.push('    FilesBucket:', '      Type: AWS::S3::Bucket', '      Properties:', `        BucketName: ${options.bucket}`);
  if (options.wait) {
    const after = functions.map((fn) => `${fn[0].toUpperCase()}${fn.slice(1)}LambdaFunction`).concat(options.bucket ? ['FilesBucket'] : []);
    lines.push('    Handle:', '      Type: AWS::CloudFormation::WaitConditionHandle');
    lines.push('    Wait:', '      Type: AWS::CloudFormation::WaitCondition', `      DependsOn: [${after.join(', ')}]`);
    lines.push('      Properties:', '        Handle: { Ref: Handle }', "        Timeout: '300'");
  }
  return `${lines.join('\n')}\n`;
}

interface Run {
  child: ChildProcess;
  stdout: string;
  stderr: string;
  code: Promise<number | null>;
}

/** Runs the built CLI; `onStdout` sees the output so far after each chunk. */
function fw(cwd: string, args: string[], env: Record<string, string> = {}, onStdout?: (run: Run) => void): Run {
  const child = spawn(process.execPath, [FW, ...args], { cwd, env: childEnv({ ...credentials, AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
  const run: Run = { child, stdout: '', stderr: '', code: new Promise((resolve) => child.on('close', resolve)) };
  child.stdout!.on('data', (chunk) => {
    run.stdout += chunk;
    onStdout?.(run);
  });
  child.stderr!.on('data', (chunk) => (run.stderr += chunk));
  return run;
}

async function succeeds(run: Run): Promise<void> {
  const code = await run.code;
  assert.is(code, 0, `fw ended with ${code}:\n${run.stdout}\n${run.stderr}`);
}

function clients(url: string) {
  return {
    cfn: new CloudFormationClient({ endpoint: url, region: 'us-east-1', credentials }),
    s3: new S3Client({ endpoint: url, region: 'us-east-1', credentials, forcePathStyle: true }),
  };
}

async function settle(cfn: CloudFormationClient, stackName: string): Promise<Stack> {
  for (let i = 0; i < 500; i++) {
    const stack = (await cfn.send(new DescribeStacksCommand({ StackName: stackName }))).Stacks![0];
    if (!stack.StackStatus!.endsWith('_IN_PROGRESS')) return stack;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${stackName} stays in progress`);
}

async function resourceIds(cfn: CloudFormationClient, stackName: string): Promise<string[]> {
  const { StackResourceSummaries } = await cfn.send(new ListStackResourcesCommand({ StackName: stackName }));
  return StackResourceSummaries!.map((summary) => summary.LogicalResourceId!).sort();
}

async function get(stack: Stack, path: string): Promise<string> {
  const url = stack.Outputs!.find((output) => output.OutputKey === 'HttpApiUrl')!.OutputValue!;
  const response = await fetch(`${url}${path}`);
  return `${response.status} ${await response.text()}`;
}

/** Starts `fw local start` on a free port; resolves with its URL. */
async function localStart(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const run = fw(tmpdir(), ['local', 'start', '--port', '0', '--data', dataDir]);
  for (let i = 0; i < 500; i++) {
    const url = /Local cloud listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(run.stdout)?.[1];
    if (url) return { child: run.child, url };
    if (run.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`fw local start did not start:\n${run.stdout}\n${run.stderr}`);
}

/** Whether the stack's events show its wait condition waiting. */
async function waiting(cfn: CloudFormationClient, stackName: string): Promise<boolean> {
  const { StackEvents } = await cfn.send(new DescribeStackEventsCommand({ StackName: stackName }));
  return StackEvents!.some((event) => event.LogicalResourceId === 'Wait' && event.ResourceStatus === 'CREATE_IN_PROGRESS');
}

/** Once `ready()` says the operation is in the middle, kill -9 the server (and the deploy following it). */
async function killMidOperation(server: { child: ChildProcess }, deploy: Run, ready: () => Promise<boolean>): Promise<void> {
  while (!(await ready())) await new Promise((resolve) => setTimeout(resolve, 20));
  server.child.kill('SIGKILL');
  deploy.child.kill('SIGKILL');
  await Promise.all([new Promise((resolve) => server.child.on('close', resolve)), deploy.code]);
}

async function stopServer(server: { child: ChildProcess }): Promise<void> {
  server.child.kill('SIGTERM');
  await new Promise((resolve) => (server.child.exitCode !== null ? resolve(null) : server.child.on('close', resolve)));
}

const interrupt = suite<{ work: string }>('interrupting fw deploy, fw local start and fw package');

interrupt.before.each((context) => {
  context.work = mkdtempSync(join(tmpdir(), 'fw-interrupt-'));
  writeFileSync(join(context.work, 'handler.js'), HANDLER);
});

interrupt.after.each((context) => {
  rmSync(context.work, { recursive: true, force: true });
});

interrupt('Ctrl-C during an update on a running cloud says CloudFormation goes on, and it does', async ({ work }) => {
  const cloud: RunningLocalCloud = await startLocalCloud({ port: 0, dataDir: join(work, 'cloud'), quiet: true });
  const { cfn } = clients(cloud.url);
  try {
    writeFileSync(join(work, 'fw.yml'), service('remote', ['hello'], { wait: true }));
    const run = fw(work, ['deploy', '--endpoint-url', cloud.url], {}, (current) => {
      if (/Updating stack remote-dev/.test(current.stdout)) current.child.kill('SIGINT');
    });
    assert.is(await run.code, 130, `${run.stdout}\n${run.stderr}`);
    assert.is(
      run.stderr,
      '\nInterrupted. CloudFormation goes on with the operation on stack remote-dev by itself; run "fw info" to see where it ends, or "fw deploy" again (it waits for the running update).\n',
    );
    const { StackResources } = await cfn.send(new DescribeStackResourcesCommand({ StackName: 'remote-dev', LogicalResourceId: 'Handle' }));
    await fetch(StackResources![0].PhysicalResourceId!, { method: 'PUT', body: '{"Status":"SUCCESS","UniqueId":"test"}' });
    assert.is((await settle(cfn, 'remote-dev')).StackStatus, 'UPDATE_COMPLETE');
  } finally {
    cfn.destroy();
    await cloud.stop();
  }
});

interrupt('Ctrl-C during fw deploy --local rolls the update back in the cloud it runs, and the next deploy works', async ({ work }) => {
  const dataDir = join(work, 'cloud');
  const env = { FW_LOCAL_DATA: dataDir, FW_LOCAL_PORT: '0' };
  writeFileSync(join(work, 'fw.yml'), service('inproc', ['hello'], { wait: true }));
  const run = fw(work, ['deploy', '--local'], env, (current) => {
    if (/Updating stack inproc-dev/.test(current.stdout)) current.child.kill('SIGINT');
  });
  assert.is(await run.code, 130, `${run.stdout}\n${run.stderr}`);
  assert.is(run.stderr, '\nInterrupted. The local cloud stopped the update of stack inproc-dev and rolled it back (UPDATE_ROLLBACK_COMPLETE); run "fw deploy" again.\n');

  writeFileSync(join(work, 'fw.yml'), service('inproc', ['hello']));
  await succeeds(fw(work, ['deploy', '--local'], env));
  const cloud = await startLocalCloud({ port: 0, dataDir, quiet: true });
  const { cfn } = clients(cloud.url);
  try {
    const stack = await settle(cfn, 'inproc-dev');
    assert.is(stack.StackStatus, 'UPDATE_COMPLETE');
    assert.is(await get(stack, '/hello'), '200 hi from /hello');
  } finally {
    cfn.destroy();
    await cloud.stop();
  }
});

interrupt('kill -9 of fw local start mid-update: the restart rolls the update back and a rerun of fw deploy works', async ({ work }) => {
  const dataDir = join(work, 'cloud');
  let server = await localStart(dataDir);
  let { cfn, s3 } = clients(server.url);
  try {
    writeFileSync(join(work, 'fw.yml'), service('killed', ['hello']));
    await succeeds(fw(work, ['deploy', '--endpoint-url', server.url]));
    // The update adds a function and a named bucket, then waits: the server dies with both made.
    writeFileSync(join(work, 'fw.yml'), service('killed', ['hello', 'extra'], { wait: true, bucket: 'killed-files' }));
    await killMidOperation(server, fw(work, ['deploy', '--endpoint-url', server.url]), () => waiting(cfn, 'killed-dev'));
    cfn.destroy();
    s3.destroy();

    server = await localStart(dataDir);
    ({ cfn, s3 } = clients(server.url));
    const recovered = await settle(cfn, 'killed-dev');
    assert.is(recovered.StackStatus, 'UPDATE_ROLLBACK_COMPLETE');
    const { StackEvents } = await cfn.send(new DescribeStackEventsCommand({ StackName: 'killed-dev' }));
    const rollback = StackEvents!.find((event) => event.LogicalResourceId === 'killed-dev' && event.ResourceStatus === 'UPDATE_ROLLBACK_IN_PROGRESS');
    assert.is(rollback?.ResourceStatusReason, 'The local cloud stopped while this operation ran');
    assert.equal(
      (await resourceIds(cfn, 'killed-dev')).filter((id) => /Extra|Files|Wait|Handle/.test(id)),
      [],
    );
    const { Buckets } = await s3.send(new ListBucketsCommand({}));
    const deploymentBucket = recovered.Outputs!.find((output) => output.OutputKey === 'ServerlessDeploymentBucketName')!.OutputValue;
    assert.equal(Buckets!.map((bucket) => bucket.Name), [deploymentBucket]);

    writeFileSync(join(work, 'fw.yml'), service('killed', ['hello', 'extra'], { bucket: 'killed-files' }));
    await succeeds(fw(work, ['deploy', '--endpoint-url', server.url]));
    const stack = await settle(cfn, 'killed-dev');
    assert.is(stack.StackStatus, 'UPDATE_COMPLETE');
    assert.is(await get(stack, '/extra'), '200 hi from /extra');
  } finally {
    cfn.destroy();
    s3.destroy();
    await stopServer(server);
  }
});

interrupt('kill -9 while a nested stack is being made: the restart leaves no orphan, fw remove leaves no stack, a redeploy works', async ({ work }) => {
  const dataDir = join(work, 'cloud');
  let server = await localStart(dataDir);
  let { cfn, s3 } = clients(server.url);
  const liveStacks = async () => {
    const { StackSummaries } = await cfn.send(new ListStacksCommand({}));
    return StackSummaries!.filter((summary) => summary.StackStatus !== 'DELETE_COMPLETE').map((summary) => `${summary.StackName} ${summary.StackStatus}`);
  };
  try {
    await s3.send(new CreateBucketCommand({ Bucket: 'templates' }));
    const child = { Resources: { Handle: { Type: 'AWS::CloudFormation::WaitConditionHandle' }, Wait: { Type: 'AWS::CloudFormation::WaitCondition', Properties: { Handle: { Ref: 'Handle' }, Timeout: '300' } } } };
    await s3.send(new PutObjectCommand({ Bucket: 'templates', Key: 'child.json', Body: JSON.stringify(child) }));
    writeFileSync(join(work, 'fw.yml'), service('nested', ['hello']));
    await succeeds(fw(work, ['deploy', '--endpoint-url', server.url]));
    writeFileSync(join(work, 'fw.yml'), service('nested', ['hello'], { nested: 'https://templates.s3.amazonaws.com/child.json' }));
    await killMidOperation(server, fw(work, ['deploy', '--endpoint-url', server.url]), async () => {
      const nested = (await liveStacks()).find((line) => line.startsWith('nested-dev-Child-'));
      return nested !== undefined && waiting(cfn, nested.split(' ')[0]);
    });
    cfn.destroy();
    s3.destroy();

    server = await localStart(dataDir);
    ({ cfn, s3 } = clients(server.url));
    assert.is((await settle(cfn, 'nested-dev')).StackStatus, 'UPDATE_ROLLBACK_COMPLETE');
    assert.equal(await liveStacks(), ['nested-dev UPDATE_ROLLBACK_COMPLETE']);

    await succeeds(fw(work, ['remove', '--endpoint-url', server.url]));
    assert.equal(await liveStacks(), []);
    writeFileSync(join(work, 'fw.yml'), service('nested', ['hello']));
    await succeeds(fw(work, ['deploy', '--endpoint-url', server.url]));
    const stack = await settle(cfn, 'nested-dev');
    assert.is(stack.StackStatus, 'UPDATE_COMPLETE');
    assert.is(await get(stack, '/hello'), '200 hi from /hello');
  } finally {
    cfn.destroy();
    s3.destroy();
    await stopServer(server);
  }
});

interrupt('Ctrl-C or SIGTERM while packaging removes the staging folder, and a killed run’s staging folder goes with the next package', async ({ work }) => {
  // Incompressible files, so that zipping takes a while.
  mkdirSync(join(work, 'assets'));
  const block = Buffer.alloc(4 * 1024 * 1024);
  for (let i = 0; i < 12; i++) {
    for (let j = 0; j < block.length; j += 4) block.writeUInt32LE((Math.random() * 0xffffffff) >>> 0, j);
    writeFileSync(join(work, 'assets', `blob${i}.bin`), block);
  }
  writeFileSync(join(work, 'fw.yml'), service('big', ['hello']));
  const stagingFolders = () => readdirSync(work).filter((name) => name.startsWith('.serverless.'));
  const run = fw(work, ['package']);
  while (stagingFolders().length === 0 && run.child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 5));
  const [staging] = stagingFolders();
  assert.is(staging, `.serverless.tmp-${run.child.pid}`);
  run.child.kill('SIGINT');
  assert.is(await run.code, 130, `${run.stdout}\n${run.stderr}`);
  assert.is(run.stderr, `\nInterrupted (SIGINT) while packaging; removed the unfinished ${join(work, staging)}.\n`);
  assert.equal(stagingFolders(), []);

  // SIGTERM during the packaging step of a deploy (nothing is reached: packaging comes first).
  const deploy = fw(work, ['deploy', '--endpoint-url', 'http://127.0.0.1:9']);
  while (stagingFolders().length === 0 && deploy.child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 5));
  deploy.child.kill('SIGTERM');
  assert.is(await deploy.code, 130, `${deploy.stdout}\n${deploy.stderr}`);
  assert.is(deploy.stderr, `\nInterrupted (SIGTERM) while packaging; removed the unfinished ${join(work, `.serverless.tmp-${deploy.child.pid}`)}.\n`);
  assert.equal(stagingFolders(), []);

  // What a kill -9 leaves: the folder of a process that no longer exists.
  mkdirSync(join(work, '.serverless.tmp-999999999', 'deep'), { recursive: true });
  writeFileSync(join(work, '.serverless.tmp-999999999', 'deep', 'service.zip'), 'partial');
  await succeeds(fw(work, ['package']));
  assert.equal(stagingFolders(), []);
  assert.is(existsSync(join(work, '.serverless', 'cloudformation-template-update-stack.json')), true);
});

interrupt.run();
