import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateStackCommand } from '@aws-sdk/client-cloudformation';
import {
  DeleteFunctionConcurrencyCommand,
  GetAccountSettingsCommand,
  GetFunctionCommand,
  GetFunctionConcurrencyCommand,
  InvokeCommand,
  LambdaClient,
  PutFunctionConcurrencyCommand,
  type InvokeCommandOutput,
} from '@aws-sdk/client-lambda';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { GetQueueUrlCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { CloudWatchClient, GetMetricStatisticsCommand } from '@aws-sdk/client-cloudwatch';
import { KinesisClient, PutRecordCommand } from '@aws-sdk/client-kinesis';
import { failure, outputsOf, settle, startTestCloud, zip, type TestCloud } from './helpers';
import { concurrencyLimitFrom } from '../../src/local/runtime/concurrency';
import { idleSecondsFrom } from '../../src/local/runtime/functions';

const HANDLERS: Record<string, string> = {
  // Sleeps as long as asked and says when it ran, in which environment (log stream) and process.
  'sleep.js': `exports.handler = async (event, context) => {
    const started = Date.now();
    await new Promise((resolve) => setTimeout(resolve, (event && event.ms) || 0));
    if (event && event.file) require('fs').writeFileSync(event.file, 'ran');
    return { started, ended: Date.now(), stream: context.logStreamName, pid: process.pid };
  };`,
  'http.js': `exports.handler = async () => { await new Promise((resolve) => setTimeout(resolve, 1500)); return { statusCode: 200, body: 'ok' }; };`,
  'big.js': `exports.handler = async (event) => 'A'.repeat(event.bytes);`,
  'hog.js': `exports.handler = async (event) => { const kept = []; for (let i = 0; i < event.mb / 16; i++) { kept.push(Buffer.alloc(16 * 1024 * 1024, 1)); await new Promise((r) => setTimeout(r, 5)); } return kept.length; };`,
  'queue.js': `exports.handler = async (event) => { for (const record of event.Records) require('fs').writeFileSync(record.body, String(record.attributes.ApproximateReceiveCount)); };`,
  'stream.js': `exports.handler = async (event) => { for (const record of event.Records) require('fs').writeFileSync(Buffer.from(record.kinesis.data, 'base64').toString(), 'ran'); };`,
  'spawner.js': `exports.handler = async () => { const child = require('child_process').spawn('sleep', ['300'], { stdio: 'ignore' }); return { child: child.pid, self: process.pid }; };`,
};

const CODE_KEY = 'app/code.zip';
const fnArn = (logicalId: string) => ({ 'Fn::GetAtt': [logicalId, 'Arn'] });

function lambdaFunction(name: string, handler: string, extra: Record<string, unknown> = {}) {
  return {
    Type: 'AWS::Lambda::Function',
    Properties: { Code: { S3Bucket: 'deploys', S3Key: CODE_KEY }, Handler: handler, Runtime: 'nodejs20.x', FunctionName: `app-dev-${name}`, MemorySize: 1024, Timeout: 10, Role: 'arn:aws:iam::000000000000:role/app', ...extra },
  };
}

const template = {
  AWSTemplateFormatVersion: '2010-09-09',
  Resources: {
    SleepLambdaFunction: lambdaFunction('sleep', 'sleep.handler'),
    // What `reservedConcurrency: 5` in the service file writes.
    ReservedLambdaFunction: lambdaFunction('reserved', 'sleep.handler', { ReservedConcurrentExecutions: 5 }),
    HttpLambdaFunction: lambdaFunction('http', 'http.handler', { ReservedConcurrentExecutions: 2 }),
    BigLambdaFunction: lambdaFunction('big', 'big.handler'),
    HogLambdaFunction: lambdaFunction('hog', 'hog.handler', { MemorySize: 256 }),
    SpawnerLambdaFunction: lambdaFunction('spawner', 'spawner.handler'),
    QueueLambdaFunction: lambdaFunction('queue', 'queue.handler', { ReservedConcurrentExecutions: 0 }),
    StreamLambdaFunction: lambdaFunction('stream', 'stream.handler', { ReservedConcurrentExecutions: 0 }),
    Events: { Type: 'AWS::Kinesis::Stream', Properties: { Name: 'events', ShardCount: 1 } },
    StreamEventSourceMappingKinesisEvents: {
      Type: 'AWS::Lambda::EventSourceMapping',
      // No retry of a failed batch: a throttled one is retried all the same, as Lambda does.
      Properties: { EventSourceArn: { 'Fn::GetAtt': ['Events', 'Arn'] }, FunctionName: { 'Fn::GetAtt': ['StreamLambdaFunction', 'Arn'] }, StartingPosition: 'TRIM_HORIZON', MaximumRetryAttempts: 0 },
    },
    Jobs: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'jobs', VisibilityTimeout: 1 } },
    QueueEventSourceMappingSQSJobs: { Type: 'AWS::Lambda::EventSourceMapping', Properties: { EventSourceArn: { 'Fn::GetAtt': ['Jobs', 'Arn'] }, FunctionName: { 'Fn::GetAtt': ['QueueLambdaFunction', 'Arn'] }, BatchSize: 1 } },
    HttpApi: { Type: 'AWS::ApiGatewayV2::Api', Properties: { Name: 'dev-app', ProtocolType: 'HTTP' } },
    HttpApiStage: { Type: 'AWS::ApiGatewayV2::Stage', Properties: { ApiId: { Ref: 'HttpApi' }, StageName: '$default', AutoDeploy: true } },
    HttpApiIntegration: { Type: 'AWS::ApiGatewayV2::Integration', Properties: { ApiId: { Ref: 'HttpApi' }, IntegrationType: 'AWS_PROXY', IntegrationUri: fnArn('HttpLambdaFunction'), PayloadFormatVersion: '2.0' } },
    HttpApiRoute: { Type: 'AWS::ApiGatewayV2::Route', Properties: { ApiId: { Ref: 'HttpApi' }, RouteKey: 'GET /work', Target: { 'Fn::Join': ['/', ['integrations', { Ref: 'HttpApiIntegration' }]] } } },
    ApiGatewayRestApi: { Type: 'AWS::ApiGateway::RestApi', Properties: { Name: 'dev-app' } },
    ApiGatewayResourceWork: { Type: 'AWS::ApiGateway::Resource', Properties: { ParentId: { 'Fn::GetAtt': ['ApiGatewayRestApi', 'RootResourceId'] }, PathPart: 'work', RestApiId: { Ref: 'ApiGatewayRestApi' } } },
    ApiGatewayMethodWorkGet: {
      Type: 'AWS::ApiGateway::Method',
      Properties: {
        HttpMethod: 'GET', ResourceId: { Ref: 'ApiGatewayResourceWork' }, RestApiId: { Ref: 'ApiGatewayRestApi' }, AuthorizationType: 'NONE',
        Integration: { IntegrationHttpMethod: 'POST', Type: 'AWS_PROXY', Uri: { 'Fn::Join': ['', ['arn:aws:apigateway:us-east-1:lambda:path/2015-03-31/functions/', fnArn('HttpLambdaFunction'), '/invocations']] } },
      },
    },
    ApiGatewayDeployment1: { Type: 'AWS::ApiGateway::Deployment', Properties: { RestApiId: { Ref: 'ApiGatewayRestApi' }, StageName: 'dev' }, DependsOn: ['ApiGatewayMethodWorkGet'] },
  },
  Outputs: {
    HttpApiUrl: { Value: { 'Fn::Join': ['', ['https://', { Ref: 'HttpApi' }, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }]] } },
    ServiceEndpoint: { Value: { 'Fn::Join': ['', ['https://', { Ref: 'ApiGatewayRestApi' }, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }, '/dev']] } },
  },
};

interface Context {
  t: TestCloud;
  lambda: LambdaClient;
  outputs: Record<string, string>;
  scratch: string;
}

async function deploy(context: Context, options: Parameters<typeof startTestCloud>[1] = {}): Promise<void> {
  context.t = await startTestCloud(undefined, options);
  context.lambda = new LambdaClient({ ...context.t.config, maxAttempts: 1 });
  context.scratch = mkdtempSync(join(tmpdir(), 'fw-concurrency-'));
  await context.t.s3.send(new CreateBucketCommand({ Bucket: 'deploys' }));
  await context.t.s3.send(new PutObjectCommand({ Bucket: 'deploys', Key: CODE_KEY, Body: await zip(HANDLERS) }));
  await context.t.cfn.send(new CreateStackCommand({ StackName: 'app-dev', TemplateBody: JSON.stringify(template) }));
  const stack = await settle(context.t.cfn, 'app-dev');
  assert.is(stack.StackStatus, 'CREATE_COMPLETE', stack.StackStatusReason);
  context.outputs = outputsOf(stack);
}

async function teardown(context: Context): Promise<void> {
  context.lambda.destroy();
  await context.t.stop();
  rmSync(context.scratch, { recursive: true, force: true });
}

type Ran = { started: number; ended: number; stream: string; pid: number };
const parse = <T>(output: InvokeCommandOutput): T => JSON.parse(Buffer.from(output.Payload!).toString('utf8')) as T;
const invoke = (lambda: LambdaClient, name: string, event: unknown) => lambda.send(new InvokeCommand({ FunctionName: name, Payload: Buffer.from(JSON.stringify(event)) }));

/** The outcome of each call, in order: `ok`, or the error's name and throttle reason. */
async function outcomes(calls: Promise<unknown>[]): Promise<string[]> {
  const settled = await Promise.allSettled(calls);
  return settled.map((result) => {
    if (result.status === 'fulfilled') return 'ok';
    const error = result.reason as Error & { Reason?: string; $metadata?: { httpStatusCode?: number } };
    return `${error.$metadata?.httpStatusCode} ${error.name} ${error.Reason}`;
  });
}

const count = (values: string[]) => values.reduce<Record<string, number>>((counts, value) => ({ ...counts, [value]: (counts[value] ?? 0) + 1 }), {});

const model = suite<Context>("Lambda's concurrency model in the local cloud");
model.before((context) => deploy(context));
model.after((context) => teardown(context));

model('12 concurrent 3-second invocations run side by side, each in an environment of its own, in about 3 s', async ({ lambda }) => {
  const began = Date.now();
  const results = (await Promise.all(Array.from({ length: 12 }, () => invoke(lambda, 'app-dev-sleep', { ms: 3000 })))).map((output) => parse<Ran>(output));
  const wall = Date.now() - began;
  assert.is(new Set(results.map((result) => result.stream)).size, 12);
  // All twelve were running at one instant: the last to start started before the first to end ended.
  assert.ok(Math.max(...results.map((r) => r.started)) < Math.min(...results.map((r) => r.ended)), 'the invocations overlapped');
  // Queued 8 at a time they took two rounds (6 s and more); twelve cold starts on a busy machine add a little.
  assert.ok(wall < 5700, `took ${wall} ms`);
});

model('50 concurrent calls against reservedConcurrency 5: 5 succeed, 45 are throttled with Lambda\'s 429, counted as Throttles', async ({ t, lambda }) => {
  const results = await outcomes(Array.from({ length: 50 }, () => invoke(lambda, 'app-dev-reserved', { ms: 4000 })));
  assert.equal(count(results), { ok: 5, '429 TooManyRequestsException ReservedFunctionConcurrentInvocationLimitExceeded': 45 });
  const cloudwatch = new CloudWatchClient({ ...t.config, maxAttempts: 1 });
  const statistic = async (MetricName: string) => {
    const { Datapoints } = await cloudwatch.send(
      new GetMetricStatisticsCommand({ Namespace: 'AWS/Lambda', MetricName, Dimensions: [{ Name: 'FunctionName', Value: 'app-dev-reserved' }], StartTime: new Date(Date.now() - 600_000), EndTime: new Date(Date.now() + 60_000), Period: 3600, Statistics: ['Sum'] }),
    );
    return (Datapoints ?? []).reduce((sum, point) => sum + (point.Sum ?? 0), 0);
  };
  assert.equal([await statistic('Invocations'), await statistic('Throttles')], [5, 45]);
  cloudwatch.destroy();
  // Once they are done, the reservation serves again.
  assert.is(parse<Ran>(await invoke(lambda, 'app-dev-reserved', {})).pid > 0, true);
});

model('the throttle as it comes over the wire: status, error type header and body', async ({ t }) => {
  const headers = { authorization: `AWS4-HMAC-SHA256 Credential=AKIDLOCAL/20250101/us-east-1/lambda/aws4_request, SignedHeaders=host, Signature=${'0'.repeat(64)}` };
  const url = `${t.cloud.url}/2015-03-31/functions/app-dev-reserved/invocations`;
  const running = Array.from({ length: 5 }, () => fetch(url, { method: 'POST', headers, body: '{"ms":800}' }));
  await new Promise((resolve) => setTimeout(resolve, 300));
  const throttled = await fetch(url, { method: 'POST', headers, body: '{}' });
  assert.is(throttled.status, 429);
  assert.is(throttled.headers.get('x-amzn-errortype'), 'TooManyRequestsException');
  assert.equal(await throttled.json(), { __type: 'TooManyRequestsException', message: 'Rate Exceeded.', Message: 'Rate Exceeded.', Reason: 'ReservedFunctionConcurrentInvocationLimitExceeded', Type: 'User' });
  assert.equal((await Promise.all(running)).map((response) => response.status), [200, 200, 200, 200, 200]);
});

model('HTTP and REST APIs answer a throttled function with an internal server error, as API Gateway does', async ({ outputs }) => {
  const http = await Promise.all(Array.from({ length: 6 }, () => fetch(`${outputs.HttpApiUrl}/work`).then(async (r) => `${r.status} ${await r.text()}`)));
  assert.equal(count(http), { '200 ok': 2, '500 {"message":"Internal Server Error"}': 4 });
  const rest = await Promise.all(Array.from({ length: 6 }, () => fetch(`${outputs.ServiceEndpoint}/work`).then(async (r) => `${r.status} ${await r.text()}`)));
  assert.equal(count(rest), { '200 ok': 2, '500 {"message":"Internal server error"}': 4 });
});

model('Put, Get and DeleteFunctionConcurrency; reserved concurrency 0 throttles every call', async ({ lambda }) => {
  assert.equal((await lambda.send(new GetFunctionConcurrencyCommand({ FunctionName: 'app-dev-sleep' }))).ReservedConcurrentExecutions, undefined);
  const put = await lambda.send(new PutFunctionConcurrencyCommand({ FunctionName: 'app-dev-sleep', ReservedConcurrentExecutions: 0 }));
  assert.is(put.ReservedConcurrentExecutions, 0);
  assert.is((await lambda.send(new GetFunctionConcurrencyCommand({ FunctionName: 'app-dev-sleep' }))).ReservedConcurrentExecutions, 0);
  assert.equal((await lambda.send(new GetFunctionCommand({ FunctionName: 'app-dev-sleep' }))).Concurrency, { ReservedConcurrentExecutions: 0 });
  assert.equal(await outcomes([invoke(lambda, 'app-dev-sleep', {})]), ['429 TooManyRequestsException ReservedFunctionConcurrentInvocationLimitExceeded']);
  const settings = await lambda.send(new GetAccountSettingsCommand({}));
  // 1,000 less the reservations: 5 (reserved), 2 (http) and 0.
  assert.equal([settings.AccountLimit?.ConcurrentExecutions, settings.AccountLimit?.UnreservedConcurrentExecutions], [1000, 993]);
  const tooMuch = await failure(lambda.send(new PutFunctionConcurrencyCommand({ FunctionName: 'app-dev-sleep', ReservedConcurrentExecutions: 950 })));
  assert.is(tooMuch?.name, 'InvalidParameterValueException');
  assert.is(tooMuch?.message, "Specified ReservedConcurrentExecutions for function decreases account's UnreservedConcurrentExecution below its minimum value of [100].");
  await lambda.send(new DeleteFunctionConcurrencyCommand({ FunctionName: 'app-dev-sleep' }));
  assert.equal((await lambda.send(new GetFunctionConcurrencyCommand({ FunctionName: 'app-dev-sleep' }))).ReservedConcurrentExecutions, undefined);
  assert.ok(parse<Ran>(await invoke(lambda, 'app-dev-sleep', {})).pid > 0);
});

model('an asynchronous invocation that is throttled is retried until the function may run', async ({ lambda, scratch }) => {
  await lambda.send(new PutFunctionConcurrencyCommand({ FunctionName: 'app-dev-sleep', ReservedConcurrentExecutions: 0 }));
  const file = join(scratch, 'async-ran');
  const accepted = await lambda.send(new InvokeCommand({ FunctionName: 'app-dev-sleep', InvocationType: 'Event', Payload: Buffer.from(JSON.stringify({ file })) }));
  assert.is(accepted.StatusCode, 202);
  await new Promise((resolve) => setTimeout(resolve, 400));
  assert.is(existsSync(file), false);
  await lambda.send(new DeleteFunctionConcurrencyCommand({ FunctionName: 'app-dev-sleep' }));
  // The first retry comes 1 s after the throttle.
  for (let waited = 0; !existsSync(file) && waited < 3000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.is(readFileSync(file, 'utf8'), 'ran');
});

model('an SQS message whose function is throttled goes back to the queue and is delivered once the function may run', async ({ t, lambda, scratch }) => {
  const sqs = new SQSClient({ ...t.config, maxAttempts: 1 });
  const file = join(scratch, 'queue-ran');
  const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: 'jobs' }));
  await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: file }));
  sqs.destroy();
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.is(existsSync(file), false);
  await lambda.send(new DeleteFunctionConcurrencyCommand({ FunctionName: 'app-dev-queue' }));
  // Visible again when its 1 s visibility timeout ends, and received a second time.
  for (let waited = 0; !existsSync(file) && waited < 4000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.is(readFileSync(file, 'utf8'), '2');
});

model('a stream batch whose function is throttled is retried without spending a retry attempt', async ({ t, lambda, scratch }) => {
  const kinesis = new KinesisClient({ ...t.config, maxAttempts: 1 });
  const file = join(scratch, 'stream-ran');
  await kinesis.send(new PutRecordCommand({ StreamName: 'events', PartitionKey: 'pk', Data: new TextEncoder().encode(file) }));
  kinesis.destroy();
  await new Promise((resolve) => setTimeout(resolve, 1500));
  assert.is(existsSync(file), false);
  await lambda.send(new DeleteFunctionConcurrencyCommand({ FunctionName: 'app-dev-stream' }));
  for (let waited = 0; !existsSync(file) && waited < 3000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.is(readFileSync(file, 'utf8'), 'ran');
});

model('a response over 6 MB is a function error, as Lambda answers it; requests over the limits are refused', async ({ lambda }) => {
  const small = await invoke(lambda, 'app-dev-big', { bytes: 6_000_000 });
  assert.is(small.FunctionError, undefined);
  assert.is(parse<string>(small).length, 6_000_000);
  const big = await invoke(lambda, 'app-dev-big', { bytes: 7_000_000 });
  assert.is(big.FunctionError, 'Unhandled');
  assert.equal(parse(big), { errorMessage: 'Response payload size exceeded maximum allowed payload size (6291556 bytes).', errorType: 'Function.ResponseSizeTooLarge' });
  const request = await failure(invoke(lambda, 'app-dev-big', { bytes: 1, pad: 'x'.repeat(6_300_000) }));
  assert.equal([request?.name, request?.$metadata?.httpStatusCode, request?.message], ['RequestEntityTooLargeException', 413, 'Request must be smaller than 6291456 bytes for the InvokeFunction operation']);
  const event = await failure(lambda.send(new InvokeCommand({ FunctionName: 'app-dev-big', InvocationType: 'Event', Payload: Buffer.from(JSON.stringify({ pad: 'x'.repeat(1_100_000) })) })));
  assert.equal([event?.name, event?.$metadata?.httpStatusCode], ['RequestEntityTooLargeException', 413]);
});

model('a function whose process holds more memory than its setting is killed, as Lambda kills it', async ({ lambda }) => {
  // 512 MB of Buffers (outside the JS heap) in a 256 MB function.
  const output = await invoke(lambda, 'app-dev-hog', { mb: 512 });
  assert.is(output.FunctionError, 'Unhandled');
  const error = parse<{ errorType: string; errorMessage: string }>(output);
  assert.is(error.errorType, 'Runtime.ExitError');
  assert.match(error.errorMessage, /^RequestId: [0-9a-f-]{36} Error: Runtime exited with error: signal: killed$/);
  // Within the setting it runs.
  assert.is(parse<number>(await invoke(lambda, 'app-dev-hog', { mb: 64 })), 4);
});

model.run();

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const limits = suite<Context>('the account concurrency limit and idle environments');
limits.before((context) => deploy(context, { functions: { concurrencyLimit: 10, idleSeconds: 1 } }));
limits.after((context) => teardown(context));

limits('past the account limit, functions without a reservation are throttled with ConcurrentInvocationLimitExceeded', async ({ lambda }) => {
  // The stack reserves 5 + 2 of 10: 3 are left to the others.
  const results = await outcomes(Array.from({ length: 4 }, () => invoke(lambda, 'app-dev-sleep', { ms: 1500 })));
  assert.equal(count(results), { ok: 3, '429 TooManyRequestsException ConcurrentInvocationLimitExceeded': 1 });
  const tooMuch = await failure(lambda.send(new PutFunctionConcurrencyCommand({ FunctionName: 'app-dev-sleep', ReservedConcurrentExecutions: 3 })));
  assert.is(tooMuch?.message, "Specified ReservedConcurrentExecutions for function decreases account's UnreservedConcurrentExecution below its minimum value of [1].");
});

limits('an idle environment is retired after the idle time, with the processes its function started', async ({ lambda }) => {
  const { child, self } = parse<{ child: number; self: number }>(await invoke(lambda, 'app-dev-spawner', {}));
  assert.equal([alive(child), alive(self)], [true, true]);
  for (let waited = 0; (alive(child) || alive(self)) && waited < 4000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal([alive(child), alive(self)], [false, false]);
});

limits.run();

const options = suite('--concurrency-limit and --function-idle-timeout');

options('their defaults are AWS\'s 1,000 and 120 s; a bad value is one line naming where it came from', () => {
  assert.equal([concurrencyLimitFrom(undefined, '--concurrency-limit'), concurrencyLimitFrom('50', '--concurrency-limit')], [1000, 50]);
  assert.equal([idleSecondsFrom(undefined, '--function-idle-timeout'), idleSecondsFrom('2.5', '--function-idle-timeout')], [120, 2.5]);
  assert.throws(
    () => concurrencyLimitFrom('0', '$FW_LOCAL_CONCURRENCY_LIMIT'),
    (error: Error) => error.message === 'Invalid $FW_LOCAL_CONCURRENCY_LIMIT: expected a whole number of concurrent executions of at least 1, got "0"',
  );
  assert.throws(
    () => idleSecondsFrom('soon', '--function-idle-timeout'),
    (error: Error) => error.message === 'Invalid --function-idle-timeout: expected the seconds an idle function environment lives (a number of at least 1), got "soon"',
  );
});

options.run();
