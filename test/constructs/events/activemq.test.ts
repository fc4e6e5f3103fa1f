import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { synth } from '../../helpers/synth';
import { errorOf, eventStatements, functionArn, properties, vpcStatement } from './group-b-helpers';

const BROKER = 'arn:aws:mq:us-east-1:0000:broker:ExampleMQBroker:b-xxx-xxx';
const SECRET = 'arn:aws:secretsmanager:us-east-1:01234567890:secret:MySecret';
const activemq = suite('activemq event');

activemq('maps a queue of the broker, authenticated with the secret', () => {
  const t = synth({ functions: { compute: { handler: 'h.main', events: [{ activemq: { arn: BROKER, queue: 'queue-name', basicAuthArn: SECRET } }] } } });
  assert.equal(t.Resources.ComputeEventSourceMappingActiveMQQueuename, {
    Type: 'AWS::Lambda::EventSourceMapping',
    Properties: {
      FunctionName: functionArn('Compute'),
      EventSourceArn: BROKER,
      Queues: ['queue-name'],
      SourceAccessConfigurations: [{ Type: 'BASIC_AUTH', URI: SECRET }],
    },
    DependsOn: ['IamRoleLambdaExecution'],
  });
});

activemq('passes batching, enabled and filters through', () => {
  const t = synth({
    functions: {
      compute: {
        handler: 'h.main',
        events: [{ activemq: { arn: BROKER, queue: 'q', basicAuthArn: SECRET, batchSize: 5000, maximumBatchingWindow: 30, enabled: false, filterPatterns: [{ a: 1 }] } }],
      },
    },
  });
  assert.equal(properties(t, 'ComputeEventSourceMappingActiveMQQ'), {
    FunctionName: functionArn('Compute'),
    EventSourceArn: BROKER,
    Queues: ['q'],
    SourceAccessConfigurations: [{ Type: 'BASIC_AUTH', URI: SECRET }],
    BatchSize: 5000,
    MaximumBatchingWindowInSeconds: 30,
    Enabled: false,
    FilterCriteria: { Filters: [{ Pattern: '{"a":1}' }] },
  });
});

activemq('lets the role read the secrets and describe the brokers of each function', () => {
  const t = synth({
    functions: {
      compute: {
        handler: 'h.main',
        events: [{ activemq: { arn: BROKER, queue: 'a', basicAuthArn: SECRET } }, { activemq: { arn: { Ref: 'Broker' }, queue: 'b', basicAuthArn: { Ref: 'Secret' } } }],
      },
    },
  });
  assert.equal(eventStatements(t), [
    { Effect: 'Allow', Action: ['secretsmanager:GetSecretValue'], Resource: [SECRET, { Ref: 'Secret' }] },
    { Effect: 'Allow', Action: ['mq:DescribeBroker'], Resource: [BROKER, { Ref: 'Broker' }] },
    vpcStatement,
  ]);
});

activemq('accepts a broker from Fn::GetAtt', () => {
  const t = synth({ functions: { compute: { handler: 'h.main', events: [{ activemq: { arn: { 'Fn::GetAtt': ['Broker', 'Arn'] }, queue: 'q', basicAuthArn: SECRET } }] } } });
  assert.equal(properties(t, 'ComputeEventSourceMappingActiveMQQ').EventSourceArn, { 'Fn::GetAtt': ['Broker', 'Arn'] });
});

activemq('waits for a role the function names by logical id', () => {
  const t = synth({ functions: { compute: { handler: 'h.main', role: 'MyRole', events: [{ activemq: { arn: BROKER, queue: 'q', basicAuthArn: SECRET } }] } } });
  assert.equal(t.Resources.ComputeEventSourceMappingActiveMQQ.DependsOn, ['MyRole']);
});

activemq('refuses a broker ARN of another service and a missing queue', () => {
  const arn = errorOf(() => synth({ functions: { compute: { handler: 'h.main', events: [{ activemq: { arn: 'arn:aws:sqs:x', queue: 'q', basicAuthArn: SECRET } }] } } }));
  assert.is(
    arn,
    `Invalid configuration in 'functions.compute.events[0].activemq.arn': expected an Amazon MQ broker ARN ("arn:aws:mq:<region>:<account>:broker:<name>:b-…") or a CloudFormation intrinsic, got "arn:aws:sqs:x"`,
  );
  const queue = errorOf(() => synth({ functions: { compute: { handler: 'h.main', events: [{ activemq: { arn: BROKER, basicAuthArn: SECRET } }] } } }));
  assert.is(queue, `Invalid configuration in 'functions.compute.events[0].activemq.queue': expected a string, got nothing`);
});

activemq('refuses two events of one function on the same queue', () => {
  const message = errorOf(() =>
    synth({
      functions: {
        compute: { handler: 'h.main', events: [{ activemq: { arn: BROKER, queue: 'q', basicAuthArn: SECRET } }, { activemq: { arn: BROKER, queue: 'q', basicAuthArn: SECRET } }] },
      },
    }),
  );
  assert.match(message, `'functions.compute.events[1].activemq': generates the logical id "ComputeEventSourceMappingActiveMQQ" already used by 'functions.compute.events[0].activemq'`);
});

activemq.run();
