import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { CloudWatchLogsClient, FilterLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { settle, startTestCloud, type TestCloud } from './helpers';

const streams = suite<{ t: TestCloud }>('DynamoDB streams invoke the functions mapped to them');

streams.before(async (context) => {
  context.t = await startTestCloud();
});
streams.after(async (context) => {
  await context.t.stop();
});

const code = `exports.handler = async (event) => {
  for (const r of event.Records) console.log('RECORD ' + JSON.stringify([r.eventName, r.dynamodb.Keys, r.dynamodb.OldImage, r.dynamodb.NewImage, r.dynamodb.StreamViewType, r.eventSourceARN.includes('/stream/')]));
};`;

const fn = (name: string) => ({ Type: 'AWS::Lambda::Function', Properties: { FunctionName: name, Handler: 'index.handler', Runtime: 'nodejs20.x', Role: 'r', Code: { ZipFile: code } } });
const mapping = (functionId: string, extra: Record<string, unknown> = {}) => ({
  Type: 'AWS::Lambda::EventSourceMapping',
  Properties: { EventSourceArn: { 'Fn::GetAtt': ['Table', 'StreamArn'] }, FunctionName: { 'Fn::GetAtt': [functionId, 'Arn'] }, StartingPosition: 'LATEST', ...extra },
});

async function records(t: TestCloud, group: string, expected: number): Promise<unknown[]> {
  const logs = new CloudWatchLogsClient({ ...t.config, maxAttempts: 1 });
  let found: unknown[] = [];
  for (const deadline = Date.now() + 20_000; Date.now() < deadline && found.length < expected; ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const { events } = await logs.send(new FilterLogEventsCommand({ logGroupName: `/aws/lambda/${group}`, filterPattern: 'RECORD' }));
    found = events!.map((event) => JSON.parse(event.message!.split('RECORD ')[1]));
  }
  logs.destroy();
  return found;
}

streams('inserts, updates and deletes arrive in order with their images, no-op deletes make none, FilterCriteria select records', async ({ t }) => {
  const template = {
    Resources: {
      Table: {
        Type: 'AWS::DynamoDB::Table',
        Properties: {
          TableName: 'streamed',
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
          KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
          StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
        },
      },
      All: fn('all-changes'),
      Removals: fn('removals'),
      AllMapping: mapping('All'),
      RemovalsMapping: mapping('Removals', { FilterCriteria: { Filters: [{ Pattern: JSON.stringify({ eventName: ['REMOVE'] }) }] } }),
    },
  };
  await t.cfn.send(new CreateStackCommand({ StackName: 'streams', TemplateBody: JSON.stringify(template) }));
  assert.is((await settle(t.cfn, 'streams')).StackStatus, 'CREATE_COMPLETE');
  const client = new DynamoDBClient({ ...t.config, maxAttempts: 1 });
  const doc = DynamoDBDocumentClient.from(client);
  await doc.send(new PutCommand({ TableName: 'streamed', Item: { id: 'a', n: 1 } }));
  await doc.send(new UpdateCommand({ TableName: 'streamed', Key: { id: 'a' }, UpdateExpression: 'SET n = :two', ExpressionAttributeValues: { ':two': 2 } }));
  await doc.send(new DeleteCommand({ TableName: 'streamed', Key: { id: 'a' } }));
  // Deleting an item that is not there changes nothing, so it makes no record.
  await doc.send(new DeleteCommand({ TableName: 'streamed', Key: { id: 'never-there' } }));
  await doc.send(new PutCommand({ TableName: 'streamed', Item: { id: 'b' } }));
  client.destroy();
  const key = { id: { S: 'a' } };
  const view = 'NEW_AND_OLD_IMAGES';
  assert.equal(await records(t, 'all-changes', 4), [
    ['INSERT', key, null, { id: { S: 'a' }, n: { N: '1' } }, view, true],
    ['MODIFY', key, { id: { S: 'a' }, n: { N: '1' } }, { id: { S: 'a' }, n: { N: '2' } }, view, true],
    ['REMOVE', key, { id: { S: 'a' }, n: { N: '2' } }, null, view, true],
    ['INSERT', { id: { S: 'b' } }, null, { id: { S: 'b' } }, view, true],
  ]);
  assert.equal(await records(t, 'removals', 1), [['REMOVE', key, { id: { S: 'a' }, n: { N: '2' } }, null, view, true]]);
});

streams('batches of BatchSize that keep failing go to the on-failure queue after MaximumRetryAttempts, with DDBStreamBatchInfo', async ({ t }) => {
  const failing = { Type: 'AWS::Lambda::Function', Properties: { FunctionName: 'always-fails', Handler: 'index.handler', Runtime: 'nodejs20.x', Role: 'r', Code: { ZipFile: 'exports.handler = async () => { throw new Error("no"); };' } } };
  const template = {
    Resources: {
      Table: {
        Type: 'AWS::DynamoDB::Table',
        Properties: {
          TableName: 'failing-stream',
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
          KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
          StreamSpecification: { StreamViewType: 'KEYS_ONLY' },
        },
      },
      Failed: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'ddb-failures' } },
      Fn: failing,
      Mapping: mapping('Fn', { BatchSize: 2, MaximumBatchingWindowInSeconds: 1, MaximumRetryAttempts: 1, DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': ['Failed', 'Arn'] } } } }),
    },
  };
  await t.cfn.send(new CreateStackCommand({ StackName: 'failing-streams', TemplateBody: JSON.stringify(template) }));
  assert.is((await settle(t.cfn, 'failing-streams')).StackStatus, 'CREATE_COMPLETE');
  const client = new DynamoDBClient({ ...t.config, maxAttempts: 1 });
  const doc = DynamoDBDocumentClient.from(client);
  for (const id of ['1', '2', '3']) await doc.send(new PutCommand({ TableName: 'failing-stream', Item: { id } }));
  client.destroy();
  const sqs = new SQSClient({ ...t.config, maxAttempts: 1 });
  const received: Record<string, Record<string, unknown>>[] = [];
  for (const deadline = Date.now() + 15_000; received.length < 2 && Date.now() < deadline; ) {
    const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: `${t.cloud.url}/000000000000/ddb-failures`, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
    received.push(...(Messages ?? []).map((message) => JSON.parse(message.Body!) as Record<string, Record<string, unknown>>));
  }
  sqs.destroy();
  assert.equal(
    received.map((failure) => [failure.requestContext.condition, failure.requestContext.approximateInvokeCount, failure.DDBStreamBatchInfo.batchSize, String(failure.DDBStreamBatchInfo.streamArn).includes(':table/failing-stream/stream/')]),
    [
      ['RetryAttemptsExhausted', 2, 2, true],
      ['RetryAttemptsExhausted', 2, 1, true],
    ],
  );
});

streams.run();
