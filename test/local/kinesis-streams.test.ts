import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { CloudWatchLogsClient, FilterLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { KinesisClient, PutRecordCommand, PutRecordsCommand } from '@aws-sdk/client-kinesis';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { settle, startTestCloud, type TestCloud } from './helpers';

const delivery = suite<{ t: TestCloud; kinesis: KinesisClient }>('Kinesis streams invoke the functions mapped to them');

const ROLE = 'arn:aws:iam::000000000000:role/stream-reader';

/** Each batch's records' data, as `BATCH ["a","b"]` log lines; `poison` fails the batch, `retry-me` is reported once. */
const code = `const reported = new Set();
exports.handler = async (event) => {
  const data = event.Records.map((r) => Buffer.from(r.kinesis.data, 'base64').toString());
  console.log('BATCH ' + JSON.stringify(data));
  if (data[0] === 'shape') console.log('SHAPE ' + JSON.stringify(event.Records[0]));
  if (data.includes('poison')) throw new Error('poisoned');
  const failures = event.Records.filter((r, i) => data[i] === 'retry-me' && !reported.has(r.kinesis.sequenceNumber));
  failures.forEach((r) => reported.add(r.kinesis.sequenceNumber));
  return { batchItemFailures: failures.map((r) => ({ itemIdentifier: r.kinesis.sequenceNumber })) };
};`;

const fn = (name: string) => ({ Type: 'AWS::Lambda::Function', Properties: { FunctionName: name, Handler: 'index.handler', Runtime: 'nodejs20.x', Role: ROLE, Code: { ZipFile: code } } });
const stream = (name: string) => ({ Type: 'AWS::Kinesis::Stream', Properties: { Name: name, ShardCount: 1 } });
const mapping = (streamId: string, functionId: string, extra: Record<string, unknown> = {}) => ({
  Type: 'AWS::Lambda::EventSourceMapping',
  Properties: { EventSourceArn: { 'Fn::GetAtt': [streamId, 'Arn'] }, FunctionName: { 'Fn::GetAtt': [functionId, 'Arn'] }, StartingPosition: 'LATEST', ...extra },
});

delivery.before(async (context) => {
  context.t = await startTestCloud();
  context.kinesis = new KinesisClient({ ...context.t.config, maxAttempts: 1 });
});
delivery.after(async (context) => {
  context.kinesis.destroy();
  await context.t.stop();
});

async function logLines(t: TestCloud, group: string, prefix: string, expected: number): Promise<unknown[]> {
  const logs = new CloudWatchLogsClient({ ...t.config, maxAttempts: 1 });
  let found: unknown[] = [];
  for (const deadline = Date.now() + 20_000; Date.now() < deadline && found.length < expected; ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    try {
      const { events } = await logs.send(new FilterLogEventsCommand({ logGroupName: `/aws/lambda/${group}`, filterPattern: prefix }));
      found = events!.filter((event) => event.message!.includes(`${prefix} `)).map((event) => JSON.parse(event.message!.split(`${prefix} `)[1]));
    } catch {
      // the group appears with the first invocation
    }
  }
  logs.destroy();
  return found;
}

async function deploy(t: TestCloud, name: string, resources: Record<string, unknown>): Promise<void> {
  await t.cfn.send(new CreateStackCommand({ StackName: name, TemplateBody: JSON.stringify({ Resources: resources }) }));
  assert.is((await settle(t.cfn, name)).StackStatus, 'CREATE_COMPLETE');
}

const data = (...texts: string[]) => texts.map((text) => ({ PartitionKey: 'one-shard', Data: new TextEncoder().encode(text) }));

delivery('records arrive in order in batches of BatchSize, shaped as Lambda documents them', async ({ t, kinesis }) => {
  await deploy(t, 'ordered', { Stream: stream('ordered'), Fn: fn('ordered-reader'), Mapping: mapping('Stream', 'Fn', { BatchSize: 2 }) });
  const put = await kinesis.send(new PutRecordCommand({ StreamName: 'ordered', PartitionKey: 'pk-1', Data: new TextEncoder().encode('shape') }));
  assert.equal(await logLines(t, 'ordered-reader', 'BATCH', 1), [['shape']]);
  await kinesis.send(new PutRecordsCommand({ StreamName: 'ordered', Records: data('1', '2', '3', '4', '5') }));
  assert.equal(await logLines(t, 'ordered-reader', 'BATCH', 4), [['shape'], ['1', '2'], ['3', '4'], ['5']]);
  const [shape] = (await logLines(t, 'ordered-reader', 'SHAPE', 1)) as Record<string, Record<string, unknown>>[];
  assert.type(shape.kinesis.approximateArrivalTimestamp, 'number');
  assert.equal(shape, {
    kinesis: {
      kinesisSchemaVersion: '1.0',
      partitionKey: 'pk-1',
      sequenceNumber: put.SequenceNumber,
      data: Buffer.from('shape').toString('base64'),
      approximateArrivalTimestamp: shape.kinesis.approximateArrivalTimestamp,
    },
    eventSource: 'aws:kinesis',
    eventVersion: '1.0',
    eventID: `shardId-000000000000:${put.SequenceNumber}`,
    eventName: 'aws:kinesis:record',
    invokeIdentityArn: ROLE,
    awsRegion: 'us-east-1',
    eventSourceARN: 'arn:aws:kinesis:us-east-1:000000000000:stream/ordered',
  });
});

delivery('a failing batch is bisected and retried; what still fails after MaximumRetryAttempts goes to the on-failure queue', async ({ t, kinesis }) => {
  await deploy(t, 'bisect', {
    Stream: stream('bisected'),
    Failed: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'stream-failures' } },
    Fn: fn('bisect-reader'),
    Mapping: mapping('Stream', 'Fn', {
      BatchSize: 10,
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 2,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': ['Failed', 'Arn'] } } },
    }),
  });
  const put = await kinesis.send(new PutRecordsCommand({ StreamName: 'bisected', Records: data('a', 'b', 'poison', 'c') }));
  assert.equal(await logLines(t, 'bisect-reader', 'BATCH', 5), [['a', 'b', 'poison', 'c'], ['a', 'b'], ['poison', 'c'], ['poison'], ['c']]);
  const sqs = new SQSClient({ ...t.config, maxAttempts: 1 });
  const queueUrl = `${t.cloud.url}/000000000000/stream-failures`;
  const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, WaitTimeSeconds: 5 }));
  sqs.destroy();
  const failure = JSON.parse(Messages![0].Body!) as Record<string, Record<string, unknown>>;
  const poison = put.Records![2].SequenceNumber;
  assert.equal(failure, {
    requestContext: {
      requestId: failure.requestContext.requestId,
      functionArn: 'arn:aws:lambda:us-east-1:000000000000:function:bisect-reader',
      condition: 'RetryAttemptsExhausted',
      approximateInvokeCount: 3,
    },
    responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
    version: '1.0',
    timestamp: failure.timestamp,
    KinesisBatchInfo: {
      shardId: 'shardId-000000000000',
      startSequenceNumber: poison,
      endSequenceNumber: poison,
      approximateArrivalOfFirstRecord: failure.KinesisBatchInfo.approximateArrivalOfFirstRecord,
      approximateArrivalOfLastRecord: failure.KinesisBatchInfo.approximateArrivalOfFirstRecord,
      batchSize: 1,
      streamArn: 'arn:aws:kinesis:us-east-1:000000000000:stream/bisected',
    },
  });
});

delivery('ReportBatchItemFailures retries from the first reported sequence number; TRIM_HORIZON reads what was there before', async ({ t, kinesis }) => {
  await deploy(t, 'early', { Stream: stream('reported') });
  await kinesis.send(new PutRecordsCommand({ StreamName: 'reported', Records: data('before') }));
  await deploy(t, 'reader', {
    Fn: fn('reported-reader'),
    Mapping: {
      Type: 'AWS::Lambda::EventSourceMapping',
      Properties: {
        EventSourceArn: 'arn:aws:kinesis:us-east-1:000000000000:stream/reported',
        FunctionName: 'reported-reader',
        StartingPosition: 'TRIM_HORIZON',
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      },
    },
  });
  assert.equal(await logLines(t, 'reported-reader', 'BATCH', 1), [['before']]);
  await kinesis.send(new PutRecordsCommand({ StreamName: 'reported', Records: data('x', 'retry-me', 'y') }));
  assert.equal(await logLines(t, 'reported-reader', 'BATCH', 3), [['before'], ['x', 'retry-me', 'y'], ['retry-me', 'y']]);
});

delivery.run();
