import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  CancelMessageMoveTaskCommand,
  CreateQueueCommand,
  ListMessageMoveTasksCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
  StartMessageMoveTaskCommand,
} from '@aws-sdk/client-sqs';
import { failure, startTestCloud, type TestCloud } from './helpers';

/** Dead-letter queue redrive: messages dead-lettered after maxReceiveCount go back with a message move task. */
const moves = suite<{ t: TestCloud; sqs: SQSClient }>('SQS message move tasks');

moves.before(async (context) => {
  context.t = await startTestCloud();
  context.sqs = new SQSClient({ ...context.t.config, maxAttempts: 1 });
});

moves.after(async (context) => {
  context.sqs.destroy();
  await context.t.stop();
});

const DLQ = 'arn:aws:sqs:us-east-1:000000000000:orders-dlq';
const SOURCE = 'arn:aws:sqs:us-east-1:000000000000:orders';

/** Receives with visibility 0 until the queue's messages pass maxReceiveCount 1 and move to the dead-letter queue. */
async function deadLetter(sqs: SQSClient, QueueUrl: string, bodies: string[]): Promise<void> {
  for (const body of bodies) await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: body }));
  await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 0 }));
  // The next receive finds them received once already: they move, and none is returned.
  assert.is((await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10 }))).Messages, undefined);
}

const bodiesOf = async (sqs: SQSClient, QueueUrl: string) =>
  ((await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 0, MessageSystemAttributeNames: ['All'] }))).Messages ?? []).map((message) => [message.Body, message.Attributes?.ApproximateReceiveCount, message.Attributes?.DeadLetterQueueSourceArn]);

moves('a task without a destination returns each message to the queue it was dead-lettered from, as new', async ({ sqs }) => {
  const { QueueUrl: dlqUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'orders-dlq' }));
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'orders', Attributes: { RedrivePolicy: JSON.stringify({ deadLetterTargetArn: DLQ, maxReceiveCount: 1 }) } }));
  await deadLetter(sqs, QueueUrl!, ['a', 'b']);
  // In the dead-letter queue each message names where it came from.
  assert.equal(await bodiesOf(sqs, dlqUrl!), [['a', '2', SOURCE], ['b', '2', SOURCE]]);
  const started = Date.now();
  const { TaskHandle } = await sqs.send(new StartMessageMoveTaskCommand({ SourceArn: DLQ }));
  assert.equal(JSON.parse(Buffer.from(TaskHandle!, 'base64').toString('utf8')).sourceArn, DLQ);
  const { Results } = await sqs.send(new ListMessageMoveTasksCommand({ SourceArn: DLQ }));
  assert.equal(Results, [{ Status: 'COMPLETED', SourceArn: DLQ, ApproximateNumberOfMessagesMoved: 2, ApproximateNumberOfMessagesToMove: 2, StartedTimestamp: Results![0].StartedTimestamp }]);
  assert.ok(Results![0].StartedTimestamp! >= started && Results![0].StartedTimestamp! <= Date.now());
  assert.equal(await bodiesOf(sqs, QueueUrl!), [['a', '1', undefined], ['b', '1', undefined]]);
  assert.equal(await bodiesOf(sqs, dlqUrl!), []);
});

moves('a rate-limited task runs, is listed with its handle, and stops when cancelled', async ({ sqs }) => {
  const { QueueUrl: elsewhere } = await sqs.send(new CreateQueueCommand({ QueueName: 'orders-replay' }));
  await sqs.send(new CreateQueueCommand({ QueueName: 'payments-dlq' }));
  const PAYMENTS_DLQ = 'arn:aws:sqs:us-east-1:000000000000:payments-dlq';
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'payments', Attributes: { RedrivePolicy: JSON.stringify({ deadLetterTargetArn: PAYMENTS_DLQ, maxReceiveCount: 1 }) } }));
  await deadLetter(sqs, QueueUrl!, ['c', 'd', 'e']);
  const DestinationArn = 'arn:aws:sqs:us-east-1:000000000000:orders-replay';
  const { TaskHandle } = await sqs.send(new StartMessageMoveTaskCommand({ SourceArn: PAYMENTS_DLQ, DestinationArn, MaxNumberOfMessagesPerSecond: 1 }));
  const { Results } = await sqs.send(new ListMessageMoveTasksCommand({ SourceArn: PAYMENTS_DLQ, MaxResults: 10 }));
  assert.equal(Results!.map((task) => [task.Status, task.TaskHandle, task.DestinationArn, task.MaxNumberOfMessagesPerSecond, task.ApproximateNumberOfMessagesMoved, task.ApproximateNumberOfMessagesToMove]), [
    ['RUNNING', TaskHandle, DestinationArn, 1, 1, 3],
  ]);
  // The first queue's tasks are its own.
  assert.equal((await sqs.send(new ListMessageMoveTasksCommand({ SourceArn: DLQ, MaxResults: 10 }))).Results!.map((task) => task.Status), ['COMPLETED']);
  const second = await failure(sqs.send(new StartMessageMoveTaskCommand({ SourceArn: PAYMENTS_DLQ })));
  assert.equal([second?.name, second?.message], ['InvalidParameterValue', 'There is already a task running. Only one active task is allowed for a source queue arn at a given time.']);
  assert.equal(await sqs.send(new CancelMessageMoveTaskCommand({ TaskHandle })).then((result) => result.ApproximateNumberOfMessagesMoved), 1);
  assert.equal((await sqs.send(new ListMessageMoveTasksCommand({ SourceArn: PAYMENTS_DLQ }))).Results!.map((task) => [task.Status, task.ApproximateNumberOfMessagesMoved]), [['CANCELLED', 1]]);
  await new Promise((resolve) => setTimeout(resolve, 1200));
  assert.equal((await bodiesOf(sqs, elsewhere!)).map(([body]) => body), ['c']);
  const again = await failure(sqs.send(new CancelMessageMoveTaskCommand({ TaskHandle })));
  assert.equal([again?.name, again?.message], ['InvalidParameterValue', 'Only active tasks can be cancelled.']);
});

moves('a source that is no dead-letter queue, or no queue, is refused', async ({ sqs }) => {
  const notDlq = await failure(sqs.send(new StartMessageMoveTaskCommand({ SourceArn: 'arn:aws:sqs:us-east-1:000000000000:orders-replay' })));
  assert.equal([notDlq?.name, notDlq?.message], ['InvalidParameterValue', 'Source queue must be configured as a Dead Letter Queue.']);
  const missing = await failure(sqs.send(new ListMessageMoveTasksCommand({ SourceArn: 'arn:aws:sqs:us-east-1:000000000000:nothing' })));
  assert.equal([missing?.name, missing?.message], ['ResourceNotFoundException', "One or more specified resources don't exist."]);
});

moves.run();
