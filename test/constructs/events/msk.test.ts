import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { synth } from '../../helpers/synth';
import { configErrorOf, roleStatements, properties, vpcStatement } from './helpers';

const CLUSTER = 'arn:aws:kafka:us-east-1:123456789012:cluster/MyCluster/abcd-1234-efgh';
const statements = roleStatements;

const msk = suite('msk event');

msk('maps a topic of the cluster named in the ARN, starting from the trim horizon', () => {
  const t = synth({ functions: { compute: { handler: 'h.main', events: [{ msk: { arn: CLUSTER, topic: 'my-topic' } }] } } });
  assert.equal(t.Resources.ComputeEventSourceMappingMSKMyClusterMytopic, {
    Type: 'AWS::Lambda::EventSourceMapping',
    Properties: {
      EventSourceArn: CLUSTER,
      FunctionName: { 'Fn::GetAtt': ['ComputeLambdaFunction', 'Arn'] },
      StartingPosition: 'TRIM_HORIZON',
      Topics: ['my-topic'],
    },
    DependsOn: ['IamRoleLambdaExecution'],
  });
});

msk('names the mapping after the export or the referenced cluster', () => {
  const t = synth({
    functions: {
      compute: {
        handler: 'h.main',
        events: [{ msk: { arn: { 'Fn::ImportValue': 'my-Export' }, topic: 't' } }, { msk: { arn: { Ref: 'MyMSKCluster' }, topic: 't' } }],
      },
    },
  });
  assert.ok(t.Resources.ComputeEventSourceMappingMSKMyExportT);
  assert.equal(properties(t, 'ComputeEventSourceMappingMSKMyMSKClusterT').EventSourceArn, { Ref: 'MyMSKCluster' });
});

msk('passes batching, consumer group, authentication and filters through', () => {
  const t = synth({
    functions: {
      compute: {
        handler: 'h.main',
        events: [
          {
            msk: {
              arn: CLUSTER,
              topic: 't',
              batchSize: 1000,
              maximumBatchingWindow: 30,
              startingPosition: 'AT_TIMESTAMP',
              startingPositionTimestamp: 1700000000,
              consumerGroupId: 'group',
              enabled: false,
              saslScram512: 'arn:aws:secretsmanager:us-east-1:1:secret:S',
              filterPatterns: [{ value: { a: [1] } }],
            },
          },
        ],
      },
    },
  });
  assert.equal(t.Resources.ComputeEventSourceMappingMSKMyClusterT.Properties, {
    EventSourceArn: CLUSTER,
    FunctionName: { 'Fn::GetAtt': ['ComputeLambdaFunction', 'Arn'] },
    StartingPosition: 'AT_TIMESTAMP',
    Topics: ['t'],
    StartingPositionTimestamp: 1700000000,
    BatchSize: 1000,
    MaximumBatchingWindowInSeconds: 30,
    AmazonManagedKafkaEventSourceConfig: { ConsumerGroupId: 'group' },
    Enabled: false,
    SourceAccessConfigurations: [{ Type: 'SASL_SCRAM_512_AUTH', URI: 'arn:aws:secretsmanager:us-east-1:1:secret:S' }],
    FilterCriteria: { Filters: [{ Pattern: '{"value":{"a":[1]}}' }] },
  });
});

msk('lets the execution role describe every cluster of a function and reach it in its VPC', () => {
  const t = synth({
    functions: {
      compute: { handler: 'h.main', events: [{ msk: { arn: CLUSTER, topic: 'a' } }, { msk: { arn: { Ref: 'Other' }, topic: 'b' } }] },
    },
  });
  assert.equal(statements(t), [
    { Effect: 'Allow', Action: ['kafka:DescribeCluster', 'kafka:GetBootstrapBrokers'], Resource: [CLUSTER, { Ref: 'Other' }] },
    vpcStatement,
  ]);
});

msk('a function with a role ARN of its own waits for nothing, but the shared role still gets the statements', () => {
  const t = synth({
    functions: {
      shared: { handler: 'h.main' },
      own: { handler: 'h.main', role: 'arn:aws:iam::1:role/x', events: [{ msk: { arn: CLUSTER, topic: 't' } }] },
    },
  });
  assert.equal(t.Resources.OwnEventSourceMappingMSKMyClusterT.DependsOn, []);
  assert.is(statements(t).length, 2);
});

msk('refuses a batch size that is not a number, naming the path', () => {
  const message = configErrorOf(() =>
    synth({ functions: { compute: { handler: 'h.main', events: [{ msk: { arn: CLUSTER, topic: 't', batchSize: 'ten' } }] } } }),
  );
  assert.is(message, `Invalid configuration in 'functions.compute.events[0].msk.batchSize': expected an integer from 1 to 10000, got "ten"`);
});

msk('refuses an ARN without a cluster name, and an intrinsic it cannot name', () => {
  const bad = configErrorOf(() => synth({ functions: { compute: { handler: 'h.main', events: [{ msk: { arn: 'arn:aws:kafka:x', topic: 't' } }] } } }));
  assert.is(
    bad,
    `Invalid configuration in 'functions.compute.events[0].msk.arn': expected an MSK cluster ARN ("arn:aws:kafka:…:cluster/<name>/<id>"), { Ref } or { "Fn::ImportValue" }, got "arn:aws:kafka:x"`,
  );
  const getAtt = configErrorOf(() =>
    synth({ functions: { compute: { handler: 'h.main', events: [{ msk: { arn: { 'Fn::GetAtt': ['C', 'Arn'] }, topic: 't' } }] } } }),
  );
  assert.match(getAtt, `'functions.compute.events[0].msk.arn': expected an MSK cluster ARN`);
});

msk('requires the timestamp when starting AT_TIMESTAMP', () => {
  const message = configErrorOf(() =>
    synth({ functions: { compute: { handler: 'h.main', events: [{ msk: { arn: CLUSTER, topic: 't', startingPosition: 'AT_TIMESTAMP' } }] } } }),
  );
  assert.is(
    message,
    `Invalid configuration in 'functions.compute.events[0].msk.startingPositionTimestamp': expected a Unix time in seconds (required when startingPosition is AT_TIMESTAMP), got nothing`,
  );
});

msk('refuses two events of one function on the same cluster and topic (the reference keeps only the last)', () => {
  const message = configErrorOf(() =>
    synth({ functions: { compute: { handler: 'h.main', events: [{ msk: { arn: CLUSTER, topic: 't' } }, { msk: { arn: CLUSTER, topic: 't', batchSize: 5 } }] } } }),
  );
  assert.is(
    message,
    `Invalid configuration in 'functions.compute.events[1].msk': it generates "ComputeEventSourceMappingMSKMyClusterT" again, already generated by 'functions.compute.events[0].msk'; use one msk event per cluster and topic`,
  );
});

msk.run();
