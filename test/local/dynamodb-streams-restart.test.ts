import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { CloudWatchLogsClient, FilterLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand, ListStreamsCommand } from '@aws-sdk/client-dynamodb-streams';
import { settle, startTestCloud, type TestCloud } from './helpers';

/**
 * DynamoDB stream records are acknowledged with the write that made them: a restart of the local
 * cloud keeps what a consumer has not read (GetRecords with the iterator it holds, or a new one), and
 * event source mappings resume from where they were, neither losing nor repeating records.
 */
const restart = suite<{ first?: TestCloud; second?: TestCloud }>('DynamoDB stream records across a restart of the local cloud');

restart.after(async (context) => {
  await context.first?.stop({ keepData: true });
  await context.second?.stop();
});

const handler = `exports.handler = async (event) => {
  console.log('BATCH ' + JSON.stringify(event.Records.map((r) => r.dynamodb.Keys.id.S)));
};`;

const template = {
  Resources: {
    Table: {
      Type: 'AWS::DynamoDB::Table',
      Properties: {
        TableName: 'orders',
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
        StreamSpecification: { StreamViewType: 'KEYS_ONLY' },
      },
    },
    Fn: { Type: 'AWS::Lambda::Function', Properties: { FunctionName: 'order-stream', Handler: 'index.handler', Runtime: 'nodejs20.x', Role: 'r', Code: { ZipFile: handler } } },
    // Three records make a batch at once; fewer wait for the 2-second window.
    Mapping: {
      Type: 'AWS::Lambda::EventSourceMapping',
      Properties: { EventSourceArn: { 'Fn::GetAtt': ['Table', 'StreamArn'] }, FunctionName: { Ref: 'Fn' }, StartingPosition: 'LATEST', BatchSize: 3, MaximumBatchingWindowInSeconds: 2 },
    },
  },
};

async function batches(t: TestCloud, expected: number): Promise<string[][]> {
  const logs = new CloudWatchLogsClient({ ...t.config, maxAttempts: 1 });
  let found: string[][] = [];
  for (const deadline = Date.now() + 20_000; Date.now() < deadline && found.length < expected; ) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const { events } = await logs.send(new FilterLogEventsCommand({ logGroupName: '/aws/lambda/order-stream', filterPattern: 'BATCH' }));
    found = events!.map((event) => JSON.parse(event.message!.split('BATCH ')[1]) as string[]);
  }
  logs.destroy();
  return found;
}

restart('unread records stay readable by GetRecords, and a mapping delivers what it had not, once', async (context) => {
  const first = (context.first = await startTestCloud());
  await first.cfn.send(new CreateStackCommand({ StackName: 'orders', TemplateBody: JSON.stringify(template) }));
  assert.is((await settle(first.cfn, 'orders')).StackStatus, 'CREATE_COMPLETE');
  const dynamodb = new DynamoDBClient({ ...first.config, maxAttempts: 1 });
  for (const id of ['o1', 'o2', 'o3', 'o4']) await dynamodb.send(new PutItemCommand({ TableName: 'orders', Item: { id: { S: id } } }));
  dynamodb.destroy();
  // The first three are delivered at once; o4 waits for its batching window, which the restart cuts short.
  assert.equal(await batches(first, 1), [['o1', 'o2', 'o3']]);
  const streams = new DynamoDBStreamsClient({ ...first.config, maxAttempts: 1 });
  const { Streams } = await streams.send(new ListStreamsCommand({ TableName: 'orders' }));
  const StreamArn = Streams![0].StreamArn!;
  const { ShardIterator } = await streams.send(new GetShardIteratorCommand({ StreamArn, ShardId: 'shardId-00000000000000000000-00000001', ShardIteratorType: 'TRIM_HORIZON' }));
  const read = await streams.send(new GetRecordsCommand({ ShardIterator, Limit: 2 }));
  streams.destroy();
  assert.equal(read.Records!.map((record) => record.dynamodb!.Keys!.id.S), ['o1', 'o2']);
  await first.stop({ keepData: true });
  context.first = undefined;

  const second = (context.second = await startTestCloud(first.dataDir));
  const again = new DynamoDBStreamsClient({ ...second.config, maxAttempts: 1 });
  // The consumer reads on with the iterator it held before the restart.
  const rest = await again.send(new GetRecordsCommand({ ShardIterator: read.NextShardIterator }));
  assert.equal(rest.Records!.map((record) => [record.eventName, record.dynamodb!.Keys!.id.S]), [['INSERT', 'o3'], ['INSERT', 'o4']]);
  const sequenceNumbers = [...read.Records!, ...rest.Records!].map((record) => record.dynamodb!.SequenceNumber!);
  assert.equal(sequenceNumbers, [...sequenceNumbers].sort());
  again.destroy();
  // The mapping resumes after o3: o4 comes once, and nothing delivered before comes again.
  assert.equal(await batches(second, 2), [['o1', 'o2', 'o3'], ['o4']]);
  // A write after the restart follows on, with a sequence number after those before it.
  const dynamodb2 = new DynamoDBClient({ ...second.config, maxAttempts: 1 });
  for (const id of ['o5', 'o6', 'o7']) await dynamodb2.send(new PutItemCommand({ TableName: 'orders', Item: { id: { S: id } } }));
  dynamodb2.destroy();
  assert.equal(await batches(second, 3), [['o1', 'o2', 'o3'], ['o4'], ['o5', 'o6', 'o7']]);
  const streams2 = new DynamoDBStreamsClient({ ...second.config, maxAttempts: 1 });
  const after = await streams2.send(new GetRecordsCommand({ ShardIterator: rest.NextShardIterator }));
  streams2.destroy();
  assert.equal(after.Records!.map((record) => record.dynamodb!.Keys!.id.S), ['o5', 'o6', 'o7']);
  assert.ok(after.Records![0].dynamodb!.SequenceNumber! > sequenceNumbers[3]);
});

restart.run();
