import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { AddPermissionCommand, CreateQueueCommand, GetQueueAttributesCommand, ListDeadLetterSourceQueuesCommand, RemovePermissionCommand, SQSClient } from '@aws-sdk/client-sqs';
import { failure, startTestCloud, type TestCloud } from './helpers';

const queues = suite<{ t: TestCloud; sqs: SQSClient }>('local SQS queue permissions and dead-letter sources');
queues.before(async (context) => {
  context.t = await startTestCloud();
  context.sqs = new SQSClient({ ...context.t.config, maxAttempts: 1 });
});
queues.after(async (context) => {
  context.sqs.destroy();
  await context.t.stop();
});

const ARN = (name: string) => `arn:aws:sqs:us-east-1:000000000000:${name}`;

queues('ListDeadLetterSourceQueues lists the queues whose RedrivePolicy points at the queue, paged by MaxResults', async ({ sqs }) => {
  const { QueueUrl: dlq } = await sqs.send(new CreateQueueCommand({ QueueName: 'failed' }));
  const redrive = JSON.stringify({ deadLetterTargetArn: ARN('failed'), maxReceiveCount: 3 });
  const { QueueUrl: first } = await sqs.send(new CreateQueueCommand({ QueueName: 'orders', Attributes: { RedrivePolicy: redrive } }));
  const { QueueUrl: second } = await sqs.send(new CreateQueueCommand({ QueueName: 'payments', Attributes: { RedrivePolicy: redrive } }));
  await sqs.send(new CreateQueueCommand({ QueueName: 'unrelated' }));
  assert.equal((await sqs.send(new ListDeadLetterSourceQueuesCommand({ QueueUrl: dlq }))).queueUrls, [first, second]);
  const page = await sqs.send(new ListDeadLetterSourceQueuesCommand({ QueueUrl: dlq, MaxResults: 1 }));
  assert.equal(page.queueUrls, [first]);
  const rest = await sqs.send(new ListDeadLetterSourceQueuesCommand({ QueueUrl: dlq, MaxResults: 1, NextToken: page.NextToken }));
  assert.equal([rest.queueUrls, rest.NextToken], [[second], undefined]);
  assert.equal((await sqs.send(new ListDeadLetterSourceQueuesCommand({ QueueUrl: first }))).queueUrls, []);
});

queues('AddPermission writes statements into the Policy attribute as SQS does; RemovePermission takes them out', async ({ sqs }) => {
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'shared' }));
  await sqs.send(new AddPermissionCommand({ QueueUrl, Label: 'send', AWSAccountIds: ['111122223333'], Actions: ['SendMessage'] }));
  await sqs.send(new AddPermissionCommand({ QueueUrl, Label: 'read', AWSAccountIds: ['111122223333', '444455556666'], Actions: ['ReceiveMessage', 'DeleteMessage'] }));
  const policy = async () => (await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['Policy'] }))).Attributes?.Policy;
  assert.equal(JSON.parse((await policy())!), {
    Version: '2012-10-17',
    Id: `${ARN('shared')}/SQSDefaultPolicy`,
    Statement: [
      { Sid: 'send', Effect: 'Allow', Principal: { AWS: 'arn:aws:iam::111122223333:root' }, Action: 'SQS:SendMessage', Resource: ARN('shared') },
      {
        Sid: 'read',
        Effect: 'Allow',
        Principal: { AWS: ['arn:aws:iam::111122223333:root', 'arn:aws:iam::444455556666:root'] },
        Action: ['SQS:ReceiveMessage', 'SQS:DeleteMessage'],
        Resource: ARN('shared'),
      },
    ],
  });
  const duplicate = await failure(sqs.send(new AddPermissionCommand({ QueueUrl, Label: 'send', AWSAccountIds: ['111122223333'], Actions: ['SendMessage'] })));
  assert.equal([duplicate!.name, duplicate!.message], ['InvalidParameterValue', 'Value send for parameter Label is invalid. Reason: Already exists.']);
  await sqs.send(new RemovePermissionCommand({ QueueUrl, Label: 'send' }));
  assert.equal(JSON.parse((await policy())!).Statement.map((statement: { Sid: string }) => statement.Sid), ['read']);
  const missing = await failure(sqs.send(new RemovePermissionCommand({ QueueUrl, Label: 'send' })));
  assert.equal([missing!.name, missing!.message], ['InvalidParameterValue', "Value send for parameter Label is invalid. Reason: can't find label on existing policy."]);
  await sqs.send(new RemovePermissionCommand({ QueueUrl, Label: 'read' }));
  assert.is(await policy(), undefined);
});

queues.run();
