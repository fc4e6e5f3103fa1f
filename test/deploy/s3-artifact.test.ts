import { GetFunctionCommand, InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { handlerZip } from '../helpers/aws-call-scenarios';
import { LOCAL_CREDENTIALS, startTestService, type TestService } from '../helpers/local-cloud';

/**
 * `package.artifact: s3://bucket/key.zip`, as Serverless v3 deploys it: downloaded, hashed and
 * uploaded to the deployment bucket on every deploy, so a new object at the same key is new code.
 */

const ARTIFACT_SERVICE = (where: 'service' | 'function') =>
  [
    'service: s3art',
    'provider:',
    '  name: aws',
    '  runtime: nodejs20.x',
    ...(where === 'service' ? ['package:', '  artifact: s3://s3art-builds/code/app.zip'] : []),
    'functions:',
    '  hello:',
    '    handler: handler.main',
    ...(where === 'function' ? ['    package:', '      artifact: s3://s3art-builds/code/app.zip'] : []),
    '',
  ].join('\n');

async function putZip(service: TestService, answer: string): Promise<void> {
  await service.s3.send(new CreateBucketCommand({ Bucket: 's3art-builds' })).catch(() => undefined);
  await service.s3.send(new PutObjectCommand({ Bucket: 's3art-builds', Key: 'code/app.zip', Body: handlerZip(answer) }));
}

async function invoke(service: TestService): Promise<string> {
  const lambda = new LambdaClient({ endpoint: service.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
  const result = await lambda.send(new InvokeCommand({ FunctionName: 's3art-dev-hello' }));
  return (JSON.parse(Buffer.from(result.Payload!).toString()) as { body: string }).body;
}

async function deploy(service: TestService, ...args: string[]): Promise<string> {
  const { code, stdout, stderr } = await service.fw('deploy', ...args);
  assert.equal({ code, stderr }, { code: 0, stderr: '' }, stdout);
  return stdout;
}

const artifact = suite<{ service?: TestService }>('package.artifact from S3');

artifact.after.each(async context => {
  await context.service?.stop();
  context.service = undefined;
});

for (const where of ['service', 'function'] as const) {
  artifact(`a ${where}-level s3:// artifact is deployed from the deployment bucket, and a new object at the same key deploys new code`, async context => {
    const service = (context.service = await startTestService({ 'fw.yml': ARTIFACT_SERVICE(where) }));
    await putZip(service, 'A');
    await deploy(service);
    assert.is(await invoke(service), 'A');

    const template = JSON.parse(readFileSync(join(service.service, '.serverless/cloudformation-template-update-stack.json'), 'utf8'));
    const code = template.Resources.HelloLambdaFunction.Properties.Code;
    assert.equal(code.S3Bucket, { Ref: 'ServerlessDeploymentBucket' });
    assert.match(code.S3Key, /^serverless\/s3art\/dev\/\d+-[^/]+\/app\.zip$/);
    const version = Object.entries(template.Resources as Record<string, { Type: string; Properties: { CodeSha256?: string } }>).find(([, r]) => r.Type === 'AWS::Lambda::Version')!;
    const zipA = handlerZip('A');
    assert.is(version[1].Properties.CodeSha256, createHash('sha256').update(zipA).digest('base64'));

    await putZip(service, 'B');
    const second = await deploy(service);
    assert.not.match(second, /No changes to deploy/);
    assert.is(await invoke(service), 'B');
  });
}

artifact('an unchanged object deploys as no change; --force deploys it again', async context => {
  const service = (context.service = await startTestService({ 'fw.yml': ARTIFACT_SERVICE('service') }));
  await putZip(service, 'A');
  await deploy(service);
  assert.match(await deploy(service), /No changes to deploy/);
  assert.not.match(await deploy(service, '--force'), /No changes to deploy/);
  assert.is(await invoke(service), 'A');
  const lambda = new LambdaClient({ endpoint: service.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
  const deployed = await lambda.send(new GetFunctionCommand({ FunctionName: 's3art-dev-hello' }));
  assert.is(deployed.Configuration?.CodeSha256, createHash('sha256').update(handlerZip('A')).digest('base64'));
});

artifact('a missing object is one line naming it', async context => {
  const service = (context.service = await startTestService({ 'fw.yml': ARTIFACT_SERVICE('service') }));
  await service.s3.send(new CreateBucketCommand({ Bucket: 's3art-builds' }));
  const { code, stderr } = await service.fw('deploy');
  assert.equal({ code, stderr }, { code: 1, stderr: 'Error: Cannot download the artifact s3://s3art-builds/code/app.zip (package.artifact): NoSuchKey: The specified key does not exist.\n' });
});

artifact.run();
