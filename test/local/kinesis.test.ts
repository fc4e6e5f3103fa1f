import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateStackCommand } from '@aws-sdk/client-cloudformation';
import {
  CreateStreamCommand,
  DeleteStreamCommand,
  DescribeStreamCommand,
  DescribeStreamSummaryCommand,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type GetShardIteratorCommandInput,
  KinesisClient,
  ListShardsCommand,
  ListStreamsCommand,
  PutRecordCommand,
  PutRecordsCommand,
} from '@aws-sdk/client-kinesis';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { failure, settle, signatureShaped, startTestCloud, type TestCloud } from './helpers';

const kinesis = suite<{ t: TestCloud; client: KinesisClient }>('local Kinesis Data Streams');

kinesis.before(async (context) => {
  context.t = await startTestCloud();
  context.client = new KinesisClient({ ...context.t.config, maxAttempts: 1 });
});
kinesis.after(async (context) => {
  context.client.destroy();
  await context.t.stop();
});

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array | undefined) => new TextDecoder().decode(data);
const error = async (promise: Promise<unknown>) => {
  const caught = await failure(promise);
  return caught && { name: caught.name, message: caught.message };
};

kinesis('CreateStream splits the hash key space evenly; describe, summary, list and shards agree', async ({ client }) => {
  await client.send(new CreateStreamCommand({ StreamName: 'two', ShardCount: 2 }));
  const { StreamDescription } = await client.send(new DescribeStreamCommand({ StreamName: 'two' }));
  const startingSequenceNumber = StreamDescription!.Shards![0].SequenceNumberRange!.StartingSequenceNumber!;
  assert.match(startingSequenceNumber, /^49\d{54}$/);
  assert.equal(StreamDescription!.Shards, [
    {
      ShardId: 'shardId-000000000000',
      HashKeyRange: { StartingHashKey: '0', EndingHashKey: '170141183460469231731687303715884105727' },
      SequenceNumberRange: { StartingSequenceNumber: startingSequenceNumber },
    },
    {
      ShardId: 'shardId-000000000001',
      HashKeyRange: { StartingHashKey: '170141183460469231731687303715884105728', EndingHashKey: '340282366920938463463374607431768211455' },
      SequenceNumberRange: { StartingSequenceNumber: startingSequenceNumber },
    },
  ]);
  assert.equal(
    { ...StreamDescription, Shards: undefined, StreamCreationTimestamp: undefined },
    {
      StreamName: 'two',
      StreamARN: 'arn:aws:kinesis:us-east-1:000000000000:stream/two',
      StreamStatus: 'ACTIVE',
      StreamModeDetails: { StreamMode: 'PROVISIONED' },
      Shards: undefined,
      HasMoreShards: false,
      RetentionPeriodHours: 24,
      StreamCreationTimestamp: undefined,
      EnhancedMonitoring: [{ ShardLevelMetrics: [] }],
      EncryptionType: 'NONE',
    },
  );
  const { StreamDescriptionSummary } = await client.send(new DescribeStreamSummaryCommand({ StreamARN: 'arn:aws:kinesis:us-east-1:000000000000:stream/two' }));
  assert.is(StreamDescriptionSummary!.OpenShardCount, 2);
  assert.is(StreamDescriptionSummary!.ConsumerCount, 0);
  assert.instance(StreamDescriptionSummary!.StreamCreationTimestamp, Date);
  assert.equal((await client.send(new ListShardsCommand({ StreamName: 'two' }))).Shards, StreamDescription!.Shards);
  await client.send(new CreateStreamCommand({ StreamName: 'on-demand', StreamModeDetails: { StreamMode: 'ON_DEMAND' } }));
  const listed = await client.send(new ListStreamsCommand({}));
  assert.equal(listed.StreamNames, ['on-demand', 'two']);
  assert.equal(listed.HasMoreStreams, false);
  assert.equal(listed.StreamSummaries!.map((summary) => [summary.StreamName, summary.StreamModeDetails!.StreamMode, summary.StreamStatus]), [
    ['on-demand', 'ON_DEMAND', 'ACTIVE'],
    ['two', 'PROVISIONED', 'ACTIVE'],
  ]);
  assert.is((await client.send(new ListShardsCommand({ StreamName: 'on-demand' }))).Shards!.length, 4);
  assert.equal(await error(client.send(new CreateStreamCommand({ StreamName: 'two', ShardCount: 1 }))), {
    name: 'ResourceInUseException',
    message: 'Stream two under account 000000000000 already exists.',
  });
  await client.send(new DeleteStreamCommand({ StreamName: 'on-demand' }));
  assert.equal(await error(client.send(new DescribeStreamCommand({ StreamName: 'on-demand' }))), {
    name: 'ResourceNotFoundException',
    message: 'Stream on-demand under account 000000000000 not found.',
  });
});

kinesis('records go to the shard of their partition key MD5, sequence numbers grow, iterators of every type read them', async ({ client }) => {
  await client.send(new CreateStreamCommand({ StreamName: 'keys', ShardCount: 2 }));
  const half = 1n << 127n;
  const shardOf = (key: string) => (BigInt(`0x${createHash('md5').update(key).digest('hex')}`) < half ? 'shardId-000000000000' : 'shardId-000000000001');
  const keys = ['a', 'b', 'c', 'd', 'e', 'f'];
  const sequenceNumbers: string[] = [];
  const before = new Date(Date.now() - 1000);
  for (const key of keys) {
    const put = await client.send(new PutRecordCommand({ StreamName: 'keys', PartitionKey: key, Data: bytes(`data-${key}`) }));
    assert.is(put.ShardId, shardOf(key));
    sequenceNumbers.push(put.SequenceNumber!);
  }
  assert.equal([...sequenceNumbers].sort((x, y) => (BigInt(x) < BigInt(y) ? -1 : 1)), sequenceNumbers);
  const explicit = await client.send(new PutRecordCommand({ StreamName: 'keys', PartitionKey: 'a', ExplicitHashKey: '340282366920938463463374607431768211455', Data: bytes('last') }));
  assert.is(explicit.ShardId, 'shardId-000000000001');

  const shard0 = keys.filter((key) => shardOf(key) === 'shardId-000000000000');
  const read = async (iterator: GetShardIteratorCommandInput) => {
    const { ShardIterator } = await client.send(new GetShardIteratorCommand(iterator));
    return client.send(new GetRecordsCommand({ ShardIterator }));
  };
  const all = await read({ StreamName: 'keys', ShardId: 'shardId-000000000000', ShardIteratorType: 'TRIM_HORIZON' });
  assert.equal(all.Records!.map((record) => [record.PartitionKey, text(record.Data)]), shard0.map((key) => [key, `data-${key}`]));
  assert.is(all.MillisBehindLatest, 0);
  assert.instance(all.Records![0].ApproximateArrivalTimestamp, Date);
  const first = all.Records![0].SequenceNumber!;
  const at = await read({ StreamName: 'keys', ShardId: 'shardId-000000000000', ShardIteratorType: 'AT_SEQUENCE_NUMBER', StartingSequenceNumber: first });
  assert.equal(at.Records!.map((record) => record.PartitionKey), shard0);
  const after = await read({ StreamName: 'keys', ShardId: 'shardId-000000000000', ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', StartingSequenceNumber: first });
  assert.equal(after.Records!.map((record) => record.PartitionKey), shard0.slice(1));
  const byTime = await read({ StreamName: 'keys', ShardId: 'shardId-000000000000', ShardIteratorType: 'AT_TIMESTAMP', Timestamp: before });
  assert.equal(byTime.Records!.map((record) => record.PartitionKey), shard0);
  const latest = await read({ StreamName: 'keys', ShardId: 'shardId-000000000000', ShardIteratorType: 'LATEST' });
  assert.equal(latest.Records, []);
  // The next iterator sees what came after, and a Limit leaves the rest for the next call.
  await client.send(new PutRecordCommand({ StreamName: 'keys', PartitionKey: shard0[0], Data: bytes('later') }));
  const next = await client.send(new GetRecordsCommand({ ShardIterator: latest.NextShardIterator }));
  assert.equal(next.Records!.map((record) => text(record.Data)), ['later']);
  const limited = await client.send(new GetShardIteratorCommand({ StreamName: 'keys', ShardId: 'shardId-000000000000', ShardIteratorType: 'TRIM_HORIZON' }));
  const page = await client.send(new GetRecordsCommand({ ShardIterator: limited.ShardIterator, Limit: 1 }));
  assert.is(page.Records!.length, 1);
  assert.ok(page.MillisBehindLatest! >= 0);
  const rest = await client.send(new GetRecordsCommand({ ShardIterator: page.NextShardIterator }));
  assert.equal(rest.Records!.map((record) => text(record.Data)), [...shard0.slice(1).map((key) => `data-${key}`), 'later']);

  assert.equal(await error(client.send(new GetShardIteratorCommand({ StreamName: 'keys', ShardId: 'shardId-000000000009', ShardIteratorType: 'LATEST' }))), {
    name: 'ResourceNotFoundException',
    message: 'Shard shardId-000000000009 in stream keys under account 000000000000 does not exist',
  });
  assert.equal(await error(client.send(new GetRecordsCommand({ ShardIterator: 'bogus' }))), { name: 'InvalidArgumentException', message: 'Invalid ShardIterator.' });
});

kinesis('PutRecords answers per entry: past a shard\'s 1 MiB a second, entries fail with ProvisionedThroughputExceededException', async ({ client }) => {
  await client.send(new CreateStreamCommand({ StreamName: 'busy', ShardCount: 1 }));
  const data = new Uint8Array(300 * 1024);
  const result = await client.send(new PutRecordsCommand({ StreamName: 'busy', Records: Array.from({ length: 5 }, () => ({ PartitionKey: 'k', Data: data })) }));
  assert.is(result.FailedRecordCount, 2);
  assert.equal(
    result.Records!.map((record) => (record.SequenceNumber ? record.ShardId : record.ErrorCode)),
    ['shardId-000000000000', 'shardId-000000000000', 'shardId-000000000000', 'ProvisionedThroughputExceededException', 'ProvisionedThroughputExceededException'],
  );
  assert.is(result.Records![3].ErrorMessage, 'Rate exceeded for shard shardId-000000000000 in stream busy under account 000000000000.');
  assert.equal(await error(client.send(new PutRecordsCommand({ StreamName: 'missing', Records: [{ PartitionKey: 'k', Data: bytes('x') }] }))), {
    name: 'ResourceNotFoundException',
    message: 'Stream missing under account 000000000000 not found.',
  });
});

kinesis('a CBOR request is refused with a message saying to send JSON', async ({ t }) => {
  const response = await fetch(t.cloud.url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-cbor-1.1', 'x-amz-target': 'Kinesis_20131202.ListStreams', ...signatureShaped('kinesis') },
    body: new Uint8Array([0xa0]),
  });
  assert.is(response.status, 415);
  assert.equal(await response.json(), {
    __type: 'UnsupportedMediaTypeException',
    message: 'The local cloud reads Kinesis requests as JSON (application/x-amz-json-1.1), not CBOR: disable CBOR in the client (AWS_CBOR_DISABLE=1 for the Java SDK and the KCL)',
    Message: 'The local cloud reads Kinesis requests as JSON (application/x-amz-json-1.1), not CBOR: disable CBOR in the client (AWS_CBOR_DISABLE=1 for the Java SDK and the KCL)',
  });
});

kinesis('a function puts records with the runtime\'s own Kinesis client, unconfigured (HTTP/2 to the local cloud)', async ({ t, client }) => {
  await client.send(new CreateStreamCommand({ StreamName: 'from-function', ShardCount: 1 }));
  const code = `const { KinesisClient, PutRecordCommand } = require('@aws-sdk/client-kinesis');
exports.handler = async () => {
  const kinesis = new KinesisClient({});
  const put = await kinesis.send(new PutRecordCommand({ StreamName: 'from-function', PartitionKey: 'p', Data: Buffer.from('inside') }));
  kinesis.destroy();
  return put.ShardId;
};`;
  const template = { Resources: { Fn: { Type: 'AWS::Lambda::Function', Properties: { FunctionName: 'kinesis-writer', Handler: 'index.handler', Runtime: 'nodejs20.x', Role: 'r', Timeout: 20, Code: { ZipFile: code } } } } };
  await t.cfn.send(new CreateStackCommand({ StackName: 'kinesis-writer', TemplateBody: JSON.stringify(template) }));
  assert.is((await settle(t.cfn, 'kinesis-writer')).StackStatus, 'CREATE_COMPLETE');
  const lambda = new LambdaClient({ ...t.config, maxAttempts: 1 });
  const { Payload, FunctionError } = await lambda.send(new InvokeCommand({ FunctionName: 'kinesis-writer' }));
  lambda.destroy();
  assert.equal([FunctionError, text(Payload)], [undefined, '"shardId-000000000000"']);
  const { ShardIterator } = await client.send(new GetShardIteratorCommand({ StreamName: 'from-function', ShardId: 'shardId-000000000000', ShardIteratorType: 'TRIM_HORIZON' }));
  const { Records } = await client.send(new GetRecordsCommand({ ShardIterator }));
  assert.equal(Records!.map((record) => text(record.Data)), ['inside']);
});

kinesis('records older than the retention period are gone after a restart', async () => {
  const own = await startTestCloud();
  const reader = () => new KinesisClient({ ...own.config, maxAttempts: 1 });
  let client = reader();
  await client.send(new CreateStreamCommand({ StreamName: 'retained', ShardCount: 1 }));
  const fresh = await client.send(new PutRecordCommand({ StreamName: 'retained', PartitionKey: 'p', Data: bytes('fresh') }));
  client.destroy();
  await own.stop({ keepData: true });
  // A record written two days ago, as the log would hold it, before the fresh one.
  const log = join(own.dataDir, 'kinesis', 'records.log');
  const old = [['arn:aws:kinesis:us-east-1:000000000000:stream/retained', 'shardId-000000000000', { SequenceNumber: '49000000000000000000000000000000000000000000000000000000', arrival: Date.now() - 48 * 3_600_000, Data: 'b2xk', PartitionKey: 'p' }]];
  writeFileSync(log, `${JSON.stringify(old)}\n${readFileSync(log, 'utf8')}`);
  const again = await startTestCloud(own.dataDir);
  client = new KinesisClient({ ...again.config, maxAttempts: 1 });
  try {
    const { ShardIterator } = await client.send(new GetShardIteratorCommand({ StreamName: 'retained', ShardId: 'shardId-000000000000', ShardIteratorType: 'TRIM_HORIZON' }));
    const { Records } = await client.send(new GetRecordsCommand({ ShardIterator }));
    assert.equal(Records!.map((record) => [record.SequenceNumber, text(record.Data)]), [[fresh.SequenceNumber, 'fresh']]);
  } finally {
    client.destroy();
    await again.stop();
  }
});

kinesis('a stack makes a stream (Ref is its name, GetAtt Arn its ARN) whose records outlive a restart', async ({ t, client }) => {
  const template = {
    Resources: { Stream: { Type: 'AWS::Kinesis::Stream', Properties: { Name: 'stacked', ShardCount: 1 } } },
    Outputs: { Name: { Value: { Ref: 'Stream' } }, Arn: { Value: { 'Fn::GetAtt': ['Stream', 'Arn'] } } },
  };
  await t.cfn.send(new CreateStackCommand({ StackName: 'kinesis', TemplateBody: JSON.stringify(template) }));
  const stack = await settle(t.cfn, 'kinesis');
  assert.is(stack.StackStatus, 'CREATE_COMPLETE');
  assert.equal(stack.Outputs!.map((output) => [output.OutputKey, output.OutputValue]).sort(), [
    ['Arn', 'arn:aws:kinesis:us-east-1:000000000000:stream/stacked'],
    ['Name', 'stacked'],
  ]);
  const put = await client.send(new PutRecordCommand({ StreamName: 'stacked', PartitionKey: 'p', Data: bytes('kept') }));
  const dataDir = t.dataDir;
  await t.stop({ keepData: true });
  const again = await startTestCloud(dataDir);
  const reopened = new KinesisClient({ ...again.config, maxAttempts: 1 });
  try {
    const { ShardIterator } = await reopened.send(new GetShardIteratorCommand({ StreamName: 'stacked', ShardId: 'shardId-000000000000', ShardIteratorType: 'TRIM_HORIZON' }));
    const { Records } = await reopened.send(new GetRecordsCommand({ ShardIterator }));
    assert.equal(Records!.map((record) => [record.SequenceNumber, text(record.Data)]), [[put.SequenceNumber, 'kept']]);
    const next = await reopened.send(new PutRecordCommand({ StreamName: 'stacked', PartitionKey: 'p', Data: bytes('new') }));
    assert.ok(BigInt(next.SequenceNumber!) > BigInt(put.SequenceNumber!));
  } finally {
    reopened.destroy();
    // The suite's after() stops this cloud in the context's place.
    Object.assign(t, again);
  }
});

kinesis.run();
