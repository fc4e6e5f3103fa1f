import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { synth } from '../../helpers/synth';
import { configErrorOf, roleStatements, arnOf, properties, vpcStatement } from './helpers';

const SECRET = 'arn:aws:secretsmanager:us-east-1:01234567890:secret:MyBrokerSecretName';
const kafka = suite('kafka event');

kafka('maps a topic of a self-managed cluster through its bootstrap servers', () => {
  const t = synth({
    functions: {
      compute: {
        handler: 'h.main',
        events: [{ kafka: { accessConfigurations: { saslScram512Auth: SECRET }, topic: 'my-topic', bootstrapServers: ['a:9092', 'b:9092'] } }],
      },
    },
  });
  assert.equal(t.Resources.ComputeEventSourceMappingKafkaMytopic, {
    Type: 'AWS::Lambda::EventSourceMapping',
    Properties: {
      FunctionName: arnOf('Compute'),
      StartingPosition: 'TRIM_HORIZON',
      SelfManagedEventSource: { Endpoints: { KafkaBootstrapServers: ['a:9092', 'b:9092'] } },
      Topics: ['my-topic'],
      SourceAccessConfigurations: [{ Type: 'SASL_SCRAM_512_AUTH', URI: SECRET }],
    },
    DependsOn: ['IamRoleLambdaExecution'],
  });
  assert.equal(roleStatements(t), [{ Effect: 'Allow', Action: ['secretsmanager:GetSecretValue'], Resource: [SECRET] }]);
});

kafka('turns each access configuration into source access entries, in the order written', () => {
  const t = synth({
    functions: {
      compute: {
        handler: 'h.main',
        events: [
          {
            kafka: {
              accessConfigurations: {
                vpcSubnet: ['subnet-1', 'subnet-2'],
                vpcSecurityGroup: 'sg-1',
                saslPlainAuth: 'arn:aws:secretsmanager:us-east-1:1:secret:Plain',
                saslScram256Auth: 'arn:aws:secretsmanager:us-east-1:1:secret:S256',
                clientCertificateTlsAuth: 'arn:aws:secretsmanager:us-east-1:1:secret:Cert',
                serverRootCaCertificate: 'arn:aws:secretsmanager:us-east-1:1:secret:Ca',
              },
              topic: 't',
              bootstrapServers: ['a:9092'],
              consumerGroupId: 'group',
              batchSize: 10,
              maximumBatchingWindow: 1,
              enabled: false,
              filterPatterns: [{ eventName: 'INSERT' }],
            },
          },
        ],
      },
    },
  });
  assert.equal(properties(t, 'ComputeEventSourceMappingKafkaT'), {
    FunctionName: arnOf('Compute'),
    StartingPosition: 'TRIM_HORIZON',
    SelfManagedEventSource: { Endpoints: { KafkaBootstrapServers: ['a:9092'] } },
    Topics: ['t'],
    SourceAccessConfigurations: [
      { Type: 'VPC_SUBNET', URI: 'subnet:subnet-1' },
      { Type: 'VPC_SUBNET', URI: 'subnet:subnet-2' },
      { Type: 'VPC_SECURITY_GROUP', URI: 'security_group:sg-1' },
      { Type: 'BASIC_AUTH', URI: 'arn:aws:secretsmanager:us-east-1:1:secret:Plain' },
      { Type: 'SASL_SCRAM_256_AUTH', URI: 'arn:aws:secretsmanager:us-east-1:1:secret:S256' },
      { Type: 'CLIENT_CERTIFICATE_TLS_AUTH', URI: 'arn:aws:secretsmanager:us-east-1:1:secret:Cert' },
      { Type: 'SERVER_ROOT_CA_CERTIFICATE', URI: 'arn:aws:secretsmanager:us-east-1:1:secret:Ca' },
    ],
    BatchSize: 10,
    MaximumBatchingWindowInSeconds: 1,
    SelfManagedKafkaEventSourceConfig: { ConsumerGroupId: 'group' },
    Enabled: false,
    FilterCriteria: { Filters: [{ Pattern: '{"eventName":"INSERT"}' }] },
  });
});

kafka('gathers one function’s secrets in one statement, then the VPC statement when any event is in a VPC', () => {
  const t = synth({
    functions: {
      compute: {
        handler: 'h.main',
        events: [
          { kafka: { accessConfigurations: { vpcSubnet: 'subnet-1', vpcSecurityGroup: 'sg-1' }, topic: 'a', bootstrapServers: ['a:9092'] } },
          { kafka: { accessConfigurations: { saslScram512Auth: SECRET }, topic: 'b', bootstrapServers: ['a:9092'] } },
        ],
      },
    },
  });
  assert.equal(roleStatements(t), [{ Effect: 'Allow', Action: ['secretsmanager:GetSecretValue'], Resource: [SECRET] }, vpcStatement]);
});

kafka('adds statements type by type as the reference does: kafka before msk, whatever the event order', () => {
  const t = synth({
    functions: {
      first: { handler: 'h.main', events: [{ msk: { arn: 'arn:aws:kafka:us-east-1:1:cluster/C/x', topic: 't' } }] },
      second: { handler: 'h.main', events: [{ kafka: { accessConfigurations: { saslScram512Auth: SECRET }, topic: 't', bootstrapServers: ['a:9092'] } }] },
    },
  });
  assert.equal(roleStatements(t), [
    { Effect: 'Allow', Action: ['secretsmanager:GetSecretValue'], Resource: [SECRET] },
    { Effect: 'Allow', Action: ['kafka:DescribeCluster', 'kafka:GetBootstrapBrokers'], Resource: ['arn:aws:kafka:us-east-1:1:cluster/C/x'] },
    vpcStatement,
  ]);
});

kafka('refuses an unknown access configuration and a missing one, naming the path', () => {
  const typo = configErrorOf(() =>
    synth({
      functions: { compute: { handler: 'h.main', events: [{ kafka: { accessConfigurations: { saslScram512: SECRET }, topic: 't', bootstrapServers: ['a:9092'] } }] } },
    }),
  );
  assert.is(typo, `Invalid configuration in 'functions.compute.events[0].kafka.accessConfigurations.saslScram512': unknown property (got "${SECRET}")`);
  const missing = configErrorOf(() =>
    synth({ functions: { compute: { handler: 'h.main', events: [{ kafka: { topic: 't', bootstrapServers: ['a:9092'] } }] } } }),
  );
  assert.is(missing, `Invalid configuration in 'functions.compute.events[0].kafka.accessConfigurations': expected an object, got nothing`);
});

kafka('refuses a secret given as an intrinsic (the reference writes it as "[object Object]")', () => {
  const message = configErrorOf(() =>
    synth({
      functions: { compute: { handler: 'h.main', events: [{ kafka: { accessConfigurations: { saslScram512Auth: [{ Ref: 'Secret' }] }, topic: 't', bootstrapServers: ['a:9092'] } }] } },
    }),
  );
  assert.is(
    message,
    `Invalid configuration in 'functions.compute.events[0].kafka.accessConfigurations.saslScram512Auth': expected a Secrets Manager secret ARN or a list of them, got [{"Ref":"Secret"}]`,
  );
});

kafka('refuses bootstrap servers that are not a list', () => {
  const message = configErrorOf(() =>
    synth({ functions: { compute: { handler: 'h.main', events: [{ kafka: { accessConfigurations: { saslScram512Auth: SECRET }, topic: 't', bootstrapServers: 'a:9092' } }] } } }),
  );
  assert.is(message, `Invalid configuration in 'functions.compute.events[0].kafka.bootstrapServers': expected a list of "host:port" bootstrap servers, got "a:9092"`);
});

kafka('refuses subnets without security groups, as the reference does', () => {
  const message = configErrorOf(() =>
    synth({ functions: { compute: { handler: 'h.main', events: [{ kafka: { accessConfigurations: { vpcSubnet: 'subnet-1' }, topic: 't', bootstrapServers: ['a:9092'] } }] } } }),
  );
  assert.is(
    message,
    `Invalid configuration in 'functions.compute.events[0].kafka.accessConfigurations.vpcSecurityGroup': expected at least one security group id (a VPC needs both subnets and security groups), got nothing`,
  );
});

kafka.run();
