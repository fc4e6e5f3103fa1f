import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { CloudWatchLogsClient, FilterLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import {
  ChangeMessageVisibilityBatchCommand,
  ChangeMessageVisibilityCommand,
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  ListQueuesCommand,
  QueueDoesNotExist,
  ReceiptHandleIsInvalid,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { failure, settle, startTestCloud, type TestCloud } from './helpers';

interface Context {
  t: TestCloud;
  sqs: SQSClient;
}

const sqsSuite = suite<Context>('local SQS: visibility, receive counts, attributes and dead-letter queues');

sqsSuite.before.each(async (context) => {
  context.t = await startTestCloud();
  context.sqs = new SQSClient({ ...context.t.config, maxAttempts: 1 });
});
sqsSuite.after.each(async ({ t, sqs }) => {
  sqs.destroy();
  await t.stop();
});

const count = async (sqs: SQSClient, QueueUrl: string) =>
  (await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }))).Attributes;

sqsSuite('CreateQueue, GetQueueUrl, ListQueues and GetQueueAttributes answer with local URLs', async ({ t, sqs }) => {
  const { QueueUrl: dlq } = await sqs.send(new CreateQueueCommand({ QueueName: 'dead' }));
  assert.is(dlq, `${t.cloud.url}/000000000000/dead`);
  const RedrivePolicy = JSON.stringify({ deadLetterTargetArn: 'arn:aws:sqs:us-east-1:000000000000:dead', maxReceiveCount: 2 });
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'work', Attributes: { VisibilityTimeout: '5', RedrivePolicy } }));
  assert.is((await sqs.send(new GetQueueUrlCommand({ QueueName: 'work' }))).QueueUrl, QueueUrl);
  assert.equal((await sqs.send(new ListQueuesCommand({ QueueNamePrefix: 'w' }))).QueueUrls, [QueueUrl]);
  const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['VisibilityTimeout', 'RedrivePolicy', 'QueueArn', 'ApproximateNumberOfMessages'] }));
  assert.equal(Attributes, { VisibilityTimeout: '5', RedrivePolicy, QueueArn: 'arn:aws:sqs:us-east-1:000000000000:work', ApproximateNumberOfMessages: '0' });
  const missing = await failure(sqs.send(new GetQueueUrlCommand({ QueueName: 'nope' })));
  assert.instance(missing, QueueDoesNotExist);
  assert.is(missing!.message, 'The specified queue does not exist.');
});

sqsSuite('a received message stays invisible for its visibility timeout, counts receives, and is gone once deleted', async ({ sqs }) => {
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'jobs' }));
  const sent = await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'job-1', MessageAttributes: { kind: { DataType: 'String', StringValue: 'report' }, size: { DataType: 'Number', StringValue: '3' } } }));
  const first = await sqs.send(new ReceiveMessageCommand({ QueueUrl, VisibilityTimeout: 30, MessageAttributeNames: ['All'], MessageSystemAttributeNames: ['ApproximateReceiveCount'] }));
  const message = first.Messages![0];
  assert.equal(
    [message.MessageId, message.Body, message.Attributes, message.MessageAttributes],
    [sent.MessageId, 'job-1', { ApproximateReceiveCount: '1' }, { kind: { DataType: 'String', StringValue: 'report' }, size: { DataType: 'Number', StringValue: '3' } }],
  );
  assert.equal((await sqs.send(new ReceiveMessageCommand({ QueueUrl }))).Messages, undefined);
  assert.equal(await count(sqs, QueueUrl!), { ApproximateNumberOfMessages: '0', ApproximateNumberOfMessagesNotVisible: '1' });

  await sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl, ReceiptHandle: message.ReceiptHandle, VisibilityTimeout: 0 }));
  const again = await sqs.send(new ReceiveMessageCommand({ QueueUrl, MessageSystemAttributeNames: ['ApproximateReceiveCount'] }));
  assert.equal([again.Messages![0].Body, again.Messages![0].Attributes], ['job-1', { ApproximateReceiveCount: '2' }]);
  await sqs.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: again.Messages![0].ReceiptHandle }));
  assert.equal(await count(sqs, QueueUrl!), { ApproximateNumberOfMessages: '0', ApproximateNumberOfMessagesNotVisible: '0' });
  const bad = await failure(sqs.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: 'garbage' })));
  assert.instance(bad, ReceiptHandleIsInvalid);
  assert.is(bad!.message, 'The input receipt handle "garbage" is not a valid receipt handle.');
});

sqsSuite('after maxReceiveCount receives a message moves to the dead-letter queue', async ({ sqs }) => {
  await sqs.send(new CreateQueueCommand({ QueueName: 'dead' }));
  const RedrivePolicy = JSON.stringify({ deadLetterTargetArn: 'arn:aws:sqs:us-east-1:000000000000:dead', maxReceiveCount: 2 });
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'work', Attributes: { RedrivePolicy } }));
  await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'poison' }));
  for (let receive = 1; receive <= 2; receive++) {
    const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl, VisibilityTimeout: 0 }));
    assert.is(Messages![0].Body, 'poison');
  }
  assert.equal((await sqs.send(new ReceiveMessageCommand({ QueueUrl }))).Messages, undefined);
  const dead = await sqs.send(new ReceiveMessageCommand({ QueueUrl: (await sqs.send(new GetQueueUrlCommand({ QueueName: 'dead' }))).QueueUrl, MessageSystemAttributeNames: ['All'] }));
  assert.equal([dead.Messages![0].Body, dead.Messages![0].Attributes!.ApproximateReceiveCount], ['poison', '3']);
});

sqsSuite('a long poll waits for a message sent meanwhile', async ({ sqs }) => {
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'slow' }));
  const receiving = sqs.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 5 }));
  await new Promise((resolve) => setTimeout(resolve, 200));
  await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'late' }));
  assert.is((await receiving).Messages![0].Body, 'late');
});

sqsSuite('a function failing a message gets it again after the visibility timeout, then it goes to the dead-letter queue', async ({ t, sqs }) => {
  const code = `exports.handler = async (event) => {
    console.log('BATCH ' + event.Records.map((r) => r.body + '#' + r.attributes.ApproximateReceiveCount).join(','));
    return { batchItemFailures: event.Records.filter((r) => r.body === 'bad').map((r) => ({ itemIdentifier: r.messageId })) };
  };`;
  const template = {
    Resources: {
      Fn: { Type: 'AWS::Lambda::Function', Properties: { FunctionName: 'worker', Handler: 'index.handler', Runtime: 'nodejs20.x', Role: 'r', Code: { ZipFile: code } } },
      Dead: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'worker-dead' } },
      Work: {
        Type: 'AWS::SQS::Queue',
        Properties: { QueueName: 'worker-jobs', VisibilityTimeout: 1, RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': ['Dead', 'Arn'] }, maxReceiveCount: 2 } },
      },
      Mapping: {
        Type: 'AWS::Lambda::EventSourceMapping',
        Properties: { EventSourceArn: { 'Fn::GetAtt': ['Work', 'Arn'] }, FunctionName: { 'Fn::GetAtt': ['Fn', 'Arn'] }, BatchSize: 10, FunctionResponseTypes: ['ReportBatchItemFailures'] },
      },
    },
  };
  await t.cfn.send(new CreateStackCommand({ StackName: 'worker', TemplateBody: JSON.stringify(template) }));
  assert.is((await settle(t.cfn, 'worker')).StackStatus, 'CREATE_COMPLETE');
  const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: 'worker-jobs' }));
  await sqs.send(new SendMessageBatchCommand({ QueueUrl, Entries: [{ Id: '1', MessageBody: 'bad' }, { Id: '2', MessageBody: 'good' }] }));
  const deadUrl = (await sqs.send(new GetQueueUrlCommand({ QueueName: 'worker-dead' }))).QueueUrl;
  let dead: string[] = [];
  for (const deadline = Date.now() + 20_000; Date.now() < deadline && dead.length === 0; ) {
    dead = ((await sqs.send(new ReceiveMessageCommand({ QueueUrl: deadUrl, WaitTimeSeconds: 1 }))).Messages ?? []).map((message) => message.Body!);
  }
  assert.equal(dead, ['bad']);
  assert.equal(await count(sqs, QueueUrl!), { ApproximateNumberOfMessages: '0', ApproximateNumberOfMessagesNotVisible: '0' });
  const logs = new CloudWatchLogsClient({ ...t.config, maxAttempts: 1 });
  const { events } = await logs.send(new FilterLogEventsCommand({ logGroupName: '/aws/lambda/worker', filterPattern: 'BATCH' }));
  logs.destroy();
  assert.equal(events!.map((event) => event.message!.split('\t').pop()), ['BATCH bad#1,good#1', 'BATCH bad#2']);
});

sqsSuite('a FIFO queue keeps each group in order, one message in flight per group, and drops duplicates', async ({ sqs }) => {
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'orders.fifo', Attributes: { FifoQueue: 'true', ContentBasedDeduplication: 'true' } }));
  const send = (MessageBody: string, MessageGroupId: string) => sqs.send(new SendMessageCommand({ QueueUrl, MessageBody, MessageGroupId }));
  const first = await send('a1', 'a');
  await send('a2', 'a');
  await send('b1', 'b');
  const duplicate = await send('a1', 'a');
  assert.equal([duplicate.MessageId, duplicate.SequenceNumber], [first.MessageId, first.SequenceNumber]);
  const bodies = async (MaxNumberOfMessages: number) => ((await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages, MessageSystemAttributeNames: ['MessageGroupId'] }))).Messages ?? []);
  const [a1] = await bodies(1);
  assert.equal([a1.Body, a1.Attributes], ['a1', { MessageGroupId: 'a' }]);
  assert.equal((await bodies(10)).map((message) => message.Body), ['b1']);
  await sqs.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: a1.ReceiptHandle }));
  assert.equal((await bodies(10)).map((message) => message.Body), ['a2']);
  const noGroup = await failure(sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'x' })));
  assert.is(noGroup!.message, 'The request must contain the parameter MessageGroupId.');
});

sqsSuite('batches: more than 10 entries, none, or a repeated id are refused whole; a bad entry fails alone', async ({ sqs }) => {
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'batches' }));
  const eleven = Array.from({ length: 11 }, (_, i) => ({ Id: `m${i}`, MessageBody: `body ${i}` }));
  const tooMany = await failure(sqs.send(new SendMessageBatchCommand({ QueueUrl, Entries: eleven })));
  assert.equal([tooMany!.name, tooMany!.message], ['TooManyEntriesInBatchRequest', 'Maximum number of entries per request are 10. You have sent 11.']);
  const none = await failure(sqs.send(new DeleteMessageBatchCommand({ QueueUrl, Entries: [] })));
  assert.equal([none!.name, none!.message], ['EmptyBatchRequest', 'There should be at least one DeleteMessageBatchRequestEntry in the request.']);
  const repeated = await failure(sqs.send(new SendMessageBatchCommand({ QueueUrl, Entries: [{ Id: 'a', MessageBody: '1' }, { Id: 'a', MessageBody: '2' }] })));
  assert.equal([repeated!.name, repeated!.message], ['BatchEntryIdsNotDistinct', 'Id a repeated.']);
  assert.equal(await count(sqs, QueueUrl!), { ApproximateNumberOfMessages: '0', ApproximateNumberOfMessagesNotVisible: '0' });

  const sent = await sqs.send(new SendMessageBatchCommand({ QueueUrl, Entries: [{ Id: 'good', MessageBody: 'kept' }, { Id: 'empty', MessageBody: '' }] }));
  assert.equal(sent.Successful!.map((entry) => entry.Id), ['good']);
  assert.equal(sent.Failed!.map((entry) => [entry.Id, entry.Code, entry.SenderFault]), [['empty', 'MissingParameter', true]]);
  const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10 }));
  const changed = await sqs.send(
    new ChangeMessageVisibilityBatchCommand({ QueueUrl, Entries: [{ Id: 'now', ReceiptHandle: Messages![0].ReceiptHandle, VisibilityTimeout: 0 }, { Id: 'bogus', ReceiptHandle: 'not-a-handle', VisibilityTimeout: 0 }] }),
  );
  assert.equal([changed.Successful!.map((entry) => entry.Id), changed.Failed!.map((entry) => [entry.Id, entry.Code])], [['now'], [['bogus', 'ReceiptHandleIsInvalid']]]);
  const again = await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10 }));
  const deleted = await sqs.send(new DeleteMessageBatchCommand({ QueueUrl, Entries: [{ Id: 'ok', ReceiptHandle: again.Messages![0].ReceiptHandle }, { Id: 'bad', ReceiptHandle: 'not-a-handle' }] }));
  assert.equal([deleted.Successful!.map((entry) => entry.Id), deleted.Failed!.map((entry) => [entry.Id, entry.Code, entry.SenderFault])], [['ok'], [['bad', 'ReceiptHandleIsInvalid', true]]]);
  assert.equal(await count(sqs, QueueUrl!), { ApproximateNumberOfMessages: '0', ApproximateNumberOfMessagesNotVisible: '0' });
});

sqsSuite.run();
