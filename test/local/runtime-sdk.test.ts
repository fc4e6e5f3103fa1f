import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { settle, startTestCloud, zip, type TestCloud } from './helpers';

interface Context {
  t: TestCloud;
  lambda: LambdaClient;
}

const CODE_KEY = 'serverless/sdk/dev/code.zip';

/** Handlers that use the SDK the Lambda runtime bundles, without shipping it. */
const HANDLERS: Record<string, string> = {
  'cjs.js': `
    const { DynamoDBClient } = require('@aws-sdk/client-dynamodb');
    const { DynamoDBDocumentClient, PutCommand, GetCommand } = require('@aws-sdk/lib-dynamodb');
    const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
    exports.handler = async (event) => {
      await doc.send(new PutCommand({ TableName: process.env.TABLE, Item: { id: event.id, by: 'cjs' } }));
      return (await doc.send(new GetCommand({ TableName: process.env.TABLE, Key: { id: event.id } }))).Item;
    };`,
  'esm.mjs': `
    import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
    import { SQSClient } from '@aws-sdk/client-sqs';
    export const handler = async () => ({ tables: (await new DynamoDBClient({}).send(new ListTablesCommand({}))).TableNames, sqs: typeof SQSClient });`,
  'own/handler.js': `exports.handler = async () => require('@aws-sdk/client-dynamodb').origin;`,
  'own/node_modules/@aws-sdk/client-dynamodb/package.json': '{"name":"@aws-sdk/client-dynamodb","version":"0.0.1","main":"index.js"}',
  'own/node_modules/@aws-sdk/client-dynamodb/index.js': `exports.origin = 'the service bundled its own copy';`,
  'missing.js': `exports.handler = async () => require('not-a-real-package');`,
  'dynamic.js': `exports.handler = async () => typeof (await import('@aws-sdk/client-sqs')).SQSClient;`,
};

const fn = (name: string, handler: string) => ({
  Type: 'AWS::Lambda::Function',
  Properties: {
    Code: { S3Bucket: 'deploys', S3Key: CODE_KEY },
    Handler: handler,
    Runtime: 'nodejs20.x',
    FunctionName: `sdk-${name}`,
    Role: 'arn:aws:iam::000000000000:role/sdk',
    Environment: { Variables: { TABLE: { Ref: 'Table' } } },
  },
});

const template = {
  Resources: {
    Table: {
      Type: 'AWS::DynamoDB::Table',
      Properties: { TableName: 'sdk-table', BillingMode: 'PAY_PER_REQUEST', AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }], KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }] },
    },
    Cjs: fn('cjs', 'cjs.handler'),
    Esm: fn('esm', 'esm.handler'),
    Own: fn('own', 'own/handler.handler'),
    Missing: fn('missing', 'missing.handler'),
    Dynamic: fn('dynamic', 'dynamic.handler'),
  },
};

const sdk = suite<Context>("functions use the Lambda runtime's AWS SDK");

sdk.before(async (context) => {
  context.t = await startTestCloud();
  context.lambda = new LambdaClient({ ...context.t.config, maxAttempts: 1 });
  await context.t.s3.send(new CreateBucketCommand({ Bucket: 'deploys' }));
  await context.t.s3.send(new PutObjectCommand({ Bucket: 'deploys', Key: CODE_KEY, Body: await zip(HANDLERS) }));
  await context.t.cfn.send(new CreateStackCommand({ StackName: 'sdk', TemplateBody: JSON.stringify(template) }));
  const stack = await settle(context.t.cfn, 'sdk');
  assert.is(stack.StackStatus, 'CREATE_COMPLETE', stack.StackStatusReason);
});

sdk.after(async (context) => {
  context.lambda.destroy();
  await context.t.stop();
});

async function invoke(lambda: LambdaClient, name: string, event: unknown = {}): Promise<unknown> {
  const result = await lambda.send(new InvokeCommand({ FunctionName: `sdk-${name}`, Payload: Buffer.from(JSON.stringify(event)) }));
  return JSON.parse(Buffer.from(result.Payload!).toString());
}

sdk('a CommonJS handler requires the SDK and writes to the local table without configuration', async ({ t, lambda }) => {
  assert.equal(await invoke(lambda, 'cjs', { id: 'o-1' }), { id: 'o-1', by: 'cjs' });
  const client = new DynamoDBClient({ ...t.config, maxAttempts: 1 });
  const { Item } = await client.send(new GetItemCommand({ TableName: 'sdk-table', Key: { id: { S: 'o-1' } } }));
  client.destroy();
  assert.equal(Item, { id: { S: 'o-1' }, by: { S: 'cjs' } });
});

sdk('an ES module handler imports the SDK clients', async ({ lambda }) => {
  assert.equal(await invoke(lambda, 'esm'), { tables: ['sdk-table'], sqs: 'function' });
});

// The import hook is registered only for handlers that may import (it costs each cold start a loader thread).
sdk('a CommonJS handler that calls import() imports the SDK', async ({ lambda }) => {
  assert.is(await invoke(lambda, 'dynamic'), 'function');
});

sdk("a service's own node_modules wins over the runtime's SDK, as on AWS", async ({ lambda }) => {
  assert.is(await invoke(lambda, 'own'), 'the service bundled its own copy');
});

sdk('a package neither the service nor the runtime has is still missing', async ({ lambda }) => {
  const error = (await invoke(lambda, 'missing')) as { errorType: string; errorMessage: string };
  assert.equal([error.errorType, error.errorMessage.split('\n')[0]], ['Error', "Cannot find module 'not-a-real-package'"]);
});

sdk.run();
