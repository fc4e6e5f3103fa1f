import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { synth } from '../../helpers/synth';
import { arnOf, configErrorOf, roleStatements, withEvents } from './helpers';

const stream = suite('stream event');
const TABLE = 'arn:aws:dynamodb:us-east-1:123456789012:table/foo/stream/1970-01-01T00:00:00.000';
const KINESIS = 'arn:aws:kinesis:us-east-1:123456789012:stream/foobar';
const DYNAMODB_READ = ['dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:DescribeStream', 'dynamodb:ListStreams'];
const KINESIS_READ = ['kinesis:GetRecords', 'kinesis:GetShardIterator', 'kinesis:DescribeStream', 'kinesis:ListStreams'];
const CONSUMER_READ = ['kinesis:GetRecords', 'kinesis:GetShardIterator', 'kinesis:DescribeStreamSummary', 'kinesis:ListShards'];

stream('a DynamoDB stream ARN becomes a mapping from the horizon, named after the table', () => {
  const t = synth(withEvents('compute', [{ stream: TABLE }]));
  assert.equal(t.Resources.ComputeEventSourceMappingDynamodbFoo, {
    Type: 'AWS::Lambda::EventSourceMapping',
    DependsOn: ['IamRoleLambdaExecution'],
    Properties: { BatchSize: 10, Enabled: true, EventSourceArn: TABLE, FunctionName: arnOf('Compute'), StartingPosition: 'TRIM_HORIZON' },
  });
  assert.equal(roleStatements(t), [{ Effect: 'Allow', Action: DYNAMODB_READ, Resource: [TABLE] }]);
});

stream('writes the Kinesis options and lets the role send failures to the destination', () => {
  const t = synth(
    withEvents('pre', [
      {
        stream: {
          arn: 'arn:aws:kinesis:us-east-1:123456789012:stream/foo',
          batchSize: 100,
          batchWindow: 10,
          startingPosition: 'LATEST',
          maximumRetryAttempts: 10,
          maximumRecordAgeInSeconds: 120,
          parallelizationFactor: 10,
          bisectBatchOnFunctionError: true,
          enabled: false,
          destinations: { onFailure: 'arn:aws:sqs:us-east-1:123456789012:queue' },
          filterPatterns: [{ partitionKey: ['important'] }],
          functionResponseType: 'ReportBatchItemFailures',
          tumblingWindowInSeconds: 30,
        },
      },
    ]),
  );
  assert.equal(t.Resources.PreEventSourceMappingKinesisFoo.Properties, {
    BatchSize: 100,
    Enabled: false,
    EventSourceArn: 'arn:aws:kinesis:us-east-1:123456789012:stream/foo',
    FunctionName: arnOf('Pre'),
    ParallelizationFactor: 10,
    StartingPosition: 'LATEST',
    MaximumBatchingWindowInSeconds: 10,
    MaximumRetryAttempts: 10,
    BisectBatchOnFunctionError: true,
    MaximumRecordAgeInSeconds: 120,
    DestinationConfig: { OnFailure: { Destination: 'arn:aws:sqs:us-east-1:123456789012:queue' } },
    FunctionResponseTypes: ['ReportBatchItemFailures'],
    TumblingWindowInSeconds: 30,
    FilterCriteria: { Filters: [{ Pattern: '{"partitionKey":["important"]}' }] },
  });
  assert.equal(roleStatements(t), [
    { Effect: 'Allow', Action: KINESIS_READ, Resource: ['arn:aws:kinesis:us-east-1:123456789012:stream/foo'] },
    { Effect: 'Allow', Action: ['sqs:ListQueues', 'sqs:SendMessage'], Resource: ['arn:aws:sqs:us-east-1:123456789012:queue'] },
  ]);
});

stream('consumer: true puts a fan-out consumer between the stream and the function', () => {
  const t = synth(withEvents('fanOut', [{ stream: { type: 'kinesis', arn: KINESIS, consumer: true } }]));
  assert.equal(t.Resources.FanOutfoobarConsumerStreamConsumer, {
    Type: 'AWS::Kinesis::StreamConsumer',
    Properties: { StreamARN: KINESIS, ConsumerName: 'fanOutfoobarConsumer' },
  });
  assert.equal(t.Resources.FanOutEventSourceMappingKinesisFoobar.DependsOn, ['IamRoleLambdaExecution', 'FanOutfoobarConsumerStreamConsumer']);
  assert.equal((t.Resources.FanOutEventSourceMappingKinesisFoobar.Properties as any).EventSourceArn, { Ref: 'FanOutfoobarConsumerStreamConsumer' });
  assert.equal(roleStatements(t), [
    { Effect: 'Allow', Action: CONSUMER_READ, Resource: [KINESIS] },
    { Effect: 'Allow', Action: ['kinesis:SubscribeToShard'], Resource: [{ Ref: 'FanOutfoobarConsumerStreamConsumer' }] },
  ]);
});

stream('each function gets its own statements, DynamoDB before Kinesis before destinations whatever the event order', () => {
  const t = synth({
    functions: {
      a: {
        handler: 'h.main',
        events: [
          { stream: { arn: KINESIS, destinations: { onFailure: 'arn:aws:sqs:us-east-1:1:q' } } },
          { stream: { arn: TABLE, destinations: { onFailure: { arn: { 'Fn::GetAtt': ['Topic', 'TopicArn'] }, type: 'sns' } } } },
        ],
      },
      b: { handler: 'h.main', events: [{ stream: 'arn:aws:kinesis:us-east-1:123456789012:stream/other' }] },
    },
  } as never);
  assert.equal(roleStatements(t), [
    { Effect: 'Allow', Action: DYNAMODB_READ, Resource: [TABLE] },
    { Effect: 'Allow', Action: KINESIS_READ, Resource: [KINESIS] },
    { Effect: 'Allow', Action: ['sns:Publish'], Resource: [{ 'Fn::GetAtt': ['Topic', 'TopicArn'] }] },
    { Effect: 'Allow', Action: ['sqs:ListQueues', 'sqs:SendMessage'], Resource: ['arn:aws:sqs:us-east-1:1:q'] },
    { Effect: 'Allow', Action: KINESIS_READ, Resource: ['arn:aws:kinesis:us-east-1:123456789012:stream/other'] },
  ]);
});

stream('an intrinsic ARN needs a type', () => {
  assert.is(
    configErrorOf(() => synth(withEvents('f', [{ stream: { arn: { 'Fn::GetAtt': ['Table', 'StreamArn'] } } }]))),
    `Invalid configuration in 'functions.f.events[0].stream.type': expected "dynamodb" or "kinesis" (required when arn is an intrinsic), got nothing`,
  );
});

stream('writes the AT_TIMESTAMP timestamp with or without a consumer (the reference drops it without one, which Lambda rejects)', () => {
  const t = synth(
    withEvents('f', [
      { stream: { arn: KINESIS, startingPosition: 'AT_TIMESTAMP', startingPositionTimestamp: 1000000001 } },
      { stream: { arn: 'arn:aws:kinesis:us-east-1:123456789012:stream/other', consumer: true, startingPosition: 'AT_TIMESTAMP', startingPositionTimestamp: 1000 } },
    ]),
  );
  assert.equal(t.Resources.FEventSourceMappingKinesisFoobar.Properties, {
    BatchSize: 10,
    Enabled: true,
    EventSourceArn: KINESIS,
    FunctionName: arnOf('F'),
    StartingPosition: 'AT_TIMESTAMP',
    StartingPositionTimestamp: 1000000001,
  });
  assert.is((t.Resources.FEventSourceMappingKinesisOther.Properties as any).StartingPositionTimestamp, 1000);
});

stream('refuses a wrongly typed option, naming it', () => {
  assert.is(
    configErrorOf(() => synth(withEvents('f', [{ stream: { arn: KINESIS, batchSize: 'ten' } }]))),
    `Invalid configuration in 'functions.f.events[0].stream.batchSize': expected an integer from 1 to 10000, got "ten"`,
  );
});

stream.run();
