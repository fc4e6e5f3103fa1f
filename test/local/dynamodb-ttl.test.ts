import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { CloudWatchLogsClient, FilterLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import {
  CreateTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  PutItemCommand,
  QueryCommand,
  ScanCommand,
  UpdateItemCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { failure, settle, startTestCloud, type TestCloud } from './helpers';

const ttl = suite<{ t: TestCloud; client: DynamoDBClient }>('DynamoDB reserved words and time to live');

ttl.before(async (context) => {
  // Expired items are swept every 100 ms here rather than every 5 s.
  process.env.FW_LOCAL_DYNAMODB_TTL_SWEEP_MS = '100';
  context.t = await startTestCloud();
  delete process.env.FW_LOCAL_DYNAMODB_TTL_SWEEP_MS;
  context.client = new DynamoDBClient({ ...context.t.config, maxAttempts: 1 });
  await context.client.send(
    new CreateTableCommand({
      TableName: 'orders',
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    }),
  );
});
ttl.after(async (context) => {
  context.client.destroy();
  await context.t.stop();
});

async function refusal(promise: Promise<unknown>): Promise<[string | undefined, string | undefined, number | undefined]> {
  const error = await failure(promise);
  return [error?.name, error?.message, error?.$metadata?.httpStatusCode];
}

ttl('a reserved word used bare as an attribute name is refused in every kind of expression, with AWS message', async ({ client }) => {
  const reserved = (expression: string, word: string): [string, string, number] => ['ValidationException', `Invalid ${expression}: Attribute name is a reserved keyword; reserved keyword: ${word}`, 400];
  assert.equal(
    await refusal(client.send(new UpdateItemCommand({ TableName: 'orders', Key: { pk: { S: 'a' } }, UpdateExpression: 'SET total = :v', ExpressionAttributeValues: { ':v': { N: '1' } } }))),
    reserved('UpdateExpression', 'total'),
  );
  assert.equal(
    await refusal(
      client.send(
        new UpdateItemCommand({
          TableName: 'orders',
          Key: { pk: { S: 'a' } },
          UpdateExpression: 'SET #n = :v',
          ConditionExpression: '#n = :v AND status = :s',
          ExpressionAttributeNames: { '#n': 'name' },
          ExpressionAttributeValues: { ':v': { S: 'x' }, ':s': { S: 'open' } },
        }),
      ),
    ),
    reserved('ConditionExpression', 'status'),
  );
  // The word is named as written; the list is not case-sensitive; nested names count too.
  assert.equal(
    await refusal(client.send(new ScanCommand({ TableName: 'orders', FilterExpression: 'info.Comment = :c', ExpressionAttributeValues: { ':c': { S: 'x' } } }))),
    reserved('FilterExpression', 'Comment'),
  );
  assert.equal(await refusal(client.send(new ScanCommand({ TableName: 'orders', ProjectionExpression: 'pk, size' }))), reserved('ProjectionExpression', 'size'));
  assert.equal(
    await refusal(client.send(new QueryCommand({ TableName: 'orders', KeyConditionExpression: 'pk = :p AND ttl > :t', ExpressionAttributeValues: { ':p': { S: 'a' }, ':t': { N: '1' } } }))),
    reserved('KeyConditionExpression', 'ttl'),
  );
  assert.equal(await refusal(client.send(new UpdateItemCommand({ TableName: 'orders', Key: { pk: { S: 'a' } }, UpdateExpression: 'REMOVE note, data' }))), reserved('UpdateExpression', 'data'));
  // Through a placeholder the same names are fine, and so are names that are not reserved.
  const written = await client.send(
    new UpdateItemCommand({
      TableName: 'orders',
      Key: { pk: { S: 'a' } },
      UpdateExpression: 'SET #total = :v, amount = :v, #status = :s',
      ExpressionAttributeNames: { '#total': 'total', '#status': 'status' },
      ExpressionAttributeValues: { ':v': { N: '5' }, ':s': { S: 'open' } },
      ReturnValues: 'ALL_NEW',
    }),
  );
  assert.equal(written.Attributes, { pk: { S: 'a' }, total: { N: '5' }, amount: { N: '5' }, status: { S: 'open' } });
  // size( is the function, not an attribute named size.
  const counted = await client.send(new ScanCommand({ TableName: 'orders', FilterExpression: 'size(pk) = :one', ExpressionAttributeValues: { ':one': { N: '1' } } }));
  assert.equal(counted.Count, 1);
});

ttl('UpdateTimeToLive and DescribeTimeToLive answer as AWS does, refusing a change to the state the table is in', async ({ t, client }) => {
  const describe = async (TableName = 'orders') => (await client.send(new DescribeTimeToLiveCommand({ TableName }))).TimeToLiveDescription;
  assert.equal(await describe(), { TimeToLiveStatus: 'DISABLED' });
  assert.equal(await refusal(client.send(new UpdateTimeToLiveCommand({ TableName: 'orders', TimeToLiveSpecification: { Enabled: false, AttributeName: 'expires' } }))), [
    'ValidationException',
    'TimeToLive is already disabled',
    400,
  ]);
  const enabled = await client.send(new UpdateTimeToLiveCommand({ TableName: 'orders', TimeToLiveSpecification: { Enabled: true, AttributeName: 'expires' } }));
  assert.equal(enabled.TimeToLiveSpecification, { Enabled: true, AttributeName: 'expires' });
  assert.equal(await describe(), { TimeToLiveStatus: 'ENABLED', AttributeName: 'expires' });
  assert.equal(await refusal(client.send(new UpdateTimeToLiveCommand({ TableName: 'orders', TimeToLiveSpecification: { Enabled: true, AttributeName: 'other' } }))), [
    'ValidationException',
    'TimeToLive is already enabled',
    400,
  ]);
  assert.equal(await refusal(client.send(new UpdateTimeToLiveCommand({ TableName: 'orders', TimeToLiveSpecification: { Enabled: true, AttributeName: '' } }))), [
    'ValidationException',
    "1 validation error detected: Value '' at 'timeToLiveSpecification.attributeName' failed to satisfy constraint: Member must have length greater than or equal to 1",
    400,
  ]);
  assert.equal(await refusal(describe('missing')), ['ResourceNotFoundException', 'Requested resource not found: Table: missing not found', 400]);
  const disabled = await client.send(new UpdateTimeToLiveCommand({ TableName: 'orders', TimeToLiveSpecification: { Enabled: false, AttributeName: 'expires' } }));
  assert.equal(disabled.TimeToLiveSpecification, { Enabled: false, AttributeName: 'expires' });
  assert.equal(await describe(), { TimeToLiveStatus: 'DISABLED' });
  await client.send(new UpdateTimeToLiveCommand({ TableName: 'orders', TimeToLiveSpecification: { Enabled: true, AttributeName: 'expires' } }));

  // The setting is kept with the table across a restart.
  await t.stop({ keepData: true });
  const again = await startTestCloud(t.dataDir);
  const reopened = new DynamoDBClient({ ...again.config, maxAttempts: 1 });
  assert.equal((await reopened.send(new DescribeTimeToLiveCommand({ TableName: 'orders' }))).TimeToLiveDescription, { TimeToLiveStatus: 'ENABLED', AttributeName: 'expires' });
  reopened.destroy();
  await again.stop();
});

const code = `exports.handler = async (event) => {
  for (const r of event.Records) console.log('RECORD ' + JSON.stringify([r.eventName, r.dynamodb.Keys.id.S, r.userIdentity ?? null]));
};`;

ttl("a stack's TimeToLiveSpecification enables TTL; expired items are deleted within the sweep and streamed as DynamoDB's deletions", async (context) => {
  process.env.FW_LOCAL_DYNAMODB_TTL_SWEEP_MS = '100';
  const t = (context.t = await startTestCloud());
  delete process.env.FW_LOCAL_DYNAMODB_TTL_SWEEP_MS;
  context.client.destroy();
  const client = (context.client = new DynamoDBClient({ ...t.config, maxAttempts: 1 }));
  const template = {
    Resources: {
      Table: {
        Type: 'AWS::DynamoDB::Table',
        Properties: {
          TableName: 'sessions',
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
          KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
          StreamSpecification: { StreamViewType: 'KEYS_ONLY' },
          TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
        },
      },
      Reader: { Type: 'AWS::Lambda::Function', Properties: { FunctionName: 'ttl-reader', Handler: 'index.handler', Runtime: 'nodejs20.x', Role: 'r', Code: { ZipFile: code } } },
      Mapping: {
        Type: 'AWS::Lambda::EventSourceMapping',
        Properties: { EventSourceArn: { 'Fn::GetAtt': ['Table', 'StreamArn'] }, FunctionName: { 'Fn::GetAtt': ['Reader', 'Arn'] }, StartingPosition: 'LATEST' },
      },
    },
  };
  await t.cfn.send(new CreateStackCommand({ StackName: 'ttl', TemplateBody: JSON.stringify(template) }));
  assert.is((await settle(t.cfn, 'ttl')).StackStatus, 'CREATE_COMPLETE');
  assert.equal((await client.send(new DescribeTimeToLiveCommand({ TableName: 'sessions' }))).TimeToLiveDescription, { TimeToLiveStatus: 'ENABLED', AttributeName: 'expiresAt' });

  const now = Math.floor(Date.now() / 1000);
  // The expired item goes in last, so that its deletion is the last stream record.
  await client.send(new PutItemCommand({ TableName: 'sessions', Item: { id: { S: 'none' } } }));
  const items = {
    future: { N: String(now + 3600) },
    // Not a Number, or more than five years past (milliseconds, say): AWS never deletes these.
    text: { S: String(now - 10) },
    ancient: { N: String(now - 6 * 365 * 24 * 3600) },
    expired: { N: String(now - 10) },
  };
  for (const [id, expiresAt] of Object.entries(items)) await client.send(new PutItemCommand({ TableName: 'sessions', Item: { id: { S: id }, expiresAt } }));

  const started = Date.now();
  let left: string[] = [];
  for (const deadline = Date.now() + 5_000; Date.now() < deadline; ) {
    left = (await client.send(new ScanCommand({ TableName: 'sessions' }))).Items!.map((item) => item.id.S!).sort();
    if (!left.includes('expired')) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.equal(left, ['ancient', 'future', 'none', 'text']);
  assert.ok(Date.now() - started < 3_000, `the expired item went after ${Date.now() - started} ms`);

  const logs = new CloudWatchLogsClient({ ...t.config, maxAttempts: 1 });
  let found: unknown[] = [];
  for (const deadline = Date.now() + 20_000; Date.now() < deadline && found.length < 6; ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const { events } = await logs.send(new FilterLogEventsCommand({ logGroupName: '/aws/lambda/ttl-reader', filterPattern: 'RECORD' }));
    found = events!.map((event) => JSON.parse(event.message!.split('RECORD ')[1]));
  }
  logs.destroy();
  assert.equal(found, [
    ['INSERT', 'none', null],
    ['INSERT', 'future', null],
    ['INSERT', 'text', null],
    ['INSERT', 'ancient', null],
    ['INSERT', 'expired', null],
    ['REMOVE', 'expired', { type: 'Service', principalId: 'dynamodb.amazonaws.com' }],
  ]);
});

ttl.run();
