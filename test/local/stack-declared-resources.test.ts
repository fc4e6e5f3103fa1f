import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateStackCommand, DeleteStackCommand, UpdateStackCommand } from '@aws-sdk/client-cloudformation';
import { DescribeEventBusCommand, EventBridgeClient, ListEventBusesCommand, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { credentials, failure, outputsOf, settle, startTestCloud, type TestCloud } from './helpers';

interface Context {
  t: TestCloud;
  ssm: SSMClient;
  events: EventBridgeClient;
  sqs: SQSClient;
}

const template = (value: string) => ({
  Resources: {
    Greeting: { Type: 'AWS::SSM::Parameter', Properties: { Name: '/app/greeting', Type: 'String', Value: value } },
    Hosts: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'StringList', Value: 'a.example,b.example' } },
    Bus: { Type: 'AWS::Events::EventBus', Properties: { Name: 'orders' } },
    Queue: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'big-orders' } },
    BigOrders: {
      Type: 'AWS::Events::Rule',
      Properties: {
        EventBusName: { 'Fn::GetAtt': ['Bus', 'Arn'] },
        EventPattern: { source: ['shop'] },
        Targets: [{ Id: 'queue', Arn: { 'Fn::GetAtt': ['Queue', 'Arn'] } }],
      },
    },
  },
  Outputs: {
    GreetingName: { Value: { Ref: 'Greeting' } },
    GreetingValue: { Value: { 'Fn::GetAtt': ['Greeting', 'Value'] } },
    HostsName: { Value: { Ref: 'Hosts' } },
    BusName: { Value: { Ref: 'Bus' } },
    BusArn: { Value: { 'Fn::GetAtt': ['Bus', 'Arn'] } },
  },
});

const declared = suite<Context>('resources a stack declares are made, not only recorded');

declared.before(async (context) => {
  context.t = await startTestCloud();
  const client = { endpoint: context.t.cloud.url, region: 'us-east-1', credentials };
  context.ssm = new SSMClient(client);
  context.events = new EventBridgeClient(client);
  context.sqs = new SQSClient(client);
});

declared.after(async (context) => {
  await context.t.stop();
});

declared('an SSM parameter is in the Parameter Store under its name; an update changes its value; a delete removes it', async ({ t, ssm }) => {
  await t.cfn.send(new CreateStackCommand({ StackName: 'app', TemplateBody: JSON.stringify(template('hello')) }));
  const outputs = outputsOf(await settle(t.cfn, 'app'));
  assert.equal([outputs.GreetingName, outputs.GreetingValue], ['/app/greeting', 'hello']);
  assert.match(outputs.HostsName, /^CFN-Hosts-[A-Za-z0-9]{12}$/);
  const { Parameter } = await ssm.send(new GetParameterCommand({ Name: '/app/greeting' }));
  assert.equal([Parameter!.Name, Parameter!.Type, Parameter!.Value, Parameter!.Version], ['/app/greeting', 'String', 'hello', 1]);
  const hosts = await ssm.send(new GetParameterCommand({ Name: outputs.HostsName }));
  assert.equal([hosts.Parameter!.Type, hosts.Parameter!.Value], ['StringList', 'a.example,b.example']);

  await t.cfn.send(new UpdateStackCommand({ StackName: 'app', TemplateBody: JSON.stringify(template('hello again')) }));
  await settle(t.cfn, 'app');
  const updated = await ssm.send(new GetParameterCommand({ Name: '/app/greeting' }));
  assert.equal([updated.Parameter!.Value, updated.Parameter!.Version], ['hello again', 2]);
});

declared('an event bus keeps its declared name (DescribeEventBus and ListEventBuses show it): a rule on its Arn gets the events PutEvents sends to that name', async ({ t, events, sqs }) => {
  const outputs = outputsOf(await settle(t.cfn, 'app'));
  assert.equal([outputs.BusName, outputs.BusArn], ['orders', 'arn:aws:events:us-east-1:000000000000:event-bus/orders']);
  const { EventBuses } = await events.send(new ListEventBusesCommand({}));
  assert.equal(EventBuses!.map((bus) => bus.Name), ['default', 'orders']);
  // DescribeEventBus by name, by ARN, and with none (the default bus); an unknown bus as AWS answers it.
  for (const Name of ['orders', outputs.BusArn]) {
    const described = await events.send(new DescribeEventBusCommand({ Name }));
    assert.equal([described.Name, described.Arn], ['orders', 'arn:aws:events:us-east-1:000000000000:event-bus/orders']);
  }
  const fallback = await events.send(new DescribeEventBusCommand({}));
  assert.equal([fallback.Name, fallback.Arn], ['default', 'arn:aws:events:us-east-1:000000000000:event-bus/default']);
  const missing = await events.send(new DescribeEventBusCommand({ Name: 'nope' })).then(() => undefined, (error: Error) => [error.name, error.message]);
  assert.equal(missing, ['ResourceNotFoundException', 'Event bus nope does not exist.']);
  await events.send(new PutEventsCommand({ Entries: [{ EventBusName: 'orders', Source: 'shop', DetailType: 'order', Detail: JSON.stringify({ total: 150 }) }] }));
  const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: "https://sqs.us-east-1.amazonaws.com/000000000000/big-orders", WaitTimeSeconds: 2 }));
  assert.equal(Messages!.map((message) => JSON.parse(message.Body!).detail), [{ total: 150 }]);
});

declared('deleting the stack removes its parameters', async ({ t, ssm }) => {
  await t.cfn.send(new DeleteStackCommand({ StackName: 'app' }));
  await settle(t.cfn, 'app').catch(() => undefined);
  const error = await failure(ssm.send(new GetParameterCommand({ Name: '/app/greeting' })));
  assert.is(error?.name, 'ParameterNotFound');
});

declared.run();
