import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { CloudWatchLogsClient, FilterLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { GetParameterCommand, GetParametersCommand, PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { failure, settle, signatureShaped, startTestCloud, type TestCloud } from './helpers';

interface Context {
  t: TestCloud;
  ssm: SSMClient;
  sts: STSClient;
  logs: CloudWatchLogsClient;
}

const services = suite<Context>('local STS, SSM, Logs and SNS, and bad requests');

services.before(async (context) => {
  context.t = await startTestCloud();
  context.ssm = new SSMClient({ ...context.t.config, maxAttempts: 1 });
  context.sts = new STSClient({ ...context.t.config, maxAttempts: 1 });
  context.logs = new CloudWatchLogsClient({ ...context.t.config, maxAttempts: 1 });
});
services.after(async (context) => {
  context.ssm.destroy();
  context.sts.destroy();
  context.logs.destroy();
  await context.t.stop();
});

services('STS says who the caller is', async ({ sts }) => {
  const identity = await sts.send(new GetCallerIdentityCommand({}));
  assert.equal([identity.Account, identity.Arn], ['000000000000', 'arn:aws:iam::000000000000:user/local']);
});

services('SSM stores parameters, and templates can read them', async ({ t, ssm }) => {
  await ssm.send(new PutParameterCommand({ Name: '/app/table', Value: 'orders', Type: 'String' }));
  const { Parameter } = await ssm.send(new GetParameterCommand({ Name: '/app/table' }));
  assert.equal([Parameter!.Value, Parameter!.Version], ['orders', 1]);
  const again = await failure(ssm.send(new PutParameterCommand({ Name: '/app/table', Value: 'x', Type: 'String' })));
  assert.is(again?.name, 'ParameterAlreadyExists');
  await ssm.send(new PutParameterCommand({ Name: '/app/table', Value: 'orders2', Type: 'String', Overwrite: true }));
  const { Parameters, InvalidParameters } = await ssm.send(new GetParametersCommand({ Names: ['/app/table', '/nope'] }));
  assert.equal(Parameters!.map((p) => [p.Value, p.Version]), [['orders2', 2]]);
  assert.equal(InvalidParameters, ['/nope']);
  const missing = await failure(ssm.send(new GetParameterCommand({ Name: '/nope' })));
  assert.is(missing?.name, 'ParameterNotFound');

  const template = {
    Parameters: { TableName: { Type: 'AWS::SSM::Parameter::Value<String>', Default: '/app/table' } },
    Resources: { Table: { Type: 'AWS::DynamoDB::Table', Properties: { TableName: { Ref: 'TableName' }, AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }], KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }] } } },
    Outputs: { Arn: { Value: { 'Fn::GetAtt': ['Table', 'Arn'] } } },
  };
  await t.cfn.send(new CreateStackCommand({ StackName: 'ssm', TemplateBody: JSON.stringify(template) }));
  const stack = await settle(t.cfn, 'ssm');
  assert.equal(stack.Outputs!.map((o) => o.OutputValue), ['arn:aws:dynamodb:us-east-1:000000000000:table/orders2']);
});

services('SNS Publish invokes the subscribed function', async ({ t, logs }) => {
  const template = {
    Resources: {
      Topic: { Type: 'AWS::SNS::Topic', Properties: { TopicName: 'alerts' } },
      Fn: { Type: 'AWS::Lambda::Function', Properties: { FunctionName: 'on-alert', Handler: 'index.handler', Runtime: 'nodejs20.x', Role: 'r', Code: { ZipFile: "exports.handler = async (e) => { console.log('ALERT ' + e.Records[0].Sns.Message); };" } } },
      Sub: { Type: 'AWS::SNS::Subscription', Properties: { TopicArn: { Ref: 'Topic' }, Protocol: 'lambda', Endpoint: { 'Fn::GetAtt': ['Fn', 'Arn'] } } },
    },
  };
  await t.cfn.send(new CreateStackCommand({ StackName: 'sns', TemplateBody: JSON.stringify(template) }));
  assert.is((await settle(t.cfn, 'sns')).StackStatus, 'CREATE_COMPLETE');
  const response = await fetch(t.cloud.url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...signatureShaped('sns') },
    body: new URLSearchParams({ Action: 'Publish', Version: '2010-03-31', TopicArn: 'arn:aws:sns:us-east-1:000000000000:alerts', Message: 'disk full' }),
  });
  assert.is(response.status, 200);
  assert.match(await response.text(), /<PublishResponse[^>]*><PublishResult><MessageId>[0-9a-f-]{36}<\/MessageId>/);
  let messages: string[] = [];
  for (const deadline = Date.now() + 8000; Date.now() < deadline && messages.length === 0; ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const found = await failure(logs.send(new FilterLogEventsCommand({ logGroupName: '/aws/lambda/on-alert', filterPattern: 'ALERT' })).then((r) => {
      messages = r.events!.map((e) => e.message!.split('\t').pop()!);
    }));
    if (found && found.name !== 'ResourceNotFoundException') throw found;
  }
  assert.equal(messages, ['ALERT disk full']);
});

services('EventBridge events and SQS messages invoke the functions that listen for them', async ({ t, logs }) => {
  const code = "exports.handler = async (e) => { console.log('GOT ' + JSON.stringify(e.Records ? e.Records[0].body : e.detail)); };";
  const template = {
    Resources: {
      Fn: { Type: 'AWS::Lambda::Function', Properties: { FunctionName: 'listener', Handler: 'index.handler', Runtime: 'nodejs20.x', Role: 'r', Code: { ZipFile: code } } },
      Rule: { Type: 'AWS::Events::Rule', Properties: { EventPattern: { source: ['my.app'], detail: { kind: [{ prefix: 'order' }] } }, State: 'ENABLED', Targets: [{ Arn: { 'Fn::GetAtt': ['Fn', 'Arn'] }, Id: 't' }] } },
      Jobs: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'jobs' } },
      Mapping: { Type: 'AWS::Lambda::EventSourceMapping', Properties: { EventSourceArn: { 'Fn::GetAtt': ['Jobs', 'Arn'] }, FunctionName: { 'Fn::GetAtt': ['Fn', 'Arn'] }, BatchSize: 10, Enabled: true } },
    },
  };
  await t.cfn.send(new CreateStackCommand({ StackName: 'listeners', TemplateBody: JSON.stringify(template) }));
  assert.is((await settle(t.cfn, 'listeners')).StackStatus, 'CREATE_COMPLETE');
  const call = (target: string, contentType: string, body: unknown) =>
    fetch(t.cloud.url, { method: 'POST', headers: { 'content-type': contentType, 'x-amz-target': target, ...signatureShaped('sqs') }, body: JSON.stringify(body) });
  const put = await call('AWSEvents.PutEvents', 'application/x-amz-json-1.1', {
    Entries: [
      { Source: 'my.app', DetailType: 'd', Detail: JSON.stringify({ kind: 'order-created' }) },
      { Source: 'my.app', DetailType: 'd', Detail: JSON.stringify({ kind: 'refund' }) },
    ],
  });
  assert.is(((await put.json()) as { FailedEntryCount: number }).FailedEntryCount, 0);
  const sent = await call('AmazonSQS.SendMessage', 'application/x-amz-json-1.0', { QueueUrl: 'https://sqs.us-east-1.amazonaws.com/000000000000/jobs', MessageBody: 'job-1' });
  assert.is(sent.status, 200);
  let messages: string[] = [];
  for (const deadline = Date.now() + 8000; Date.now() < deadline && messages.length < 2; ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const { events } = await logs.send(new FilterLogEventsCommand({ logGroupName: '/aws/lambda/listener', filterPattern: 'GOT' }));
    messages = events!.map((e) => e.message!.split('\t').pop()!).sort();
  }
  assert.equal(messages, ['GOT "job-1"', 'GOT {"kind":"order-created"}']);
  const missing = await call('AmazonSQS.SendMessage', 'application/x-amz-json-1.0', { QueueUrl: 'nope', MessageBody: 'x' });
  assert.is(missing.status, 400);
  assert.equal([((await missing.json()) as { __type: string }).__type, missing.headers.get('x-amzn-query-error')], ['com.amazonaws.sqs#QueueDoesNotExist', 'AWS.SimpleQueueService.NonExistentQueue;Sender']);
});

services('bad requests get the AWS error shape, and the server keeps serving', async ({ t, logs }) => {
  const garbage = await fetch(t.cloud.url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...signatureShaped('cloudformation') }, body: 'Action=Nope&Version=2010-05-15' });
  assert.is(garbage.status, 400);
  assert.match(await garbage.text(), /<ErrorResponse[^>]*><Error><Type>Sender<\/Type><Code>InvalidAction<\/Code>/);
  const noName = await fetch(t.cloud.url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...signatureShaped('cloudformation') }, body: 'Action=CreateStack&Version=2010-05-15' });
  assert.is(noName.status, 400);
  assert.match(await noName.text(), /<Code>ValidationError<\/Code>/);
  const badJson = await fetch(t.cloud.url, { method: 'POST', headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'Logs_20140328.FilterLogEvents', ...signatureShaped('logs') }, body: '{not json' });
  assert.is(badJson.status, 400);
  assert.equal(await badJson.json(), { __type: 'SerializationException', message: 'The request body is not valid JSON', Message: 'The request body is not valid JSON' });
  const missingGroup = await failure(logs.send(new FilterLogEventsCommand({ logGroupName: '/none' })));
  assert.is(missingGroup?.name, 'ResourceNotFoundException');
  const chunked = await fetch(`${t.cloud.url}/bucket/key`, { method: 'PUT', headers: { 'content-encoding': 'aws-chunked', ...signatureShaped() }, body: 'zz\r\nnot hex' });
  assert.is(chunked.status, 404);
  await fetch(`${t.cloud.url}/chunks`, { method: 'PUT', headers: signatureShaped() });
  const malformed = await fetch(`${t.cloud.url}/chunks/key`, { method: 'PUT', headers: { 'content-encoding': 'aws-chunked', ...signatureShaped() }, body: 'zz\r\nnot hex' });
  assert.is(malformed.status, 400);
  assert.match(await malformed.text(), /<Code>InvalidRequest<\/Code>/);
  const identity = await fetch(t.cloud.url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...signatureShaped('sts') }, body: 'Action=GetCallerIdentity&Version=2011-06-15' });
  assert.is(identity.status, 200);
});

services.run();
