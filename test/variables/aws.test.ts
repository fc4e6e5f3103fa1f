import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { secretValues } from '../../src/secrets';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalCloud, type RunningLocalCloud } from '../../src/local';
import { errorOf, resolve } from './helpers';

/**
 * The AWS-backed sources against fw's local cloud (real CloudFormation, S3,
 * SSM and STS APIs on 127.0.0.1), behind a proxy that counts the calls.
 */
const credentials = { accessKeyId: 'AKIAFAKE', secretAccessKey: 'fake' };
let cloud: RunningLocalCloud;
let proxy: Server;
let endpoint: string;
let dataDir: string;
const calls: string[] = [];

function callName(method: string, url: string, headers: Record<string, string | string[] | undefined>, body: string): string {
  const target = headers['x-amz-target'];
  if (typeof target === 'string') return target.split('.').pop()!;
  const action = /(?:^|&)Action=([^&]+)/.exec(body)?.[1];
  if (action) return action;
  return `${method} ${url}`;
}

const aws = suite('AWS-backed sources (local cloud)');

aws.before(async () => {
  try {
    await setUp();
  } catch (error) {
    // uvu swallows a failing before hook; say why every test will fail.
    console.error(error);
    throw error;
  }
});

async function setUp(): Promise<void> {
  dataDir = mkdtempSync(join(tmpdir(), 'fw-vars-aws-'));
  cloud = await startLocalCloud({ port: 0, dataDir, quiet: true });
  proxy = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      calls.push(callName(incoming.method ?? '', incoming.url ?? '', incoming.headers, body.toString('utf8')));
      const forward = request(`${cloud.url}${incoming.url}`, { method: incoming.method, headers: incoming.headers }, (answer) => {
        outgoing.writeHead(answer.statusCode ?? 500, answer.headers);
        answer.pipe(outgoing);
      });
      forward.end(body);
    });
  });
  await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
  endpoint = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;

  const config = { endpoint: cloud.url, region: 'us-east-1', credentials };
  const { SSMClient, PutParameterCommand } = await import('@aws-sdk/client-ssm');
  const ssm = new SSMClient(config);
  await ssm.send(new PutParameterCommand({ Name: '/app/plain', Value: 'plain-value', Type: 'String' }));
  await ssm.send(new PutParameterCommand({ Name: '/app/json', Value: '{"user":"u","port":5432}', Type: 'SecureString' }));
  await ssm.send(new PutParameterCommand({ Name: '/app/list', Value: 'a,b,c', Type: 'StringList' }));
  await ssm.send(new PutParameterCommand({ Name: '/app/flag', Value: 'TRUE', Type: 'String' }));
  ssm.destroy();
  const euSsm = new SSMClient({ ...config, region: 'eu-west-1' });
  await euSsm.send(new PutParameterCommand({ Name: '/app/eu-only', Value: 'eu-value', Type: 'String' }));
  euSsm.destroy();
  const { S3Client, CreateBucketCommand, PutObjectCommand } = await import('@aws-sdk/client-s3');
  const s3 = new S3Client({ ...config, forcePathStyle: true });
  await s3.send(new CreateBucketCommand({ Bucket: 'config-bucket' }));
  await s3.send(new PutObjectCommand({ Bucket: 'config-bucket', Key: 'keys/api.txt', Body: 's3-secret' }));
  s3.destroy();
  const { CloudFormationClient, CreateStackCommand, DescribeStacksCommand } = await import('@aws-sdk/client-cloudformation');
  // The local cloud keeps one namespace for all regions, so each region gets its own stack name.
  for (const [region, stackName] of [['us-east-1', 'other-dev'], ['eu-west-1', 'far-dev']]) {
    const cf = new CloudFormationClient({ ...config, region });
    const template = { Resources: { Handle: { Type: 'AWS::CloudFormation::WaitConditionHandle' } }, Outputs: { TableName: { Value: `users-${region}` } } };
    await cf.send(new CreateStackCommand({ StackName: stackName, TemplateBody: JSON.stringify(template) }));
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const stack = (await cf.send(new DescribeStacksCommand({ StackName: stackName }))).Stacks?.[0];
      if (!stack?.StackStatus?.endsWith('IN_PROGRESS')) break;
      await new Promise((done) => setTimeout(done, 20));
    }
    cf.destroy();
  }
}

aws.after(async () => {
  await new Promise<void>((done) => {
    proxy.close(() => done());
    proxy.closeAllConnections();
  });
  await cloud.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

aws.before.each(() => {
  calls.length = 0;
});

const context = () => ({ aws: { endpoint, credentials } });

aws('ssm: reads a parameter; SecureString JSON is parsed, StringList split, raw kept as text', async () => {
  const config = await resolve(
    { a: '${ssm:/app/plain}', b: '${ssm:/app/json}', c: '${ssm:/app/list}', d: '${ssm(raw):/app/list}', e: '${ssm(raw):/app/json}', f: '${ssm(noDecrypt):/app/plain}' },
    context(),
  );
  assert.equal(config, { a: 'plain-value', b: { user: 'u', port: 5432 }, c: ['a', 'b', 'c'], d: 'a,b,c', e: '{"user":"u","port":5432}', f: 'plain-value' });
});

aws('ssm: a region parameter, alone or with an instruction', async () => {
  const config = await resolve({ a: '${ssm(eu-west-1):/app/eu-only}', b: '${ssm(eu-west-1, raw):/app/eu-only}' }, context());
  assert.equal(config, { a: 'eu-value', b: 'eu-value' });
});

aws('ssm: a missing parameter takes the fallback, or is an error naming it', async () => {
  assert.is((await resolve({ a: "${ssm:/app/nope, 'fb'}" }, context())).a, 'fb');
  assert.is(await errorOf(() => resolve({ a: '${ssm:/app/nope}' }, context())), 'Cannot resolve variable at "a": ${ssm:/app/nope} has no value (no such parameter) and has no fallback');
});

aws('strToBool reads an SSM flag', async () => {
  assert.is((await resolve({ a: '${strToBool(${ssm:/app/flag})}' }, context())).a, true);
});

aws('s3: reads an object as text', async () => {
  const config = await resolve({ a: '${s3:config-bucket/keys/api.txt}', b: "${s3:config-bucket/nope, 'fb'}" }, context());
  assert.equal(config, { a: 's3-secret', b: 'fb' });
});

aws('cf: reads a stack output, in the service region or another one', async () => {
  const config = await resolve({ provider: { region: 'us-east-1' }, a: '${cf:other-dev.TableName}', b: '${cf(eu-west-1):far-dev.TableName}', c: "${cf:other-dev.Nope, 'no-output'}", d: "${cf:missing-stack.X, 'no-stack'}" }, context());
  assert.equal([config.a, config.b, config.c, config.d], ['users-us-east-1', 'users-eu-west-1', 'no-output', 'no-stack']);
});

aws('aws:accountId asks STS who the caller is', async () => {
  assert.is((await resolve({ a: '${aws:accountId}' }, context())).a, '000000000000');
});

aws('each distinct address is fetched once, however often it is used', async () => {
  await resolve({ a: '${ssm:/app/plain}', b: 'x-${ssm:/app/plain}', c: ['${ssm:/app/plain}', '${ssm:/app/list}'], d: '${aws:accountId}', e: '${aws:accountId}' }, context());
  assert.equal(calls.sort(), ['GetCallerIdentity', 'GetParameter', 'GetParameter']);
});

aws('AWS is not called when no AWS-backed variable is used (even in an unused fallback)', async () => {
  await resolve({ a: "${opt:x, ssm:/app/plain}", b: '${env:HOME_X, ssm:/app/plain}' }, { ...context(), options: { x: 'given' }, env: { HOME_X: 'h' } });
  assert.equal(calls, []);
});

aws('values read from ssm:, s3: and cf: are recorded with the variable they came from, for masking', async () => {
  secretValues.clear();
  await resolve({ a: '${ssm:/app/json}', b: '${s3:config-bucket/keys/api.txt}', c: '${cf:other-dev.TableName}', d: '${aws:region}' }, context());
  assert.equal(secretValues.entries(), [
    ['u', 'ssm:/app/json'],
    ['5432', 'ssm:/app/json'],
    ['s3-secret', 's3:config-bucket/keys/api.txt'],
    ['users-us-east-1', 'cf:other-dev.TableName'],
  ]);
  secretValues.clear();
});

aws.run();
