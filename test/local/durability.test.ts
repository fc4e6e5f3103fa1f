import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudWatchLogsClient, CreateLogGroupCommand, CreateLogStreamCommand, GetLogEventsCommand, PutLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { CreateTableCommand, DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { EventBridgeClient, ListRulesCommand, PutRuleCommand } from '@aws-sdk/client-eventbridge';
import { GetObjectTaggingCommand, PutObjectCommand, CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateTopicCommand, ListTopicsCommand, SNSClient } from '@aws-sdk/client-sns';
import {
  CreateQueueCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { GetParameterCommand, PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { credentials, startTestCloud, type TestCloud } from './helpers';

const durability = suite<{ child?: ChildProcess; dataDir: string; restarted?: TestCloud }>('what the local cloud acknowledged survives a kill');

durability.before((context) => {
  context.dataDir = mkdtempSync(join(tmpdir(), 'fw-durable-'));
});
durability.after(async (context) => {
  context.child?.kill('SIGKILL');
  await context.restarted?.stop();
  rmSync(context.dataDir, { recursive: true, force: true });
});

/** The local cloud in a process of its own, which the test can kill as a crash or an OOM killer would. */
function startChild(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const script = `require(${JSON.stringify(join(__dirname, '..', '..', 'src', 'local', 'index.js'))}).startLocalCloud({ port: 0, dataDir: ${JSON.stringify(dataDir)}, quiet: true }).then((c) => console.log(c.url))`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve({ child, url: chunk.toString().trim() }));
    child.once('exit', (code) => reject(new Error(`the local cloud exited with ${code}`)));
  });
}

durability('queues, messages, topics, rules, parameters, log events, items and tags outlive a SIGKILL right after they are acknowledged', async (context) => {
  const { child, url } = await startChild(context.dataDir);
  context.child = child;
  const config = { endpoint: url, region: 'us-east-1', credentials, maxAttempts: 1 };
  const sqs = new SQSClient(config);
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'orders', Attributes: { VisibilityTimeout: '120' } }));
  await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'first' }));
  await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'second', MessageAttributes: { kind: { DataType: 'String', StringValue: 'x' } } }));
  await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'third' }));
  // One message read and deleted, one read and left in flight (invisible for 120 s), one never read.
  const firstRead = await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 1 }));
  await sqs.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: firstRead.Messages![0].ReceiptHandle }));
  await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 1 }));
  const fifo = await sqs.send(new CreateQueueCommand({ QueueName: 'jobs.fifo', Attributes: { FifoQueue: 'true', ContentBasedDeduplication: 'true' } }));
  const sent = await sqs.send(new SendMessageCommand({ QueueUrl: fifo.QueueUrl, MessageBody: 'once', MessageGroupId: 'g' }));

  await new SNSClient(config).send(new CreateTopicCommand({ Name: 'alerts' }));
  await new EventBridgeClient(config).send(new PutRuleCommand({ Name: 'nightly', ScheduleExpression: 'rate(1 day)', State: 'DISABLED' }));
  await new SSMClient(config).send(new PutParameterCommand({ Name: '/app/mode', Value: 'fast', Type: 'String' }));
  const logs = new CloudWatchLogsClient(config);
  await logs.send(new CreateLogGroupCommand({ logGroupName: 'app' }));
  await logs.send(new CreateLogStreamCommand({ logGroupName: 'app', logStreamName: 's' }));
  await logs.send(new PutLogEventsCommand({ logGroupName: 'app', logStreamName: 's', logEvents: [{ timestamp: Date.now(), message: 'hello' }] }));
  const dynamodb = new DynamoDBClient(config);
  await dynamodb.send(new CreateTableCommand({ TableName: 'things', AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }], KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }], BillingMode: 'PAY_PER_REQUEST' }));
  await dynamodb.send(new PutItemCommand({ TableName: 'things', Item: { id: { S: 'a' }, n: { N: '1' } } }));
  const s3 = new S3Client({ ...config, forcePathStyle: true });
  await s3.send(new CreateBucketCommand({ Bucket: 'kept-bucket' }));
  await s3.send(new PutObjectCommand({ Bucket: 'kept-bucket', Key: 'k', Body: 'v', Tagging: 'team=data' }));

  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
  context.child = undefined;

  const restarted = (context.restarted = await startTestCloud(context.dataDir));
  const again = { ...restarted.config, maxAttempts: 1 };
  const sqs2 = new SQSClient(again);
  const queueUrl = (await sqs2.send(new GetQueueUrlCommand({ QueueName: 'orders' }))).QueueUrl!;
  const attributes = (await sqs2.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['All'] }))).Attributes!;
  assert.equal([attributes.VisibilityTimeout, attributes.ApproximateNumberOfMessages, attributes.ApproximateNumberOfMessagesNotVisible], ['120', '1', '1']);
  const unread = await sqs2.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, MessageAttributeNames: ['All'], AttributeNames: ['All'] }));
  assert.equal(
    unread.Messages!.map((message) => [message.Body, message.MessageAttributes?.kind?.StringValue, message.Attributes!.ApproximateReceiveCount]),
    [['third', undefined, '1']],
  );
  const fifoUrl = (await sqs2.send(new GetQueueUrlCommand({ QueueName: 'jobs.fifo' }))).QueueUrl!;
  const resent = await sqs2.send(new SendMessageCommand({ QueueUrl: fifoUrl, MessageBody: 'once', MessageGroupId: 'g' }));
  assert.is(resent.MessageId, sent.MessageId, 'a resend within 5 minutes of a restart is still a duplicate');

  assert.ok((await new SNSClient(again).send(new ListTopicsCommand({}))).Topics!.some((topic) => topic.TopicArn!.endsWith(':alerts')));
  assert.equal((await new EventBridgeClient(again).send(new ListRulesCommand({}))).Rules!.map((rule) => rule.Name), ['nightly']);
  assert.is((await new SSMClient(again).send(new GetParameterCommand({ Name: '/app/mode' }))).Parameter!.Value, 'fast');
  const events = await new CloudWatchLogsClient(again).send(new GetLogEventsCommand({ logGroupName: 'app', logStreamName: 's' }));
  assert.equal(events.events!.map((event) => event.message), ['hello']);
  assert.equal((await new DynamoDBClient(again).send(new GetItemCommand({ TableName: 'things', Key: { id: { S: 'a' } } }))).Item, { id: { S: 'a' }, n: { N: '1' } });
  assert.equal((await restarted.s3.send(new GetObjectTaggingCommand({ Bucket: 'kept-bucket', Key: 'k' }))).TagSet, [{ Key: 'team', Value: 'data' }]);
});

durability.run();
