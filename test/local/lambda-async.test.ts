import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudFormationClient, CreateStackCommand } from '@aws-sdk/client-cloudformation';
import {
  DeleteFunctionConcurrencyCommand,
  DeleteFunctionEventInvokeConfigCommand,
  GetFunctionEventInvokeConfigCommand,
  InvokeCommand,
  LambdaClient,
  ListFunctionEventInvokeConfigsCommand,
  PutFunctionEventInvokeConfigCommand,
  UpdateFunctionEventInvokeConfigCommand,
} from '@aws-sdk/client-lambda';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { GetQueueUrlCommand, ReceiveMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import { startLocalCloud, type RunningLocalCloud } from '../../src/local/index';
import { credentials, failure, settle, zip } from './helpers';

const HANDLERS = {
  // Each attempt appends a line to the file the event names, then fails or succeeds as asked.
  'work.js': `exports.handler = async (event) => {
    require('fs').appendFileSync(event.file, 'ran\\n');
    if (event.fail) throw new Error('boom: ' + event.fail);
    return { done: event.file.split('/').pop() };
  };`,
};

const ROLE = 'arn:aws:iam::000000000000:role/app';
const fn = (name: string, extra: Record<string, unknown> = {}) => ({
  Type: 'AWS::Lambda::Function',
  Properties: { FunctionName: `async-dev-${name}`, Code: { S3Bucket: 'deploys', S3Key: 'code.zip' }, Handler: 'work.handler', Runtime: 'nodejs20.x', Role: ROLE, Timeout: 5, ...extra },
});
const queueArn = (logicalId: string) => ({ 'Fn::GetAtt': [logicalId, 'Arn'] });

// What Serverless v3 writes for `destinations`, `maximumRetryAttempts`, `onError` and `reservedConcurrency`.
const TEMPLATE = {
  Resources: {
    Failures: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'failures' } },
    Successes: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'successes' } },
    Dead: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'dead' } },
    Results: { Type: 'AWS::Events::EventBus', Properties: { Name: 'results' } },
    ResultsRule: {
      Type: 'AWS::Events::Rule',
      Properties: { EventBusName: { Ref: 'Results' }, EventPattern: { source: ['lambda'], 'detail-type': ['Lambda Function Invocation Result - Success'] }, Targets: [{ Arn: queueArn('Successes'), Id: 'successes' }] },
    },
    RetriedLambdaFunction: fn('retried'),
    RetriedLambdaEvConf: {
      Type: 'AWS::Lambda::EventInvokeConfig',
      Properties: { FunctionName: { Ref: 'RetriedLambdaFunction' }, Qualifier: '$LATEST', MaximumRetryAttempts: 1, DestinationConfig: { OnFailure: { Destination: queueArn('Failures') }, OnSuccess: { Destination: { 'Fn::GetAtt': ['Results', 'Arn'] } } } },
    },
    DeadLetteredLambdaFunction: fn('dead-lettered', { DeadLetterConfig: { TargetArn: queueArn('Dead') } }),
    HeldLambdaFunction: fn('held', { ReservedConcurrentExecutions: 0 }),
  },
};

type Context = { dataDir: string; cloud: RunningLocalCloud; scratch: string; sqs: SQSClient; lambda: LambdaClient };
const asynchronous = suite<Context>("Lambda's asynchronous invocation in the local cloud: retries, destinations, dead-letter queues, and the queue outliving a restart");

const clientConfig = (url: string) => ({ endpoint: url, region: 'us-east-1', credentials, maxAttempts: 1 });

async function start(context: Context): Promise<void> {
  context.cloud = await startLocalCloud({ port: 0, dataDir: context.dataDir, quiet: true });
  context.sqs = new SQSClient(clientConfig(context.cloud.url));
  context.lambda = new LambdaClient(clientConfig(context.cloud.url));
}

async function stop(context: Context): Promise<void> {
  context.sqs.destroy();
  context.lambda.destroy();
  await context.cloud.stop();
}

asynchronous.before(async (context) => {
  // A minute between retries on AWS; a fifth of a second here.
  process.env.FW_LOCAL_ASYNC_RETRY_SECONDS = '0.2';
  context.dataDir = mkdtempSync(join(tmpdir(), 'fw-async-'));
  context.scratch = mkdtempSync(join(tmpdir(), 'fw-async-scratch-'));
  await start(context);
  const config = clientConfig(context.cloud.url);
  const s3 = new S3Client({ ...config, forcePathStyle: true });
  await s3.send(new CreateBucketCommand({ Bucket: 'deploys' }));
  await s3.send(new PutObjectCommand({ Bucket: 'deploys', Key: 'code.zip', Body: await zip(HANDLERS) }));
  s3.destroy();
  const cfn = new CloudFormationClient(config);
  await cfn.send(new CreateStackCommand({ StackName: 'async-dev', TemplateBody: JSON.stringify(TEMPLATE) }));
  const stack = await settle(cfn, 'async-dev');
  cfn.destroy();
  assert.is(stack.StackStatus, 'CREATE_COMPLETE', stack.StackStatusReason);
});
asynchronous.after(async (context) => {
  delete process.env.FW_LOCAL_ASYNC_RETRY_SECONDS;
  await stop(context);
  rmSync(context.dataDir, { recursive: true, force: true });
  rmSync(context.scratch, { recursive: true, force: true });
});

const sendEvent = (lambda: LambdaClient, FunctionName: string, event: unknown) => lambda.send(new InvokeCommand({ FunctionName, InvocationType: 'Event', Payload: Buffer.from(JSON.stringify(event)) }));

async function receive(sqs: SQSClient, queue: string, waitMs = 8000): Promise<Message> {
  const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: queue }));
  for (const deadline = Date.now() + waitMs; Date.now() < deadline; ) {
    const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 1, MessageAttributeNames: ['All'] }));
    if (Messages?.length) return Messages[0];
  }
  throw new Error(`no message on ${queue}`);
}

const attempts = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

asynchronous('a failing event is retried MaximumRetryAttempts times, then its invocation record goes to the OnFailure queue', async ({ lambda, sqs, scratch }) => {
  const file = join(scratch, 'retried');
  const accepted = await sendEvent(lambda, 'async-dev-retried', { file, fail: 'always' });
  assert.is(accepted.StatusCode, 202);
  const message = await receive(sqs, 'failures');
  const record = JSON.parse(message.Body!) as Record<string, any>;
  assert.is(attempts(file), 2);
  assert.match(record.requestContext.requestId, UUID);
  assert.match(record.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal(
    { ...record, timestamp: undefined, requestContext: { ...record.requestContext, requestId: undefined }, responsePayload: { ...record.responsePayload, trace: undefined } },
    {
      version: '1.0',
      timestamp: undefined,
      requestContext: { requestId: undefined, functionArn: 'arn:aws:lambda:us-east-1:000000000000:function:async-dev-retried:$LATEST', condition: 'RetriesExhausted', approximateInvokeCount: 2 },
      requestPayload: { file, fail: 'always' },
      responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
      responsePayload: { errorType: 'Error', errorMessage: 'boom: always', trace: undefined },
    },
  );
});

asynchronous('an event that succeeds goes to the OnSuccess event bus as "Lambda Function Invocation Result - Success", and on to the rule\'s queue', async ({ lambda, sqs, scratch }) => {
  const file = join(scratch, 'succeeded');
  await sendEvent(lambda, 'async-dev-retried', { file });
  const event = JSON.parse((await receive(sqs, 'successes')).Body!) as Record<string, any>;
  assert.equal([event.source, event['detail-type'], event.detail.requestContext.condition, event.detail.responsePayload, event.detail.requestPayload], ['lambda', 'Lambda Function Invocation Result - Success', 'Success', { done: 'succeeded' }, { file }]);
  assert.is(event.detail.responseContext.functionError, undefined);
  assert.is(attempts(file), 1);
});

asynchronous('without destinations, a failing event is tried three times and then sent to the dead-letter queue with its error', async ({ lambda, sqs, scratch }) => {
  const file = join(scratch, 'dead');
  await sendEvent(lambda, 'async-dev-dead-lettered', { file, fail: 'dlq' });
  const message = await receive(sqs, 'dead');
  assert.is(attempts(file), 3);
  assert.equal(JSON.parse(message.Body!), { file, fail: 'dlq' });
  const attributes = message.MessageAttributes!;
  assert.match(attributes.RequestID.StringValue!, UUID);
  assert.equal([attributes.ErrorCode, attributes.ErrorMessage], [{ DataType: 'Number', StringValue: '200' }, { DataType: 'String', StringValue: 'boom: dlq' }]);
});

asynchronous('an acknowledged event that has not run yet runs after the local cloud restarts', async (context) => {
  const file = join(context.scratch, 'held');
  // Reserved concurrency 0: the event is throttled and waits in the queue.
  await sendEvent(context.lambda, 'async-dev-held', { file });
  await new Promise((resolve) => setTimeout(resolve, 300));
  await stop(context);
  await start(context);
  assert.is(attempts(file), 0);
  await context.lambda.send(new DeleteFunctionConcurrencyCommand({ FunctionName: 'async-dev-held' }));
  for (let waited = 0; attempts(file) === 0 && waited < 6000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
  assert.is(attempts(file), 1);
});

asynchronous('Put, Update, Get, List and DeleteFunctionEventInvokeConfig: what the API sets is what the next event runs with', async ({ lambda, sqs, scratch }) => {
  const FunctionName = 'async-dev-dead-lettered';
  const failures = 'arn:aws:sqs:us-east-1:000000000000:failures';
  const put = await lambda.send(new PutFunctionEventInvokeConfigCommand({ FunctionName, MaximumRetryAttempts: 0, DestinationConfig: { OnFailure: { Destination: failures } } }));
  assert.equal([put.FunctionArn, put.MaximumRetryAttempts, put.MaximumEventAgeInSeconds, put.DestinationConfig], ['arn:aws:lambda:us-east-1:000000000000:function:async-dev-dead-lettered:$LATEST', 0, undefined, { OnFailure: { Destination: failures } }]);
  assert.instance(put.LastModified, Date);
  const updated = await lambda.send(new UpdateFunctionEventInvokeConfigCommand({ FunctionName, MaximumEventAgeInSeconds: 600 }));
  assert.equal([updated.MaximumRetryAttempts, updated.MaximumEventAgeInSeconds, updated.DestinationConfig], [0, 600, { OnFailure: { Destination: failures } }]);
  assert.equal((await lambda.send(new GetFunctionEventInvokeConfigCommand({ FunctionName }))).MaximumEventAgeInSeconds, 600);
  assert.equal((await lambda.send(new ListFunctionEventInvokeConfigsCommand({ FunctionName }))).FunctionEventInvokeConfigs?.map((config) => config.FunctionArn), ['arn:aws:lambda:us-east-1:000000000000:function:async-dev-dead-lettered:$LATEST']);
  const file = join(scratch, 'configured');
  await sendEvent(lambda, FunctionName, { file, fail: 'once' });
  const record = JSON.parse((await receive(sqs, 'failures')).Body!) as Record<string, any>;
  assert.equal([attempts(file), record.requestContext.condition, record.requestContext.approximateInvokeCount], [1, 'RetriesExhausted', 1]);
  const tooMany = await failure(lambda.send(new PutFunctionEventInvokeConfigCommand({ FunctionName, MaximumRetryAttempts: 5 })));
  assert.equal([tooMany?.name, tooMany?.message], ['InvalidParameterValueException', "1 validation error detected: Value '5' at 'maximumRetryAttempts' failed to satisfy constraint: Member must have value less than or equal to 2"]);
  await lambda.send(new DeleteFunctionEventInvokeConfigCommand({ FunctionName }));
  const gone = await failure(lambda.send(new GetFunctionEventInvokeConfigCommand({ FunctionName })));
  assert.equal([gone?.name, gone?.message], ['ResourceNotFoundException', "The function arn:aws:lambda:us-east-1:000000000000:function:async-dev-dead-lettered doesn't have an EventInvokeConfig"]);
});

asynchronous.run();
