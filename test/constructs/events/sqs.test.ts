import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { synth } from '../../helpers/synth';
import { arnOf, configErrorOf, roleStatements, withEvents } from './group-a-helpers';

const sqs = suite('sqs event');
const QUEUE = 'arn:aws:sqs:us-east-1:123456789012:MyFirstQueue';
const READ = ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'];

sqs('an ARN becomes an enabled mapping of 10 messages, after the role that may read the queue', () => {
  const t = synth(withEvents('compute', [{ sqs: QUEUE }]));
  assert.equal(t.Resources.ComputeEventSourceMappingSQSMyFirstQueue, {
    Type: 'AWS::Lambda::EventSourceMapping',
    DependsOn: ['IamRoleLambdaExecution'],
    Properties: { BatchSize: 10, EventSourceArn: QUEUE, FunctionName: arnOf('Compute'), Enabled: true },
  });
  assert.equal(roleStatements(t), [{ Effect: 'Allow', Action: READ, Resource: [QUEUE] }]);
});

sqs('names the mapping after what an intrinsic points at', () => {
  const t = synth(
    withEvents('compute', [
      { sqs: { arn: { 'Fn::GetAtt': ['MySecondQueue', 'Arn'] } } },
      { sqs: { arn: { 'Fn::ImportValue': 'MyExportedQueueArnId' } } },
      { sqs: { arn: { 'Fn::Join': [':', ['arn', 'aws', 'sqs', { Ref: 'AWS::Region' }, { Ref: 'AWS::AccountId' }, 'MyOtherQueue']] } } },
    ]),
  );
  assert.equal(
    Object.keys(t.Resources).filter(id => id.includes('EventSourceMapping')),
    ['ComputeEventSourceMappingSQSMySecondQueue', 'ComputeEventSourceMappingSQSMyExportedQueueArnId', 'ComputeEventSourceMappingSQSMyOtherQueue'],
  );
});

sqs('writes every option it is given', () => {
  const t = synth(
    withEvents('compute', [
      {
        sqs: {
          arn: QUEUE,
          batchSize: 100,
          maximumBatchingWindow: 60,
          functionResponseType: 'ReportBatchItemFailures',
          filterPatterns: [{ a: [1, 2] }],
          maximumConcurrency: 250,
          enabled: false,
        },
      },
    ]),
  );
  assert.equal(t.Resources.ComputeEventSourceMappingSQSMyFirstQueue.Properties, {
    BatchSize: 100,
    MaximumBatchingWindowInSeconds: 60,
    EventSourceArn: QUEUE,
    FunctionName: arnOf('Compute'),
    Enabled: false,
    FunctionResponseTypes: ['ReportBatchItemFailures'],
    FilterCriteria: { Filters: [{ Pattern: '{"a":[1,2]}' }] },
    ScalingConfig: { MaximumConcurrency: 250 },
  });
});

sqs('every queue of every function goes into one statement, after the stream statements', () => {
  const other = 'arn:aws:sqs:us-east-1:123456789012:other';
  const stream = 'arn:aws:kinesis:us-east-1:123456789012:stream/s';
  const t = synth({
    functions: {
      a: { handler: 'h.main', events: [{ sqs: QUEUE }] },
      b: { handler: 'h.main', events: [{ sqs: other }, { stream }] },
    },
  } as never);
  assert.equal(roleStatements(t), [
    { Effect: 'Allow', Action: ['kinesis:GetRecords', 'kinesis:GetShardIterator', 'kinesis:DescribeStream', 'kinesis:ListStreams'], Resource: [stream] },
    { Effect: 'Allow', Action: READ, Resource: [QUEUE, other] },
  ]);
});

sqs('a function with its own role neither adds statements nor waits for the shared role', () => {
  const t = synth({
    functions: { own: { handler: 'h.main', role: 'arn:aws:iam::1:role/x', events: [{ sqs: QUEUE }] }, other: { handler: 'h.main' } },
  } as never);
  assert.equal(t.Resources.OwnEventSourceMappingSQSMyFirstQueue.DependsOn, []);
  assert.equal(roleStatements(t), []);
});

sqs('refuses a batch size that is not a number, naming the field', () => {
  assert.is(
    configErrorOf(() => synth(withEvents('consumer', [{ sqs: QUEUE }, { sqs: { arn: QUEUE, batchSize: 'ten' } }]))),
    `Invalid configuration in 'functions.consumer.events[1].sqs.batchSize': expected a number, got "ten"`,
  );
});

sqs('refuses a queue Ref, which is its URL, where the reference crashes', () => {
  assert.is(
    configErrorOf(() => synth(withEvents('consumer', [{ sqs: { arn: { Ref: 'Queue' } } }]))),
    `Invalid configuration in 'functions.consumer.events[0].sqs.arn': expected a queue ARN ("arn:aws:sqs:…") or { "Fn::GetAtt" | "Fn::ImportValue" | "Fn::Join" }, got {"Ref":"Queue"} (a queue's Ref is its URL; use { "Fn::GetAtt": [<queue>, "Arn"] })`,
  );
});

sqs.run();
