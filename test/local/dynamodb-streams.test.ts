import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { CloudWatchLogsClient, FilterLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
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

streams.run();
