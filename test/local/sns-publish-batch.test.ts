import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateTopicCommand, PublishBatchCommand, type PublishBatchCommandInput, SNSClient, SubscribeCommand } from '@aws-sdk/client-sns';
import { CreateQueueCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { failure, startTestCloud, type TestCloud } from './helpers';

const batch = suite<{ t: TestCloud; sns: SNSClient; sqs: SQSClient }>('local SNS PublishBatch');
batch.before(async (context) => {
  context.t = await startTestCloud();
  context.sns = new SNSClient({ ...context.t.config, maxAttempts: 1 });
  context.sqs = new SQSClient({ ...context.t.config, maxAttempts: 1 });
});
batch.after(async (context) => {
  context.sns.destroy();
  context.sqs.destroy();
  await context.t.stop();
});

batch('PublishBatch delivers each entry as Publish does, and fails only the entries that are wrong', async ({ sns, sqs }) => {
  const { TopicArn } = await sns.send(new CreateTopicCommand({ Name: 'orders' }));
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'orders-copy' }));
  const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }));
  await sns.send(new SubscribeCommand({ TopicArn, Protocol: 'sqs', Endpoint: Attributes!.QueueArn, Attributes: { RawMessageDelivery: 'true', FilterPolicy: JSON.stringify({ kind: ['order'] }) } }));

  const result = await sns.send(
    new PublishBatchCommand({
      TopicArn,
      PublishBatchRequestEntries: [
        { Id: 'first', Message: 'one', MessageAttributes: { kind: { DataType: 'String', StringValue: 'order' } } },
        { Id: 'filtered-out', Message: 'two', MessageAttributes: { kind: { DataType: 'String', StringValue: 'refund' } } },
        { Id: 'empty', Message: '' },
        { Id: 'third', Message: 'three', Subject: 'hi', MessageAttributes: { kind: { DataType: 'String', StringValue: 'order' } } },
      ],
    }),
  );
  assert.equal(result.Successful!.map((entry) => entry.Id), ['first', 'filtered-out', 'third']);
  for (const entry of result.Successful!) assert.match(entry.MessageId!, /^[0-9a-f-]{36}$/);
  assert.equal(result.Failed, [{ Id: 'empty', Code: 'InvalidParameter', Message: 'Invalid parameter: Empty message', SenderFault: true }]);

  const received = await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, MessageAttributeNames: ['All'] }));
  assert.equal(received.Messages!.map((message) => [message.Body, message.MessageAttributes?.kind?.StringValue]), [
    ['one', 'order'],
    ['three', 'order'],
  ]);
});

batch('PublishBatch refuses empty, oversized and ambiguous batches, and unknown topics', async ({ sns }) => {
  const { TopicArn } = await sns.send(new CreateTopicCommand({ Name: 'batches' }));
  const entries = (ids: string[]) => ids.map((Id) => ({ Id, Message: Id }));
  const cases: [PublishBatchCommandInput, string, string][] = [
    [{ TopicArn, PublishBatchRequestEntries: [] }, 'EmptyBatchRequestException', "The batch request doesn't contain any entries."],
    [{ TopicArn, PublishBatchRequestEntries: entries([...'abcdefghijk']) }, 'TooManyEntriesInBatchRequestException', 'The batch request contains more entries than permissible.'],
    [{ TopicArn, PublishBatchRequestEntries: entries(['a', 'b', 'a']) }, 'BatchEntryIdsNotDistinctException', 'Two or more batch entries in the request have the same Id.'],
    [{ TopicArn, PublishBatchRequestEntries: entries(['not valid!']) }, 'InvalidBatchEntryIdException', "The Id of a batch entry in a batch request doesn't abide by the specification."],
    [{ TopicArn: `${TopicArn}-missing`, PublishBatchRequestEntries: entries(['a']) }, 'NotFoundException', 'Topic does not exist'],
  ];
  for (const [input, name, message] of cases) {
    const error = await failure(sns.send(new PublishBatchCommand(input)));
    assert.is(error?.name, name);
    assert.is(error?.message, message);
  }
});

batch.run();
