import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { synth } from '../../helpers/synth';
import { configErrorOf, roleStatements, arnOf, vpcStatement } from './helpers';

const BROKER = 'arn:aws:mq:us-east-1:0000:broker:ExampleMQBroker:b-xxx-xxx';
const SECRET = 'arn:aws:secretsmanager:us-east-1:01234567890:secret:MySecret';
const rabbitmq = suite('rabbitmq event');

rabbitmq('maps a queue of the broker on its virtual host', () => {
  const t = synth({
    functions: { compute: { handler: 'h.main', events: [{ rabbitmq: { arn: BROKER, queue: 'other-queue', virtualHost: 'vhost', basicAuthArn: SECRET, enabled: true } }] } },
  });
  assert.equal(t.Resources.ComputeEventSourceMappingRabbitMQOtherqueue, {
    Type: 'AWS::Lambda::EventSourceMapping',
    Properties: {
      FunctionName: arnOf('Compute'),
      EventSourceArn: BROKER,
      Queues: ['other-queue'],
      SourceAccessConfigurations: [
        { Type: 'BASIC_AUTH', URI: SECRET },
        { Type: 'VIRTUAL_HOST', URI: 'vhost' },
      ],
      Enabled: true,
    },
    DependsOn: ['IamRoleLambdaExecution'],
  });
});

rabbitmq('adds its statements after activemq ones, function by function', () => {
  const t = synth({
    functions: {
      rabbit: { handler: 'h.main', events: [{ rabbitmq: { arn: BROKER, queue: 'q', basicAuthArn: SECRET } }] },
      active: { handler: 'h.main', events: [{ activemq: { arn: { 'Fn::ImportValue': 'Broker' }, queue: 'q', basicAuthArn: SECRET } }] },
    },
  });
  assert.equal(roleStatements(t), [
    { Effect: 'Allow', Action: ['secretsmanager:GetSecretValue'], Resource: [SECRET] },
    { Effect: 'Allow', Action: ['mq:DescribeBroker'], Resource: [{ 'Fn::ImportValue': 'Broker' }] },
    vpcStatement,
    { Effect: 'Allow', Action: ['secretsmanager:GetSecretValue'], Resource: [SECRET] },
    { Effect: 'Allow', Action: ['mq:DescribeBroker'], Resource: [BROKER] },
    vpcStatement,
  ]);
});

rabbitmq('refuses a virtual host that is not a string', () => {
  const message = configErrorOf(() =>
    synth({ functions: { compute: { handler: 'h.main', events: [{ rabbitmq: { arn: BROKER, queue: 'q', basicAuthArn: SECRET, virtualHost: 5 } }] } } }),
  );
  assert.is(message, `Invalid configuration in 'functions.compute.events[0].rabbitmq.virtualHost': expected a string, got 5`);
});

rabbitmq.run();
