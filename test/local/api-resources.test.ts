import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CloudWatchLogsClient, CreateLogGroupCommand, FilterLogEventsCommand, CreateLogStreamCommand, DeleteLogGroupCommand, DescribeLogGroupsCommand, GetLogEventsCommand, PutLogEventsCommand, PutRetentionPolicyCommand } from '@aws-sdk/client-cloudwatch-logs';
import {
  CreateEventBusCommand,
  DeleteRuleCommand,
  DescribeRuleCommand,
  EventBridgeClient,
  ListRulesCommand,
  PutEventsCommand,
  PutRuleCommand,
  PutTargetsCommand,
  RemoveTargetsCommand,
} from '@aws-sdk/client-eventbridge';
import { CreateStreamCommand, KinesisClient, PutRecordCommand } from '@aws-sdk/client-kinesis';
import {
  AddPermissionCommand,
  CreateEventSourceMappingCommand,
  CreateFunctionCommand,
  DeleteEventSourceMappingCommand,
  DeleteFunctionCommand,
  GetEventSourceMappingCommand,
  GetFunctionConfigurationCommand,
  GetPolicyCommand,
  InvokeCommand,
  LambdaClient,
  ListEventSourceMappingsCommand,
  RemovePermissionCommand,
  UpdateEventSourceMappingCommand,
} from '@aws-sdk/client-lambda';
import { PutObjectCommand, CreateBucketCommand } from '@aws-sdk/client-s3';
import {
  CreateTopicCommand,
  DeleteTopicCommand,
  GetTopicAttributesCommand,
  ListSubscriptionsByTopicCommand,
  PublishCommand,
  SNSClient,
  SubscribeCommand,
  UnsubscribeCommand,
} from '@aws-sdk/client-sns';
import { CreateQueueCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { failure, startTestCloud, zip, type TestCloud } from './helpers';

interface Clients {
  t: TestCloud;
  lambda: LambdaClient;
  sns: SNSClient;
  sqs: SQSClient;
  logs: CloudWatchLogsClient;
  events: EventBridgeClient;
  kinesis: KinesisClient;
}

const api = suite<Clients>('resources made by API calls, as test fixtures make them');

api.before(async (context) => {
  context.t = await startTestCloud();
  const config = { ...context.t.config, maxAttempts: 1 };
  context.lambda = new LambdaClient(config);
  context.sns = new SNSClient(config);
  context.sqs = new SQSClient(config);
  context.logs = new CloudWatchLogsClient(config);
  context.events = new EventBridgeClient(config);
  context.kinesis = new KinesisClient(config);
});
api.after(async (context) => {
  for (const client of [context.lambda, context.sns, context.sqs, context.logs, context.events, context.kinesis]) client.destroy();
  await context.t.stop();
});

const ROLE = 'arn:aws:iam::000000000000:role/fixture';
/** Echoes its event; logs each SQS / Kinesis record's body or data as `GOT <text>`. */
const ECHO = `exports.handler = async (event) => {
  for (const r of event.Records ?? []) console.log('GOT ' + (r.body ?? Buffer.from(r.kinesis.data, 'base64').toString()));
  return { echo: event };
};`;

async function createEcho(lambda: LambdaClient, name: string): Promise<void> {
  await lambda.send(new CreateFunctionCommand({ FunctionName: name, Runtime: 'nodejs20.x', Role: ROLE, Handler: 'index.handler', Code: { ZipFile: await zip({ 'index.js': ECHO }) } }));
}

async function gotLines(logs: CloudWatchLogsClient, functionName: string, expected: number): Promise<string[]> {
  let found: string[] = [];
  for (const deadline = Date.now() + 15_000; Date.now() < deadline && found.length < expected; ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const filtered = await logs.send(new FilterLogEventsCommand({ logGroupName: `/aws/lambda/${functionName}`, filterPattern: 'GOT' })).catch(() => ({ events: [] }));
    found = (filtered.events ?? []).map((event) => event.message!.split('GOT ')[1].trim());
  }
  return found;
}

const errorOf = async (promise: Promise<unknown>) => {
  const error = await failure(promise);
  return error && { name: error.name, message: error.message, status: error.$metadata?.httpStatusCode };
};

api('CreateFunction from zip bytes and from the local S3; conflicts, permissions and DeleteFunction answer as Lambda does', async ({ t, lambda }) => {
  await createEcho(lambda, 'made-by-api');
  const { Payload } = await lambda.send(new InvokeCommand({ FunctionName: 'made-by-api', Payload: JSON.stringify({ hello: 'api' }) }));
  assert.equal(JSON.parse(new TextDecoder().decode(Payload)), { echo: { hello: 'api' } });
  const configuration = await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: 'made-by-api' }));
  assert.equal([configuration.FunctionName, configuration.FunctionArn, configuration.Runtime, configuration.Handler, configuration.Role, configuration.State], [
    'made-by-api',
    'arn:aws:lambda:us-east-1:000000000000:function:made-by-api',
    'nodejs20.x',
    'index.handler',
    ROLE,
    'Active',
  ]);
  assert.equal(await errorOf(createEcho(lambda, 'made-by-api')), { name: 'ResourceConflictException', message: 'Function already exist: made-by-api', status: 409 });

  await t.s3.send(new CreateBucketCommand({ Bucket: 'code' }));
  await t.s3.send(new PutObjectCommand({ Bucket: 'code', Key: 'fn.zip', Body: await zip({ 'main.js': 'exports.go = async () => "from s3";' }) }));
  await lambda.send(new CreateFunctionCommand({ FunctionName: 'from-s3', Runtime: 'nodejs20.x', Role: ROLE, Handler: 'main.go', Code: { S3Bucket: 'code', S3Key: 'fn.zip' } }));
  const fromS3 = await lambda.send(new InvokeCommand({ FunctionName: 'from-s3' }));
  assert.is(new TextDecoder().decode(fromS3.Payload), '"from s3"');

  const added = await lambda.send(new AddPermissionCommand({ FunctionName: 'from-s3', StatementId: 'sns', Action: 'lambda:InvokeFunction', Principal: 'sns.amazonaws.com', SourceArn: 'arn:aws:sns:us-east-1:000000000000:t' }));
  const statement = {
    Sid: 'sns',
    Effect: 'Allow',
    Principal: { Service: 'sns.amazonaws.com' },
    Action: 'lambda:InvokeFunction',
    Resource: 'arn:aws:lambda:us-east-1:000000000000:function:from-s3',
    Condition: { ArnLike: { 'AWS:SourceArn': 'arn:aws:sns:us-east-1:000000000000:t' } },
  };
  assert.equal(JSON.parse(added.Statement!), statement);
  assert.equal(JSON.parse((await lambda.send(new GetPolicyCommand({ FunctionName: 'from-s3' }))).Policy!), { Version: '2012-10-17', Id: 'default', Statement: [statement] });
  assert.equal(await errorOf(lambda.send(new AddPermissionCommand({ FunctionName: 'from-s3', StatementId: 'sns', Action: 'lambda:InvokeFunction', Principal: 'sns.amazonaws.com' }))), {
    name: 'ResourceConflictException',
    message: 'The statement id (sns) provided already exists. Please provide a new statement id, or remove the existing statement.',
    status: 409,
  });
  await lambda.send(new RemovePermissionCommand({ FunctionName: 'from-s3', StatementId: 'sns' }));
  assert.equal(await errorOf(lambda.send(new RemovePermissionCommand({ FunctionName: 'from-s3', StatementId: 'sns' }))), {
    name: 'ResourceNotFoundException',
    message: 'Statement sns is not found in resource policy.',
    status: 404,
  });
  await lambda.send(new DeleteFunctionCommand({ FunctionName: 'from-s3' }));
  assert.equal(await errorOf(lambda.send(new InvokeCommand({ FunctionName: 'from-s3' }))), {
    name: 'ResourceNotFoundException',
    message: 'Function not found: arn:aws:lambda:us-east-1:000000000000:function:from-s3',
    status: 404,
  });
});

api('event source mappings made by the API deliver SQS messages and Kinesis records; list, get, update and delete them', async ({ lambda, sqs, logs, kinesis }) => {
  await createEcho(lambda, 'queue-reader');
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'api-queue' }));
  await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'sent before the mapping' }));
  const queueArn = 'arn:aws:sqs:us-east-1:000000000000:api-queue';
  const created = await lambda.send(new CreateEventSourceMappingCommand({ EventSourceArn: queueArn, FunctionName: 'queue-reader', BatchSize: 5 }));
  assert.equal([created.State, created.BatchSize, created.EventSourceArn, created.FunctionArn], ['Creating', 5, queueArn, 'arn:aws:lambda:us-east-1:000000000000:function:queue-reader']);
  assert.equal(await gotLines(logs, 'queue-reader', 1), ['sent before the mapping']);
  assert.equal(await errorOf(lambda.send(new CreateEventSourceMappingCommand({ EventSourceArn: queueArn, FunctionName: 'queue-reader' }))), {
    name: 'ResourceConflictException',
    message: `An event source mapping with event source ("${queueArn}") and function ("queue-reader") already exists. Please update or delete the existing mapping with UUID ${created.UUID}`,
    status: 409,
  });
  const updated = await lambda.send(new UpdateEventSourceMappingCommand({ UUID: created.UUID, BatchSize: 7, Enabled: false }));
  assert.equal([updated.State, updated.BatchSize], ['Updating', 7]);
  const got = await lambda.send(new GetEventSourceMappingCommand({ UUID: created.UUID }));
  assert.equal([got.UUID, got.State, got.BatchSize, got.EventSourceMappingArn], [created.UUID, 'Disabled', 7, `arn:aws:lambda:us-east-1:000000000000:event-source-mapping:${created.UUID}`]);

  await kinesis.send(new CreateStreamCommand({ StreamName: 'api-stream', ShardCount: 1 }));
  const streamArn = 'arn:aws:kinesis:us-east-1:000000000000:stream/api-stream';
  await createEcho(lambda, 'stream-reader');
  const streamMapping = await lambda.send(new CreateEventSourceMappingCommand({ EventSourceArn: streamArn, FunctionName: 'stream-reader', StartingPosition: 'LATEST' }));
  assert.equal([streamMapping.StartingPosition, streamMapping.BatchSize, streamMapping.MaximumRetryAttempts, streamMapping.BisectBatchOnFunctionError], ['LATEST', 100, -1, false]);
  await kinesis.send(new PutRecordCommand({ StreamName: 'api-stream', PartitionKey: 'k', Data: new TextEncoder().encode('through the api mapping') }));
  assert.equal(await gotLines(logs, 'stream-reader', 1), ['through the api mapping']);

  const listed = await lambda.send(new ListEventSourceMappingsCommand({ FunctionName: 'stream-reader' }));
  assert.equal(listed.EventSourceMappings!.map((mapping) => mapping.UUID), [streamMapping.UUID]);
  const deleted = await lambda.send(new DeleteEventSourceMappingCommand({ UUID: created.UUID }));
  assert.is(deleted.State, 'Deleting');
  assert.equal(await errorOf(lambda.send(new GetEventSourceMappingCommand({ UUID: created.UUID }))), {
    name: 'ResourceNotFoundException',
    message: 'The resource you requested does not exist.',
    status: 404,
  });
});

api('SNS topics and subscriptions made by the API: SQS (enveloped or raw, filtered) and HTTP endpoints get what is published', async ({ sns, sqs }) => {
  const { TopicArn } = await sns.send(new CreateTopicCommand({ Name: 'api-topic' }));
  assert.is(TopicArn, 'arn:aws:sns:us-east-1:000000000000:api-topic');
  assert.is((await sns.send(new CreateTopicCommand({ Name: 'api-topic' }))).TopicArn, TopicArn);
  const queue = async (name: string) => (await sqs.send(new CreateQueueCommand({ QueueName: name }))).QueueUrl!;
  const enveloped = await queue('enveloped');
  const raw = await queue('raw');
  const posts: { headers: Record<string, unknown>; body: string }[] = [];
  const http = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      posts.push({ headers: req.headers, body });
      res.end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(http.address() as AddressInfo).port}/hook`;
  try {
    const envelopedSub = await sns.send(new SubscribeCommand({ TopicArn, Protocol: 'sqs', Endpoint: 'arn:aws:sqs:us-east-1:000000000000:enveloped', Attributes: { FilterPolicy: JSON.stringify({ kind: ['order'] }) } }));
    await sns.send(new SubscribeCommand({ TopicArn, Protocol: 'sqs', Endpoint: 'arn:aws:sqs:us-east-1:000000000000:raw', Attributes: { RawMessageDelivery: 'true' } }));
    const httpSub = await sns.send(new SubscribeCommand({ TopicArn, Protocol: 'http', Endpoint: endpoint }));
    const attributes = (await sns.send(new GetTopicAttributesCommand({ TopicArn }))).Attributes!;
    assert.equal(attributes, { TopicArn: TopicArn!, Owner: '000000000000', DisplayName: '', SubscriptionsConfirmed: '3', SubscriptionsPending: '0', SubscriptionsDeleted: '0' });
    const listed = await sns.send(new ListSubscriptionsByTopicCommand({ TopicArn }));
    assert.equal(listed.Subscriptions!.map((subscription) => [subscription.Protocol, subscription.Endpoint]), [
      ['sqs', 'arn:aws:sqs:us-east-1:000000000000:enveloped'],
      ['sqs', 'arn:aws:sqs:us-east-1:000000000000:raw'],
      ['http', endpoint],
    ]);

    const published = await sns.send(new PublishCommand({ TopicArn, Message: 'first', Subject: 'hi', MessageAttributes: { kind: { DataType: 'String', StringValue: 'order' } } }));
    await sns.send(new PublishCommand({ TopicArn, Message: 'filtered out', MessageAttributes: { kind: { DataType: 'String', StringValue: 'refund' } } }));
    const envelope = (await sqs.send(new ReceiveMessageCommand({ QueueUrl: enveloped, MaxNumberOfMessages: 10, WaitTimeSeconds: 2 }))).Messages!;
    assert.is(envelope.length, 1);
    const notification = JSON.parse(envelope[0].Body!) as Record<string, unknown>;
    assert.equal(
      { ...notification, Timestamp: undefined, SigningCertURL: undefined, UnsubscribeURL: undefined },
      {
        Type: 'Notification',
        MessageId: published.MessageId,
        TopicArn,
        Subject: 'hi',
        Message: 'first',
        Timestamp: undefined,
        SignatureVersion: '1',
        Signature: 'local',
        SigningCertURL: undefined,
        UnsubscribeURL: undefined,
        MessageAttributes: { kind: { Type: 'String', Value: 'order' } },
      },
    );
    const rawMessages = (await sqs.send(new ReceiveMessageCommand({ QueueUrl: raw, MaxNumberOfMessages: 10, WaitTimeSeconds: 2, MessageAttributeNames: ['All'] }))).Messages!;
    assert.equal(rawMessages.map((message) => [message.Body, message.MessageAttributes?.kind?.StringValue]), [
      ['first', 'order'],
      ['filtered out', 'refund'],
    ]);
    for (const deadline = Date.now() + 5000; posts.length < 2 && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(posts.map((post) => [post.headers['x-amz-sns-message-type'], post.headers['x-amz-sns-subscription-arn'], (JSON.parse(post.body) as { Message: string }).Message]), [
      ['Notification', httpSub.SubscriptionArn, 'first'],
      ['Notification', httpSub.SubscriptionArn, 'filtered out'],
    ]);
    await sns.send(new UnsubscribeCommand({ SubscriptionArn: envelopedSub.SubscriptionArn }));
    assert.is((await sns.send(new ListSubscriptionsByTopicCommand({ TopicArn }))).Subscriptions!.length, 2);
    await sns.send(new DeleteTopicCommand({ TopicArn }));
    assert.equal(await errorOf(sns.send(new GetTopicAttributesCommand({ TopicArn }))), { name: 'NotFoundException', message: 'Topic does not exist', status: 404 });
  } finally {
    http.close();
  }
});

api('CloudWatch Logs groups, streams, events and retention made by the API', async ({ logs }) => {
  await logs.send(new CreateLogGroupCommand({ logGroupName: '/fixture/app' }));
  assert.equal(await errorOf(logs.send(new CreateLogGroupCommand({ logGroupName: '/fixture/app' }))), {
    name: 'ResourceAlreadyExistsException',
    message: 'The specified log group already exists',
    status: 400,
  });
  await logs.send(new CreateLogStreamCommand({ logGroupName: '/fixture/app', logStreamName: 'one' }));
  await logs.send(new PutLogEventsCommand({ logGroupName: '/fixture/app', logStreamName: 'one', logEvents: [{ timestamp: 2000, message: 'second' }, { timestamp: 1000, message: 'first' }] }));
  const { events } = await logs.send(new GetLogEventsCommand({ logGroupName: '/fixture/app', logStreamName: 'one' }));
  assert.equal(events!.map((event) => [event.timestamp, event.message]), [
    [1000, 'first'],
    [2000, 'second'],
  ]);
  await logs.send(new PutRetentionPolicyCommand({ logGroupName: '/fixture/app', retentionInDays: 7 }));
  const { logGroups } = await logs.send(new DescribeLogGroupsCommand({ logGroupNamePrefix: '/fixture/' }));
  assert.equal(logGroups!.map((group) => [group.logGroupName, group.retentionInDays]), [['/fixture/app', 7]]);
  await logs.send(new DeleteLogGroupCommand({ logGroupName: '/fixture/app' }));
  assert.equal(await errorOf(logs.send(new DeleteLogGroupCommand({ logGroupName: '/fixture/app' }))), {
    name: 'ResourceNotFoundException',
    message: 'The specified log group does not exist.',
    status: 400,
  });
});

api('EventBridge rules made by the API route events on their bus to their targets', async ({ events, sqs }) => {
  await events.send(new CreateEventBusCommand({ Name: 'orders-bus' }));
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'rule-target' }));
  const { RuleArn } = await events.send(new PutRuleCommand({ Name: 'big-orders', EventBusName: 'orders-bus', EventPattern: JSON.stringify({ source: ['shop'], detail: { total: [{ numeric: ['>', 100] }] } }) }));
  assert.is(RuleArn, 'arn:aws:events:us-east-1:000000000000:rule/orders-bus/big-orders');
  await events.send(new PutTargetsCommand({ Rule: 'big-orders', EventBusName: 'orders-bus', Targets: [{ Id: 'queue', Arn: 'arn:aws:sqs:us-east-1:000000000000:rule-target', InputPath: '$.detail' }] }));
  await events.send(
    new PutEventsCommand({
      Entries: [
        { EventBusName: 'orders-bus', Source: 'shop', DetailType: 'order', Detail: JSON.stringify({ total: 150 }) },
        { EventBusName: 'orders-bus', Source: 'shop', DetailType: 'order', Detail: JSON.stringify({ total: 5 }) },
        { Source: 'shop', DetailType: 'order', Detail: JSON.stringify({ total: 999 }) },
      ],
    }),
  );
  const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 2 }));
  assert.equal(Messages!.map((message) => JSON.parse(message.Body!)), [{ total: 150 }]);
  const { Rules } = await events.send(new ListRulesCommand({ EventBusName: 'orders-bus' }));
  assert.equal(Rules, [{ Name: 'big-orders', Arn: RuleArn, EventPattern: JSON.stringify({ source: ['shop'], detail: { total: [{ numeric: ['>', 100] }] } }), State: 'ENABLED', EventBusName: 'orders-bus' }]);
  assert.equal(await errorOf(events.send(new DeleteRuleCommand({ Name: 'big-orders', EventBusName: 'orders-bus' }))), {
    name: 'ValidationException',
    message: "Rule can't be deleted since it has targets.",
    status: 400,
  });
  await events.send(new RemoveTargetsCommand({ Rule: 'big-orders', EventBusName: 'orders-bus', Ids: ['queue'] }));
  await events.send(new DeleteRuleCommand({ Name: 'big-orders', EventBusName: 'orders-bus' }));
  assert.equal(await errorOf(events.send(new DescribeRuleCommand({ Name: 'big-orders', EventBusName: 'orders-bus' }))), {
    name: 'ResourceNotFoundException',
    message: 'Rule big-orders does not exist on EventBus orders-bus.',
    status: 400,
  });
});

api.run();
