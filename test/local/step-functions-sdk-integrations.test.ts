import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateBucketCommand, GetObjectCommand } from '@aws-sdk/client-s3';
import { CreateTableCommand, DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { CreateFunctionCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { CreateSecretCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { CreateStateMachineCommand, DescribeExecutionCommand, GetExecutionHistoryCommand, SendTaskSuccessCommand, SFNClient, StartExecutionCommand, type DescribeExecutionCommandOutput, type HistoryEvent } from '@aws-sdk/client-sfn';
import { shaped, startTestCloud, zip, type TestCloud } from './helpers';

const ROLE = 'arn:aws:iam::000000000000:role/flows';

interface Context {
  t: TestCloud;
  sfn: SFNClient;
  queueUrl: string;
}

async function finished(sfn: SFNClient, executionArn: string): Promise<DescribeExecutionCommandOutput> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const described = await sfn.send(new DescribeExecutionCommand({ executionArn }));
    if (described.status !== 'RUNNING') return described;
    if (Date.now() > deadline) throw new Error(`${executionArn} still RUNNING`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Creates a state machine of the given states and starts it. */
async function startMachine(sfn: SFNClient, name: string, states: Record<string, unknown>, input: unknown): Promise<string> {
  const definition = JSON.stringify({ StartAt: Object.keys(states)[0], States: states });
  const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name, definition, roleArn: ROLE }));
  const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn, input: JSON.stringify(input) }));
  return executionArn!;
}

/** Creates a state machine of the given states and runs it to its end. */
async function runMachine(sfn: SFNClient, name: string, states: Record<string, unknown>, input: unknown): Promise<DescribeExecutionCommandOutput> {
  return finished(sfn, await startMachine(sfn, name, states, input));
}

const CHECK = `exports.handler = async (event) => {
  if (event.amount > 100) throw Object.assign(new Error('too much'), { name: 'Refused', stack: 'Refused: too much' });
  return { ok: event.amount };
};`;

/** The history without the times, as `type` and details. */
async function history(sfn: SFNClient, executionArn: string): Promise<unknown[]> {
  const { events = [] } = await sfn.send(new GetExecutionHistoryCommand({ executionArn }));
  return events.map((event: HistoryEvent) => {
    const { timestamp: _, $metadata: __, ...rest } = event as HistoryEvent & { $metadata?: unknown };
    return Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
  });
}

const sdk = suite<Context>('Step Functions AWS SDK integrations in the local cloud');

sdk.before(async (context) => {
  context.t = await startTestCloud();
  const { config } = context.t;
  context.sfn = new SFNClient({ ...config, maxAttempts: 1 });
  const dynamodb = new DynamoDBClient({ ...config, maxAttempts: 1 });
  await dynamodb.send(
    new CreateTableCommand({
      TableName: 'orders',
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
  dynamodb.destroy();
  const sqs = new SQSClient({ ...config, maxAttempts: 1 });
  context.queueUrl = (await sqs.send(new CreateQueueCommand({ QueueName: 'jobs' }))).QueueUrl!;
  sqs.destroy();
  const ssm = new SSMClient({ ...config, maxAttempts: 1 });
  await ssm.send(new PutParameterCommand({ Name: '/app/greeting', Value: 'hello', Type: 'String' }));
  ssm.destroy();
  const secrets = new SecretsManagerClient({ ...config, maxAttempts: 1 });
  await secrets.send(new CreateSecretCommand({ Name: 'app/db', SecretString: JSON.stringify({ user: 'admin' }) }));
  secrets.destroy();
  await context.t.s3.send(new CreateBucketCommand({ Bucket: 'docs' }));
  const lambda = new LambdaClient({ ...config, maxAttempts: 1 });
  await lambda.send(new CreateFunctionCommand({ FunctionName: 'check', Runtime: 'nodejs20.x', Role: ROLE, Handler: 'index.handler', Code: { ZipFile: await zip({ 'index.js': CHECK }) } }));
  lambda.destroy();
});

sdk.after(async ({ t, sfn }) => {
  sfn.destroy();
  await t.stop();
});

sdk('DynamoDB putItem, getItem and query, an SSM parameter, a secret and an SQS message: each result is the API response in the SDK model', async ({ t, sfn, queueUrl }) => {
  const item = (sk: string) => ({ pk: { 'S.$': '$.customer' }, sk: { S: sk }, paid: { Bool: true }, labels: { Ss: ['a', 'b'] }, note: { Nul: true } });
  const done = await runMachine(
    sfn,
    'sdk-reads',
    {
      First: { Type: 'Task', Resource: 'arn:aws:states:::aws-sdk:dynamodb:putItem', Parameters: { TableName: 'orders', Item: item('o-1') }, ResultPath: '$.put', Next: 'Second' },
      Second: { Type: 'Task', Resource: 'arn:aws:states:::aws-sdk:dynamodb:putItem', Parameters: { TableName: 'orders', Item: item('o-2') }, ResultPath: null, Next: 'Get' },
      Get: { Type: 'Task', Resource: 'arn:aws:states:::aws-sdk:dynamodb:getItem', Parameters: { TableName: 'orders', Key: { pk: { 'S.$': '$.customer' }, sk: { S: 'o-1' } } }, ResultPath: '$.got', Next: 'Query' },
      Query: {
        Type: 'Task',
        Resource: 'arn:aws:states:::aws-sdk:dynamodb:query',
        Parameters: { TableName: 'orders', KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': { 'S.$': '$.customer' } }, ProjectionExpression: 'sk' },
        ResultPath: '$.queried',
        Next: 'Parameter',
      },
      Parameter: { Type: 'Task', Resource: 'arn:aws:states:::aws-sdk:ssm:getParameter', Parameters: { Name: '/app/greeting' }, ResultSelector: { 'value.$': '$.Parameter.Value', 'type.$': '$.Parameter.Type' }, ResultPath: '$.greeting', Next: 'Secret' },
      Secret: { Type: 'Task', Resource: 'arn:aws:states:::aws-sdk:secretsmanager:getSecretValue', Parameters: { SecretId: 'app/db' }, ResultSelector: { 'name.$': '$.Name', 'value.$': 'States.StringToJson($.SecretString)', 'created.$': '$.CreatedDate' }, ResultPath: '$.secret', Next: 'Send' },
      Send: { Type: 'Task', Resource: 'arn:aws:states:::aws-sdk:sqs:sendMessage', Parameters: { QueueUrl: queueUrl, 'MessageBody.$': 'States.JsonToString($.queried.Items)' }, ResultSelector: { 'md5.$': '$.MD5OfMessageBody' }, ResultPath: '$.sent', End: true },
    },
    { customer: 'ada' },
  );
  assert.is(done.status, 'SUCCEEDED', done.cause);
  const output = JSON.parse(done.output!) as Record<string, Record<string, unknown>>;
  assert.equal(shaped(output, { 'secret.created': /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/ }), {
    customer: 'ada',
    put: {},
    got: { Item: { pk: { S: 'ada' }, sk: { S: 'o-1' }, paid: { Bool: true }, labels: { Ss: ['a', 'b'] }, note: { Nul: true } } },
    queried: { Count: 2, Items: [{ sk: { S: 'o-1' } }, { sk: { S: 'o-2' } }], ScannedCount: 2 },
    greeting: { value: 'hello', type: 'String' },
    secret: { name: 'app/db', value: { user: 'admin' }, created: '<secret.created>' },
    sent: { md5: 'e64f4d05ce4067e0e75f62d055358b87' },
  });
  const dynamodb = new DynamoDBClient({ ...t.config, maxAttempts: 1 });
  const { Item } = await dynamodb.send(new GetItemCommand({ TableName: 'orders', Key: { pk: { S: 'ada' }, sk: { S: 'o-2' } } }));
  dynamodb.destroy();
  assert.equal(Item, { pk: { S: 'ada' }, sk: { S: 'o-2' }, paid: { BOOL: true }, labels: { SS: ['a', 'b'] }, note: { NULL: true } });
  const sqs = new SQSClient({ ...t.config, maxAttempts: 1 });
  const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl }));
  sqs.destroy();
  assert.equal(Messages.map((message) => message.Body), ['[{"sk":{"S":"o-1"}},{"sk":{"S":"o-2"}}]']);
});

sdk('a failed call is <ServiceName>.<Exception>: Catch on DynamoDb.ConditionalCheckFailedException takes it, the history records it whole', async ({ sfn }) => {
  const put = { TableName: 'orders', Item: { pk: { S: 'lock' }, sk: { S: 'lock' } }, ConditionExpression: 'attribute_not_exists(pk)' };
  const done = await runMachine(
    sfn,
    'sdk-lock',
    {
      Take: { Type: 'Task', Resource: 'arn:aws:states:::aws-sdk:dynamodb:putItem', Parameters: put, ResultPath: null, Next: 'Again' },
      Again: {
        Type: 'Task',
        Resource: 'arn:aws:states:::aws-sdk:dynamodb:putItem',
        Parameters: put,
        Catch: [
          { ErrorEquals: ['DynamoDB.ConditionalCheckFailedException'], Next: 'Wrong' },
          { ErrorEquals: ['DynamoDb.ConditionalCheckFailedException'], ResultPath: '$.taken', Next: 'Held' },
        ],
        End: true,
      },
      Wrong: { Type: 'Fail', Error: 'Wrong', Cause: 'the optimized integration name matched' },
      Held: { Type: 'Pass', Parameters: { 'error.$': '$.taken.Error' }, End: true },
    },
    {},
  );
  assert.equal([done.status, done.output], ['SUCCEEDED', JSON.stringify({ error: 'DynamoDb.ConditionalCheckFailedException' })]);
  const events = await history(sfn, done.executionArn!);
  const names = { resourceType: 'aws-sdk:dynamodb', resource: 'putItem' };
  const scheduled = { ...names, region: 'us-east-1', parameters: JSON.stringify(put) };
  const io = (value: unknown) => ({ input: JSON.stringify(value), inputDetails: { truncated: false } });
  const out = (value: unknown) => ({ output: JSON.stringify(value), outputDetails: { truncated: false } });
  const cause = 'The conditional request failed (Service: DynamoDb, Status Code: 400, Request ID: <id>)';
  assert.equal(
    events.map((event) => JSON.parse(JSON.stringify(event).replace(/Request ID: [0-9a-f-]{36}/, 'Request ID: <id>'))),
    [
      { type: 'ExecutionStarted', id: 1, previousEventId: 0, executionStartedEventDetails: { ...io({}), roleArn: ROLE } },
      { type: 'TaskStateEntered', id: 2, previousEventId: 1, stateEnteredEventDetails: { name: 'Take', ...io({}) } },
      { type: 'TaskScheduled', id: 3, previousEventId: 2, taskScheduledEventDetails: scheduled },
      { type: 'TaskStarted', id: 4, previousEventId: 3, taskStartedEventDetails: names },
      { type: 'TaskSucceeded', id: 5, previousEventId: 4, taskSucceededEventDetails: { ...names, ...out({}) } },
      { type: 'TaskStateExited', id: 6, previousEventId: 5, stateExitedEventDetails: { name: 'Take', ...out({}) } },
      { type: 'TaskStateEntered', id: 7, previousEventId: 6, stateEnteredEventDetails: { name: 'Again', ...io({}) } },
      { type: 'TaskScheduled', id: 8, previousEventId: 7, taskScheduledEventDetails: scheduled },
      { type: 'TaskStarted', id: 9, previousEventId: 8, taskStartedEventDetails: names },
      { type: 'TaskFailed', id: 10, previousEventId: 9, taskFailedEventDetails: { ...names, error: 'DynamoDb.ConditionalCheckFailedException', cause } },
      { type: 'TaskStateExited', id: 11, previousEventId: 10, stateExitedEventDetails: { name: 'Again', ...out({ taken: { Error: 'DynamoDb.ConditionalCheckFailedException', Cause: cause } }) } },
      { type: 'PassStateEntered', id: 12, previousEventId: 11, stateEnteredEventDetails: { name: 'Held', ...io({ taken: { Error: 'DynamoDb.ConditionalCheckFailedException', Cause: cause } }) } },
      { type: 'PassStateExited', id: 13, previousEventId: 12, stateExitedEventDetails: { name: 'Held', ...out({ error: 'DynamoDb.ConditionalCheckFailedException' }) } },
      { type: 'ExecutionSucceeded', id: 14, previousEventId: 13, executionSucceededEventDetails: out({ error: 'DynamoDb.ConditionalCheckFailedException' }) },
    ],
  );
});

sdk('a missing SSM parameter and a missing secret are Ssm.ParameterNotFoundException and SecretsManager.ResourceNotFoundException, each caught', async ({ sfn }) => {
  const requestId = / \(Service: (Ssm|SecretsManager), Status Code: 400, Request ID: [0-9a-f-]{36}\)$/;
  const done = await runMachine(
    sfn,
    'sdk-missing',
    {
      Parameter: { Type: 'Task', Resource: 'arn:aws:states:::aws-sdk:ssm:getParameter', Parameters: { Name: '/app/missing' }, Catch: [{ ErrorEquals: ['Ssm.ParameterNotFoundException'], ResultPath: '$.parameter', Next: 'Secret' }], Next: 'Secret' },
      Secret: { Type: 'Task', Resource: 'arn:aws:states:::aws-sdk:secretsmanager:getSecretValue', Parameters: { SecretId: 'app/missing' }, Catch: [{ ErrorEquals: ['SecretsManager.ResourceNotFoundException'], ResultPath: '$.secret', Next: 'Done' }], Next: 'Done' },
      Done: { Type: 'Succeed' },
    },
    {},
  );
  assert.is(done.status, 'SUCCEEDED', done.cause);
  const output = JSON.parse(done.output!) as Record<string, { Error: string; Cause: string }>;
  assert.equal(
    Object.fromEntries(Object.entries(output).map(([key, { Error, Cause }]) => [key, { Error, Cause: Cause.replace(requestId, ' (Service: $1, Status Code: 400, Request ID: <id>)') }])),
    {
      parameter: { Error: 'Ssm.ParameterNotFoundException', Cause: 'Parameter /app/missing not found. (Service: Ssm, Status Code: 400, Request ID: <id>)' },
      secret: { Error: 'SecretsManager.ResourceNotFoundException', Cause: "Secrets Manager can't find the specified secret. (Service: SecretsManager, Status Code: 400, Request ID: <id>)" },
    },
  );
});

sdk('S3 putObject and getObject, a missing key as S3.NoSuchKeyException; Step Functions startExecution in PascalCase with an ISO-8601 StartDate', async ({ t, sfn }) => {
  const { stateMachineArn: childArn } = await sfn.send(new CreateStateMachineCommand({ name: 'sdk-child', definition: JSON.stringify({ StartAt: 'Done', States: { Done: { Type: 'Succeed' } } }), roleArn: ROLE }));
  const done = await runMachine(
    sfn,
    'sdk-objects',
    {
      Write: { Type: 'Task', Resource: 'arn:aws:states:::aws-sdk:s3:putObject', Parameters: { Bucket: 'docs', Key: 'report.json', 'Body.$': '$.report', ContentType: 'application/json' }, ResultPath: '$.written', Next: 'Read' },
      Read: { Type: 'Task', Resource: 'arn:aws:states:::aws-sdk:s3:getObject', Parameters: { Bucket: 'docs', Key: 'report.json' }, ResultSelector: { 'body.$': 'States.StringToJson($.Body)', 'type.$': '$.ContentType', 'length.$': '$.ContentLength', 'etag.$': '$.ETag' }, ResultPath: '$.read', Next: 'Missing' },
      Missing: {
        Type: 'Task',
        Resource: 'arn:aws:states:::aws-sdk:s3:getObject',
        Parameters: { Bucket: 'docs', Key: 'nothing.json' },
        Catch: [{ ErrorEquals: ['S3.NoSuchKeyException'], ResultPath: '$.missing', Next: 'Start' }],
        Next: 'Start',
      },
      Start: { Type: 'Task', Resource: 'arn:aws:states:::aws-sdk:sfn:startExecution', Parameters: { StateMachineArn: childArn, Name: 'from-parent', Input: '{"from":"parent"}' }, ResultPath: '$.started', End: true },
    },
    { report: { rows: 3 } },
  );
  assert.is(done.status, 'SUCCEEDED', done.cause);
  const output = JSON.parse(done.output!) as Record<string, unknown>;
  assert.equal(
    shaped(output, { 'written.ETag': /^"[0-9a-f]{32}"$/, 'read.etag': /^"[0-9a-f]{32}"$/, 'missing.Cause': /^The specified key does not exist\. \(Service: S3, Status Code: 404, Request ID: [0-9a-f-]{36}\)$/, 'started.StartDate': /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/ }),
    {
      report: { rows: 3 },
      written: { ETag: '<written.ETag>' },
      read: { body: { rows: 3 }, type: 'application/json', length: 10, etag: '<read.etag>' },
      missing: { Error: 'S3.NoSuchKeyException', Cause: '<missing.Cause>' },
      started: { ExecutionArn: 'arn:aws:states:us-east-1:000000000000:execution:sdk-child:from-parent', StartDate: '<started.StartDate>' },
    },
  );
  const object = await t.s3.send(new GetObjectCommand({ Bucket: 'docs', Key: 'report.json' }));
  assert.equal([await object.Body!.transformToString(), object.ContentType], ['{"rows":3}', 'application/json']);
  const child = await finished(sfn, 'arn:aws:states:us-east-1:000000000000:execution:sdk-child:from-parent');
  assert.equal([child.status, child.input], ['SUCCEEDED', '{"from":"parent"}']);
});

sdk("aws-sdk:lambda:invoke answers Lambda's response (Payload as text, a function error as FunctionError, not a failed task); .waitForTaskToken waits for SendTaskSuccess", async ({ t, sfn, queueUrl }) => {
  const invoked = await runMachine(
    sfn,
    'sdk-invoke',
    {
      Accept: { Type: 'Task', Resource: 'arn:aws:states:::aws-sdk:lambda:invoke', Parameters: { FunctionName: 'check', Payload: '{"amount":5}' }, ResultPath: '$.accepted', Next: 'Refuse' },
      Refuse: { Type: 'Task', Resource: 'arn:aws:states:::aws-sdk:lambda:invoke', Parameters: { FunctionName: 'check', 'Payload.$': 'States.JsonToString($.big)' }, ResultPath: '$.refused', End: true },
    },
    { big: { amount: 500 } },
  );
  assert.is(invoked.status, 'SUCCEEDED', invoked.cause);
  const refusal = JSON.parse(JSON.parse(invoked.output!).refused.Payload as string) as Record<string, unknown>;
  assert.equal(JSON.parse(invoked.output!), {
    big: { amount: 500 },
    accepted: { ExecutedVersion: '$LATEST', Payload: '{"ok":5}', StatusCode: 200 },
    refused: { ExecutedVersion: '$LATEST', FunctionError: 'Unhandled', Payload: JSON.stringify(refusal), StatusCode: 200 },
  });
  assert.equal([refusal.errorType, refusal.errorMessage], ['Refused', 'too much']);

  const executionArn = await startMachine(
    sfn,
    'sdk-callback',
    { Ask: { Type: 'Task', Resource: 'arn:aws:states:::aws-sdk:sqs:sendMessage.waitForTaskToken', Parameters: { QueueUrl: queueUrl, 'MessageBody.$': '$$.Task.Token' }, End: true } },
    {},
  );
  const sqs = new SQSClient({ ...t.config, maxAttempts: 1 });
  let token: string | undefined;
  for (let tries = 0; token === undefined && tries < 50; tries++) {
    const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, WaitTimeSeconds: 1 }));
    token = Messages[0]?.Body;
  }
  sqs.destroy();
  assert.is((await sfn.send(new DescribeExecutionCommand({ executionArn }))).status, 'RUNNING');
  await sfn.send(new SendTaskSuccessCommand({ taskToken: token, output: JSON.stringify({ approved: true }) }));
  const answered = await finished(sfn, executionArn);
  assert.equal([answered.status, answered.output], ['SUCCEEDED', JSON.stringify({ approved: true })]);
  const types = (await history(sfn, executionArn)).map((event) => [(event as { type: string }).type, (event as { taskSubmittedEventDetails?: { resource: string } }).taskSubmittedEventDetails?.resource]);
  assert.equal(types, [['ExecutionStarted', undefined], ['TaskStateEntered', undefined], ['TaskScheduled', undefined], ['TaskStarted', undefined], ['TaskSubmitted', 'sendMessage.waitForTaskToken'], ['TaskSucceeded', undefined], ['TaskStateExited', undefined], ['ExecutionSucceeded', undefined]]);
});

sdk('camelCase APIs (CloudWatch Logs) take and answer PascalCase, a tag map keeps its keys; KMS and EventBridge answer their responses', async ({ sfn }) => {
  const done = await runMachine(
    sfn,
    'sdk-json-services',
    {
      Group: { Type: 'Task', Resource: 'arn:aws:states:::aws-sdk:cloudwatchlogs:createLogGroup', Parameters: { LogGroupName: '/app/audit', Tags: { team: 'core', Owner: 'ada' } }, ResultPath: '$.created', Next: 'Tags' },
      Tags: { Type: 'Task', Resource: 'arn:aws:states:::aws-sdk:cloudwatchlogs:listTagsLogGroup', Parameters: { LogGroupName: '/app/audit' }, ResultPath: '$.tags', Next: 'Groups' },
      Groups: { Type: 'Task', Resource: 'arn:aws:states:::aws-sdk:cloudwatchlogs:describeLogGroups', Parameters: { LogGroupNamePrefix: '/app/' }, ResultPath: '$.groups', Next: 'Key' },
      Key: { Type: 'Task', Resource: 'arn:aws:states:::aws-sdk:kms:createKey', Parameters: { Description: 'audit' }, ResultSelector: { 'id.$': '$.KeyMetadata.KeyId', 'state.$': '$.KeyMetadata.KeyState', 'created.$': '$.KeyMetadata.CreationDate' }, ResultPath: '$.key', Next: 'Encrypt' },
      Encrypt: { Type: 'Task', Resource: 'arn:aws:states:::aws-sdk:kms:encrypt', Parameters: { 'KeyId.$': '$.key.id', Plaintext: 'aGVsbG8=' }, ResultPath: '$.encrypted', Next: 'Decrypt' },
      Decrypt: { Type: 'Task', Resource: 'arn:aws:states:::aws-sdk:kms:decrypt', Parameters: { 'CiphertextBlob.$': '$.encrypted.CiphertextBlob' }, ResultSelector: { 'plaintext.$': '$.Plaintext' }, ResultPath: '$.decrypted', Next: 'Publish' },
      Publish: { Type: 'Task', Resource: 'arn:aws:states:::aws-sdk:eventbridge:putEvents', Parameters: { Entries: [{ Source: 'app', DetailType: 'audit', Detail: '{}' }] }, ResultPath: '$.events', End: true },
    },
    {},
  );
  assert.is(done.status, 'SUCCEEDED', done.cause);
  const keyArn = /^arn:aws:kms:us-east-1:000000000000:key\/[0-9a-f-]{36}$/;
  assert.equal(
    shaped(JSON.parse(done.output!), {
      'groups.LogGroups\\[0\\].CreationTime': /^\d{13}$/,
      'key.id': /^[0-9a-f-]{36}$/,
      'key.created': /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/,
      'encrypted.CiphertextBlob': /^[A-Za-z0-9+/]+=*$/,
      'encrypted.KeyId': keyArn,
      'events.Entries\\[0\\].EventId': /^[0-9a-f-]{36}$/,
    }),
    {
      created: {},
      tags: { Tags: { team: 'core', Owner: 'ada' } },
      groups: { LogGroups: [{ LogGroupName: '/app/audit', CreationTime: '<groups.LogGroups\\[0\\].CreationTime>', MetricFilterCount: 0, Arn: 'arn:aws:logs:us-east-1:000000000000:log-group:/app/audit:*', StoredBytes: 0 }] },
      key: { id: '<key.id>', state: 'Enabled', created: '<key.created>' },
      encrypted: { CiphertextBlob: '<encrypted.CiphertextBlob>', KeyId: '<encrypted.KeyId>', EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' },
      decrypted: { plaintext: 'aGVsbG8=' },
      events: { FailedEntryCount: 0, Entries: [{ EventId: '<events.Entries\\[0\\].EventId>' }] },
    },
  );
});

sdk('a service or an action the local cloud does not run fails the task with States.Runtime naming the resource', async ({ sfn }) => {
  const athena = await runMachine(sfn, 'sdk-athena', { Query: { Type: 'Task', Resource: 'arn:aws:states:::aws-sdk:athena:startQueryExecution', Parameters: { QueryString: 'SELECT 1' }, End: true } }, {});
  assert.equal(
    [athena.status, athena.error, athena.cause],
    [
      'FAILED',
      'States.Runtime',
      'not emulated: the Task resource arn:aws:states:::aws-sdk:athena:startQueryExecution (the local cloud runs Lambda functions, the lambda:invoke, sqs:sendMessage, sns:publish, dynamodb:putItem/getItem/updateItem/deleteItem, events:putEvents and states:startExecution integrations, and the SDK integrations aws-sdk:dynamodb/sqs/secretsmanager/ssm/eventbridge/sfn/kms/cloudwatchlogs/kinesis/cognitoidentityprovider/cloudwatch/ecr (any action their API serves), aws-sdk:lambda:invoke, aws-sdk:s3:getObject/putObject, aws-sdk:sns:publish)',
    ],
  );
  const exported = await runMachine(sfn, 'sdk-export', { Export: { Type: 'Task', Resource: 'arn:aws:states:::aws-sdk:dynamodb:exportTableToPointInTime', Parameters: { TableArn: 'arn:aws:dynamodb:us-east-1:000000000000:table/orders', S3Bucket: 'exports' }, End: true } }, {});
  assert.equal([exported.status, exported.error, exported.cause], ['FAILED', 'States.Runtime', 'not emulated: the Task resource arn:aws:states:::aws-sdk:dynamodb:exportTableToPointInTime (not emulated: DynamoDB ExportTableToPointInTime)']);
});

sdk.run();
