import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  CreateStreamCommand,
  DecreaseStreamRetentionPeriodCommand,
  DeregisterStreamConsumerCommand,
  DescribeStreamCommand,
  DescribeStreamConsumerCommand,
  DescribeStreamSummaryCommand,
  IncreaseStreamRetentionPeriodCommand,
  KinesisClient,
  ListStreamConsumersCommand,
  RegisterStreamConsumerCommand,
} from '@aws-sdk/client-kinesis';
import { failure, startTestCloud, type TestCloud } from './helpers';

const settings = suite<{ t: TestCloud; kinesis: KinesisClient }>('local Kinesis retention periods and stream consumers');
settings.before(async (context) => {
  context.t = await startTestCloud();
  context.kinesis = new KinesisClient({ ...context.t.config, maxAttempts: 1 });
  await context.kinesis.send(new CreateStreamCommand({ StreamName: 'clicks', ShardCount: 1 }));
});
settings.after(async (context) => {
  context.kinesis.destroy();
  await context.t.stop();
});

const STREAM_ARN = 'arn:aws:kinesis:us-east-1:000000000000:stream/clicks';

settings('Increase and DecreaseStreamRetentionPeriod change RetentionPeriodHours within 24 to 8760 hours', async ({ kinesis }) => {
  const hours = async () => [
    (await kinesis.send(new DescribeStreamCommand({ StreamName: 'clicks' }))).StreamDescription!.RetentionPeriodHours,
    (await kinesis.send(new DescribeStreamSummaryCommand({ StreamARN: STREAM_ARN }))).StreamDescriptionSummary!.RetentionPeriodHours,
  ];
  await kinesis.send(new IncreaseStreamRetentionPeriodCommand({ StreamName: 'clicks', RetentionPeriodHours: 168 }));
  assert.equal(await hours(), [168, 168]);
  await kinesis.send(new DecreaseStreamRetentionPeriodCommand({ StreamARN: STREAM_ARN, RetentionPeriodHours: 48 }));
  assert.equal(await hours(), [48, 48]);
  const refused = async (promise: Promise<unknown>) => {
    const error = await failure(promise);
    return [error!.name, error!.message];
  };
  assert.equal(await refused(kinesis.send(new IncreaseStreamRetentionPeriodCommand({ StreamName: 'clicks', RetentionPeriodHours: 24 }))), [
    'InvalidArgumentException',
    'Requested retention period (24 hours) for stream clicks can not be shorter than existing retention period (48 hours). Use DecreaseRetentionPeriod API.',
  ]);
  assert.equal(await refused(kinesis.send(new DecreaseStreamRetentionPeriodCommand({ StreamName: 'clicks', RetentionPeriodHours: 72 }))), [
    'InvalidArgumentException',
    'Requested retention period (72 hours) for stream clicks can not be longer than existing retention period (48 hours). Use IncreaseRetentionPeriod API.',
  ]);
  assert.equal(await refused(kinesis.send(new IncreaseStreamRetentionPeriodCommand({ StreamName: 'clicks', RetentionPeriodHours: 8761 }))), [
    'InvalidArgumentException',
    'Maximum allowed retention period is 8760 hours. Requested retention period (8761 hours) is too long.',
  ]);
  assert.equal(await refused(kinesis.send(new DecreaseStreamRetentionPeriodCommand({ StreamName: 'clicks', RetentionPeriodHours: 12 }))), [
    'InvalidArgumentException',
    'Minimum allowed retention period is 24 hours. Requested retention period (12 hours) is too short.',
  ]);
  assert.equal(await hours(), [48, 48]);
});

settings('registered consumers are ACTIVE, described, listed and counted until deregistered', async ({ kinesis }) => {
  const { Consumer } = await kinesis.send(new RegisterStreamConsumerCommand({ StreamARN: STREAM_ARN, ConsumerName: 'fan-out' }));
  assert.is(Consumer!.ConsumerStatus, 'ACTIVE');
  assert.match(Consumer!.ConsumerARN!, /^arn:aws:kinesis:us-east-1:000000000000:stream\/clicks\/consumer\/fan-out:\d+$/);
  await kinesis.send(new RegisterStreamConsumerCommand({ StreamARN: STREAM_ARN, ConsumerName: 'audit' }));
  const byArn = (await kinesis.send(new DescribeStreamConsumerCommand({ ConsumerARN: Consumer!.ConsumerARN }))).ConsumerDescription!;
  const byName = (await kinesis.send(new DescribeStreamConsumerCommand({ StreamARN: STREAM_ARN, ConsumerName: 'fan-out' }))).ConsumerDescription!;
  assert.equal([byArn.ConsumerName, byArn.StreamARN, byArn.ConsumerARN], ['fan-out', STREAM_ARN, Consumer!.ConsumerARN]);
  assert.equal(byName, byArn);
  assert.equal((await kinesis.send(new ListStreamConsumersCommand({ StreamARN: STREAM_ARN }))).Consumers!.map((consumer) => consumer.ConsumerName), ['fan-out', 'audit']);
  assert.is((await kinesis.send(new DescribeStreamSummaryCommand({ StreamName: 'clicks' }))).StreamDescriptionSummary!.ConsumerCount, 2);
  const again = await failure(kinesis.send(new RegisterStreamConsumerCommand({ StreamARN: STREAM_ARN, ConsumerName: 'audit' })));
  assert.equal([again!.name, again!.message], ['ResourceInUseException', 'Consumer audit under stream clicks already exists for account 000000000000.']);
  await kinesis.send(new DeregisterStreamConsumerCommand({ ConsumerARN: Consumer!.ConsumerARN }));
  await kinesis.send(new DeregisterStreamConsumerCommand({ StreamARN: STREAM_ARN, ConsumerName: 'audit' }));
  assert.equal((await kinesis.send(new ListStreamConsumersCommand({ StreamARN: STREAM_ARN }))).Consumers, []);
  const gone = await failure(kinesis.send(new DescribeStreamConsumerCommand({ StreamARN: STREAM_ARN, ConsumerName: 'audit' })));
  assert.equal([gone!.name, gone!.message], ['ResourceNotFoundException', 'Consumer audit under stream clicks under account 000000000000 not found.']);
});

settings('a retention period and a consumer are kept across a restart', async () => {
  let t = await startTestCloud();
  let kinesis = new KinesisClient({ ...t.config, maxAttempts: 1 });
  try {
    await kinesis.send(new CreateStreamCommand({ StreamName: 'kept', ShardCount: 1 }));
    await kinesis.send(new IncreaseStreamRetentionPeriodCommand({ StreamName: 'kept', RetentionPeriodHours: 72 }));
    const { Consumer } = await kinesis.send(new RegisterStreamConsumerCommand({ StreamARN: 'arn:aws:kinesis:us-east-1:000000000000:stream/kept', ConsumerName: 'reader' }));
    kinesis.destroy();
    await t.stop({ keepData: true });
    t = await startTestCloud(t.dataDir);
    kinesis = new KinesisClient({ ...t.config, maxAttempts: 1 });
    const summary = (await kinesis.send(new DescribeStreamSummaryCommand({ StreamName: 'kept' }))).StreamDescriptionSummary!;
    assert.equal([summary.RetentionPeriodHours, summary.ConsumerCount], [72, 1]);
    assert.is((await kinesis.send(new DescribeStreamConsumerCommand({ ConsumerARN: Consumer!.ConsumerARN }))).ConsumerDescription!.ConsumerName, 'reader');
  } finally {
    kinesis.destroy();
    await t.stop();
  }
});

settings.run();
