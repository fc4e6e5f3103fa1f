import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiGatewayV2Client, GetApiCommand, GetApisCommand, GetIntegrationsCommand, GetRouteCommand, GetRoutesCommand, GetStagesCommand } from '@aws-sdk/client-apigatewayv2';
import { CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { CloudWatchClient, GetMetricStatisticsCommand, ListMetricsCommand, PutMetricDataCommand } from '@aws-sdk/client-cloudwatch';
import { CreateTableCommand, DynamoDBClient, DeleteItemCommand, PutItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand, ListStreamsCommand } from '@aws-sdk/client-dynamodb-streams';
import {
  AttachRolePolicyCommand,
  CreateRoleCommand,
  DeleteRoleCommand,
  DeleteRolePolicyCommand,
  DetachRolePolicyCommand,
  GetRoleCommand,
  GetRolePolicyCommand,
  IAMClient,
  ListAttachedRolePoliciesCommand,
  ListRolePoliciesCommand,
  ListRolesCommand,
  PutRolePolicyCommand,
} from '@aws-sdk/client-iam';
import { CreateFunctionCommand, InvokeAsyncCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { CloudWatchLogsClient, FilterLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { DescribeEventBusCommand, DisableRuleCommand, DescribeRuleCommand, EnableRuleCommand, EventBridgeClient, PutRuleCommand } from '@aws-sdk/client-eventbridge';
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { DescribeParametersCommand, PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { GetSessionTokenCommand, STSClient } from '@aws-sdk/client-sts';
import { failure, settle, signatureShaped, startTestCloud, zip, type TestCloud } from './helpers';

// Operations serverless apps and their tests call beside the data path: reading a table's stream,
// creating IAM roles, publishing custom metrics, the old InvokeAsync. With SDK v3 clients.

const apis = suite<{ t: TestCloud }>('Serverless app APIs: DynamoDB Streams, IAM roles, custom metrics, InvokeAsync');

apis.before(async (context) => {
  context.t = await startTestCloud();
});
apis.after(async ({ t }) => {
  await t.stop();
});

const errorOf = async (promise: Promise<unknown>) => {
  const error = await failure(promise);
  return error && { name: error.name, message: error.message, status: error.$metadata?.httpStatusCode };
};

apis("the DynamoDB Streams API reads a stack table's stream: inserts, updates and deletes in order, iterators from any position", async ({ t }) => {
  const template = {
    Resources: {
      Orders: {
        Type: 'AWS::DynamoDB::Table',
        Properties: {
          TableName: 'orders',
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
          KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
          StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
        },
      },
    },
  };
  await t.cfn.send(new CreateStackCommand({ StackName: 'orders', TemplateBody: JSON.stringify(template) }));
  assert.is((await settle(t.cfn, 'orders')).StackStatus, 'CREATE_COMPLETE');
  const dynamodb = new DynamoDBClient({ ...t.config, maxAttempts: 1 });
  const streams = new DynamoDBStreamsClient({ ...t.config, maxAttempts: 1 });
  await dynamodb.send(new CreateTableCommand({ TableName: 'unstreamed', BillingMode: 'PAY_PER_REQUEST', AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }], KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }] }));
  await dynamodb.send(new PutItemCommand({ TableName: 'orders', Item: { id: { S: 'o1' }, total: { N: '5' } } }));
  await dynamodb.send(new UpdateItemCommand({ TableName: 'orders', Key: { id: { S: 'o1' } }, UpdateExpression: 'SET #t = :t', ExpressionAttributeNames: { '#t': 'total' }, ExpressionAttributeValues: { ':t': { N: '7' } } }));
  await dynamodb.send(new DeleteItemCommand({ TableName: 'orders', Key: { id: { S: 'o1' } } }));

  const { Streams } = await streams.send(new ListStreamsCommand({}));
  assert.equal(Streams!.map(({ TableName, StreamArn }) => [TableName, StreamArn!.startsWith('arn:aws:dynamodb:us-east-1:000000000000:table/orders/stream/')]), [['orders', true]]);
  const streamArn = Streams![0].StreamArn!;
  assert.equal((await streams.send(new ListStreamsCommand({ TableName: 'unstreamed' }))).Streams, []);
  const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
  assert.equal(
    { status: StreamDescription!.StreamStatus, view: StreamDescription!.StreamViewType, table: StreamDescription!.TableName, keys: StreamDescription!.KeySchema, shards: StreamDescription!.Shards!.length, label: StreamDescription!.StreamLabel },
    { status: 'ENABLED', view: 'NEW_AND_OLD_IMAGES', table: 'orders', keys: [{ AttributeName: 'id', KeyType: 'HASH' }], shards: 1, label: streamArn.split('/stream/')[1] },
  );
  const shardId = StreamDescription!.Shards![0].ShardId!;
  const iterator = async (type: 'TRIM_HORIZON' | 'LATEST' | 'AT_SEQUENCE_NUMBER' | 'AFTER_SEQUENCE_NUMBER', SequenceNumber?: string) =>
    (await streams.send(new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shardId, ShardIteratorType: type, SequenceNumber }))).ShardIterator!;
  const all = await streams.send(new GetRecordsCommand({ ShardIterator: await iterator('TRIM_HORIZON') }));
  assert.equal(
    all.Records!.map((record) => [record.eventName, record.eventSource, record.dynamodb!.Keys, record.dynamodb!.OldImage, record.dynamodb!.NewImage, record.dynamodb!.StreamViewType]),
    [
      ['INSERT', 'aws:dynamodb', { id: { S: 'o1' } }, undefined, { id: { S: 'o1' }, total: { N: '5' } }, 'NEW_AND_OLD_IMAGES'],
      ['MODIFY', 'aws:dynamodb', { id: { S: 'o1' } }, { id: { S: 'o1' }, total: { N: '5' } }, { id: { S: 'o1' }, total: { N: '7' } }, 'NEW_AND_OLD_IMAGES'],
      ['REMOVE', 'aws:dynamodb', { id: { S: 'o1' } }, { id: { S: 'o1' }, total: { N: '7' } }, undefined, 'NEW_AND_OLD_IMAGES'],
    ],
  );
  assert.ok(all.Records![0].dynamodb!.ApproximateCreationDateTime instanceof Date);
  const sequence = all.Records!.map((record) => record.dynamodb!.SequenceNumber!);
  const at = await streams.send(new GetRecordsCommand({ ShardIterator: await iterator('AT_SEQUENCE_NUMBER', sequence[1]), Limit: 1 }));
  assert.equal(at.Records!.map((record) => record.eventName), ['MODIFY']);
  const next = await streams.send(new GetRecordsCommand({ ShardIterator: at.NextShardIterator! }));
  assert.equal(next.Records!.map((record) => record.eventName), ['REMOVE']);
  assert.equal((await streams.send(new GetRecordsCommand({ ShardIterator: await iterator('AFTER_SEQUENCE_NUMBER', sequence[0]) }))).Records!.map((record) => record.eventName), ['MODIFY', 'REMOVE']);
  // LATEST reads only what comes after it, through the iterator GetRecords hands back.
  const latest = await streams.send(new GetRecordsCommand({ ShardIterator: await iterator('LATEST') }));
  assert.equal(latest.Records, []);
  await dynamodb.send(new PutItemCommand({ TableName: 'orders', Item: { id: { S: 'o2' } } }));
  assert.equal((await streams.send(new GetRecordsCommand({ ShardIterator: latest.NextShardIterator! }))).Records!.map((record) => record.dynamodb!.Keys), [{ id: { S: 'o2' } }]);

  assert.equal(await errorOf(streams.send(new DescribeStreamCommand({ StreamArn: `${streamArn.split('/stream/')[0]}/stream/2020-01-01T00:00:00.000` }))), {
    name: 'ResourceNotFoundException',
    message: `Requested resource not found: Stream: ${streamArn.split('/stream/')[0]}/stream/2020-01-01T00:00:00.000 not found`,
    status: 400,
  });
  assert.equal(await errorOf(streams.send(new GetRecordsCommand({ ShardIterator: 'not-an-iterator' }))), { name: 'ValidationException', message: 'Invalid ShardIterator', status: 400 });
  dynamodb.destroy();
  streams.destroy();
});

apis('IAM roles: created, read, given inline and managed policies, refused deletion while they have any, deleted; a stack role is readable', async ({ t }) => {
  const iam = new IAMClient({ ...t.config, maxAttempts: 1 });
  const trust = JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }] });
  const { Role } = await iam.send(new CreateRoleCommand({ RoleName: 'worker', Path: '/app/', AssumeRolePolicyDocument: trust, Description: 'runs jobs', Tags: [{ Key: 'team', Value: 'data' }] }));
  assert.equal({ arn: Role!.Arn, name: Role!.RoleName, path: Role!.Path, id: /^AROA[A-Z2-7]{17}$/.test(Role!.RoleId!), trust: decodeURIComponent(Role!.AssumeRolePolicyDocument!), max: Role!.MaxSessionDuration }, { arn: 'arn:aws:iam::000000000000:role/app/worker', name: 'worker', path: '/app/', id: true, trust, max: 3600 });
  assert.equal(await errorOf(iam.send(new CreateRoleCommand({ RoleName: 'worker', AssumeRolePolicyDocument: trust }))), { name: 'EntityAlreadyExistsException', message: 'Role with name worker already exists.', status: 409 });
  assert.equal(await errorOf(iam.send(new CreateRoleCommand({ RoleName: 'broken', AssumeRolePolicyDocument: '{not json' }))), { name: 'MalformedPolicyDocumentException', message: 'This policy contains invalid Json', status: 400 });
  assert.equal((await iam.send(new GetRoleCommand({ RoleName: 'worker' }))).Role!.Tags, [{ Key: 'team', Value: 'data' }]);

  const policy = JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: 's3:GetObject', Resource: '*' }] });
  await iam.send(new PutRolePolicyCommand({ RoleName: 'worker', PolicyName: 'read', PolicyDocument: policy }));
  await iam.send(new AttachRolePolicyCommand({ RoleName: 'worker', PolicyArn: 'arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole' }));
  assert.equal(decodeURIComponent((await iam.send(new GetRolePolicyCommand({ RoleName: 'worker', PolicyName: 'read' }))).PolicyDocument!), policy);
  assert.equal((await iam.send(new ListRolePoliciesCommand({ RoleName: 'worker' }))).PolicyNames, ['read']);
  assert.equal((await iam.send(new ListAttachedRolePoliciesCommand({ RoleName: 'worker' }))).AttachedPolicies, [{ PolicyName: 'AWSLambdaBasicExecutionRole', PolicyArn: 'arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole' }]);
  assert.equal(await errorOf(iam.send(new DeleteRoleCommand({ RoleName: 'worker' }))), { name: 'DeleteConflictException', message: 'Cannot delete entity, must delete policies first.', status: 409 });
  await iam.send(new DeleteRolePolicyCommand({ RoleName: 'worker', PolicyName: 'read' }));
  assert.equal(await errorOf(iam.send(new DeleteRoleCommand({ RoleName: 'worker' }))), { name: 'DeleteConflictException', message: 'Cannot delete entity, must detach all policies first.', status: 409 });
  await iam.send(new DetachRolePolicyCommand({ RoleName: 'worker', PolicyArn: 'arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole' }));
  await iam.send(new DeleteRoleCommand({ RoleName: 'worker' }));
  assert.equal(await errorOf(iam.send(new GetRoleCommand({ RoleName: 'worker' }))), { name: 'NoSuchEntityException', message: 'The role with name worker cannot be found.', status: 404 });

  const template = { Resources: { FnRole: { Type: 'AWS::IAM::Role', Properties: { RoleName: 'stack-fn-role', AssumeRolePolicyDocument: JSON.parse(trust), ManagedPolicyArns: ['arn:aws:iam::aws:policy/AWSXrayWriteOnlyAccess'] } } } };
  await t.cfn.send(new CreateStackCommand({ StackName: 'roles', TemplateBody: JSON.stringify(template), Capabilities: ['CAPABILITY_NAMED_IAM'] }));
  await settle(t.cfn, 'roles');
  const stackRole = (await iam.send(new GetRoleCommand({ RoleName: 'stack-fn-role' }))).Role!;
  assert.equal({ arn: stackRole.Arn, trust: JSON.parse(decodeURIComponent(stackRole.AssumeRolePolicyDocument!)) }, { arn: 'arn:aws:iam::000000000000:role/stack-fn-role', trust: JSON.parse(trust) });
  assert.equal((await iam.send(new ListRolesCommand({}))).Roles!.map((role) => role.RoleName), ['stack-fn-role']);
  assert.equal(await errorOf(iam.send(new DeleteRoleCommand({ RoleName: 'stack-fn-role' }))), {
    name: 'UnmodifiableEntityException',
    message: "not emulated: IAM DeleteRole of role stack-fn-role, which stack roles declares (change it in the stack's template)",
    status: 400,
  });
  iam.destroy();
});

apis('PutMetricData: published values are read back by GetMetricStatistics per dimensions, and listed by ListMetrics', async ({ t }) => {
  const cloudWatch = new CloudWatchClient({ ...t.config, maxAttempts: 1 });
  const now = new Date();
  const dimensions = [{ Name: 'Service', Value: 'checkout' }];
  await cloudWatch.send(
    new PutMetricDataCommand({
      Namespace: 'Shop',
      MetricData: [
        { MetricName: 'Orders', Dimensions: dimensions, Value: 3, Unit: 'Count', Timestamp: now },
        { MetricName: 'Orders', Dimensions: dimensions, Values: [1, 2], Counts: [2, 1], Unit: 'Count', Timestamp: now },
        { MetricName: 'Orders', Value: 100, Unit: 'Count', Timestamp: now },
      ],
    }),
  );
  const stats = await cloudWatch.send(
    new GetMetricStatisticsCommand({ Namespace: 'Shop', MetricName: 'Orders', Dimensions: dimensions, StartTime: new Date(now.getTime() - 60_000), EndTime: new Date(now.getTime() + 60_000), Period: 3600, Statistics: ['Sum', 'SampleCount', 'Maximum'] }),
  );
  assert.equal(stats.Datapoints!.map(({ Sum, SampleCount, Maximum, Unit }) => ({ Sum, SampleCount, Maximum, Unit })), [{ Sum: 7, SampleCount: 4, Maximum: 3, Unit: 'Count' }]);
  assert.equal((await cloudWatch.send(new ListMetricsCommand({ Namespace: 'Shop' }))).Metrics, [
    { Namespace: 'Shop', MetricName: 'Orders', Dimensions: dimensions },
    { Namespace: 'Shop', MetricName: 'Orders', Dimensions: [] },
  ]);
  assert.equal(await errorOf(cloudWatch.send(new PutMetricDataCommand({ Namespace: 'AWS/Lambda', MetricData: [{ MetricName: 'x', Value: 1 }] }))), {
    name: 'InvalidParameterValueException',
    message: 'The value AWS/ for parameter Namespace is invalid.',
    status: 400,
  });
  cloudWatch.destroy();
});

apis('InvokeAsync (the deprecated asynchronous invoke) runs the function and answers Status 202', async ({ t }) => {
  const lambda = new LambdaClient({ ...t.config, maxAttempts: 1 });
  const code = await zip({ 'index.js': 'exports.handler = async (event) => { console.log("ASYNC " + JSON.stringify(event)); };' });
  await lambda.send(new CreateFunctionCommand({ FunctionName: 'background', Runtime: 'nodejs20.x', Role: 'arn:aws:iam::000000000000:role/r', Handler: 'index.handler', Code: { ZipFile: code } }));
  const answer = await lambda.send(new InvokeAsyncCommand({ FunctionName: 'background', InvokeArgs: Buffer.from('{"job":7}') }));
  assert.equal({ status: answer.Status, http: answer.$metadata.httpStatusCode }, { status: 202, http: 202 });
  const logs = new CloudWatchLogsClient({ ...t.config, maxAttempts: 1 });
  let messages: string[] = [];
  for (const deadline = Date.now() + 15_000; Date.now() < deadline && messages.length === 0; await new Promise((resolve) => setTimeout(resolve, 50))) {
    const found = await failure(logs.send(new FilterLogEventsCommand({ logGroupName: '/aws/lambda/background', filterPattern: 'ASYNC' })).then((page) => (messages = page.events!.map((event) => event.message!.split('ASYNC ')[1].trim()))));
    if (found) messages = [];
  }
  assert.equal(messages, ['{"job":7}']);
  assert.equal(await errorOf(lambda.send(new InvokeAsyncCommand({ FunctionName: 'missing', InvokeArgs: Buffer.from('{}') }))), {
    name: 'ResourceNotFoundException',
    message: 'Function not found: arn:aws:lambda:us-east-1:000000000000:function:missing',
    status: 404,
  });
  logs.destroy();
  lambda.destroy();
});

apis('smaller calls apps make: STS GetSessionToken, SNS text messages, SSM DescribeParameters, EventBridge Enable/DisableRule and DescribeEventBus', async ({ t }) => {
  const sts = new STSClient({ ...t.config, maxAttempts: 1 });
  const { Credentials } = await sts.send(new GetSessionTokenCommand({ DurationSeconds: 900 }));
  assert.equal({ key: /^ASIA[A-Z2-7]{16}$/.test(Credentials!.AccessKeyId!), token: Credentials!.SessionToken!.length > 0, lasts: Math.round((Credentials!.Expiration!.getTime() - Date.now()) / 60_000) }, { key: true, token: true, lasts: 15 });
  const sns = new SNSClient({ ...t.config, maxAttempts: 1 });
  assert.match((await sns.send(new PublishCommand({ PhoneNumber: '+15555550100', Message: 'your code is 1234' }))).MessageId!, /^[0-9a-f-]{36}$/);
  assert.equal(await errorOf(sns.send(new PublishCommand({ PhoneNumber: '555', Message: 'x' }))), { name: 'InvalidParameterException', message: 'Invalid parameter: PhoneNumber Reason: 555 is not valid to publish to', status: 400 });
  const ssm = new SSMClient({ ...t.config, maxAttempts: 1 });
  for (const [Name, Type] of [['/svc/db/host', 'String'], ['/svc/db/password', 'SecureString'], ['/svc/flag', 'String'], ['/other', 'String']]) await ssm.send(new PutParameterCommand({ Name, Value: 'v', Type: Type as 'String' }));
  const described = await ssm.send(new DescribeParametersCommand({ ParameterFilters: [{ Key: 'Path', Option: 'Recursive', Values: ['/svc'] }] }));
  assert.equal(described.Parameters!.map(({ Name, Type, Version }) => [Name, Type, Version]), [['/svc/db/host', 'String', 1], ['/svc/db/password', 'SecureString', 1], ['/svc/flag', 'String', 1]]);
  assert.equal((await ssm.send(new DescribeParametersCommand({ ParameterFilters: [{ Key: 'Type', Values: ['SecureString'] }] }))).Parameters!.map((parameter) => parameter.Name), ['/svc/db/password']);
  const paged = await ssm.send(new DescribeParametersCommand({ MaxResults: 3 }));
  assert.equal([paged.Parameters!.length, (await ssm.send(new DescribeParametersCommand({ MaxResults: 3, NextToken: paged.NextToken }))).Parameters!.map((parameter) => parameter.Name)], [3, ['/svc/flag']]);
  const events = new EventBridgeClient({ ...t.config, maxAttempts: 1 });
  await events.send(new PutRuleCommand({ Name: 'nightly', ScheduleExpression: 'rate(1 day)' }));
  await events.send(new DisableRuleCommand({ Name: 'nightly' }));
  assert.is((await events.send(new DescribeRuleCommand({ Name: 'nightly' }))).State, 'DISABLED');
  await events.send(new EnableRuleCommand({ Name: 'nightly' }));
  assert.is((await events.send(new DescribeRuleCommand({ Name: 'nightly' }))).State, 'ENABLED');
  assert.equal(await events.send(new DescribeEventBusCommand({})).then(({ Name, Arn }) => ({ Name, Arn })), { Name: 'default', Arn: 'arn:aws:events:us-east-1:000000000000:event-bus/default' });
  for (const client of [sts, sns, ssm, events]) client.destroy();
});

apis('a service the local cloud does not serve answers "not emulated: <Service> <Operation>" in its own protocol, never as S3', async ({ t }) => {
  const firehose = await fetch(t.cloud.url, { method: 'POST', headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'Firehose_20150804.PutRecord', ...signatureShaped('firehose') }, body: '{"DeliveryStreamName":"x","Record":{"Data":"eA=="}}' });
  assert.equal({ status: firehose.status, type: firehose.headers.get('x-amzn-errortype'), body: await firehose.json() }, {
    status: 400,
    type: 'UnknownOperationException',
    body: { __type: 'UnknownOperationException', message: 'not emulated: Firehose PutRecord', Message: 'not emulated: Firehose PutRecord' },
  });
  const rds = await fetch(t.cloud.url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...signatureShaped('rds') }, body: 'Action=DescribeDBInstances&Version=2014-10-31' });
  const text = (await rds.text()).replace(/<RequestId>[^<]*<\/RequestId>/, '');
  assert.equal({ status: rds.status, text }, { status: 400, text: '<ErrorResponse xmlns="https://rds.amazonaws.com/doc/"><Error><Type>Sender</Type><Code>InvalidAction</Code><Message>not emulated: RDS DescribeDBInstances</Message></Error></ErrorResponse>' });
  const route53 = await fetch(`${t.cloud.url}/2013-04-01/hostedzone`, { headers: signatureShaped('route53') });
  const route53Text = (await route53.text()).replace(/<RequestId>[^<]*<\/RequestId>/, '');
  assert.equal({ status: route53.status, text: route53Text }, { status: 400, text: '<ErrorResponse xmlns="https://route53.amazonaws.com/doc/"><Error><Type>Sender</Type><Code>InvalidAction</Code><Message>not emulated: Route 53 GET /2013-04-01/hostedzone</Message></Error></ErrorResponse>' });
  const v2 = await fetch(`${t.cloud.url}/v2/domainnames`, { headers: signatureShaped('apigateway') });
  assert.equal({ status: v2.status, body: ((await v2.json()) as { message: string }).message }, { status: 400, body: 'not emulated: API Gateway GET /v2/domainnames' });
});

apis('API Gateway v2 lists the HTTP APIs stacks made, with their routes, integrations and stages (how a test finds its API by name)', async ({ t }) => {
  const template = {
    Resources: {
      HttpApi: { Type: 'AWS::ApiGatewayV2::Api', Properties: { Name: 'dev-orders', ProtocolType: 'HTTP', CorsConfiguration: { AllowOrigins: ['*'] } } },
      HttpApiStage: { Type: 'AWS::ApiGatewayV2::Stage', Properties: { ApiId: { Ref: 'HttpApi' }, StageName: '$default', AutoDeploy: true } },
      HttpApiIntegrationList: { Type: 'AWS::ApiGatewayV2::Integration', Properties: { ApiId: { Ref: 'HttpApi' }, IntegrationType: 'AWS_PROXY', IntegrationUri: 'arn:aws:lambda:us-east-1:000000000000:function:orders-dev-list', PayloadFormatVersion: '2.0' } },
      HttpApiRouteGetOrders: { Type: 'AWS::ApiGatewayV2::Route', Properties: { ApiId: { Ref: 'HttpApi' }, RouteKey: 'GET /orders', Target: { 'Fn::Join': ['/', ['integrations', { Ref: 'HttpApiIntegrationList' }]] } } },
    },
  };
  await t.cfn.send(new CreateStackCommand({ StackName: 'orders-api', TemplateBody: JSON.stringify(template) }));
  assert.is((await settle(t.cfn, 'orders-api')).StackStatus, 'CREATE_COMPLETE');
  const v2 = new ApiGatewayV2Client({ ...t.config, maxAttempts: 1 });
  const { Items } = await v2.send(new GetApisCommand({}));
  const found = Items!.find((item) => item.Name === 'dev-orders')!;
  assert.equal({ ...found, ApiId: 'id', CreatedDate: typeof found.CreatedDate }, {
    ApiId: 'id',
    Name: 'dev-orders',
    ProtocolType: 'HTTP',
    ApiEndpoint: `https://${found.ApiId}.execute-api.us-east-1.amazonaws.com`,
    ApiKeySelectionExpression: '$request.header.x-api-key',
    RouteSelectionExpression: '$request.method $request.path',
    CreatedDate: 'object',
    DisableExecuteApiEndpoint: false,
    Tags: {},
    CorsConfiguration: { AllowOrigins: ['*'] },
  });
  assert.is((await v2.send(new GetApiCommand({ ApiId: found.ApiId }))).Name, 'dev-orders');
  const integrations = (await v2.send(new GetIntegrationsCommand({ ApiId: found.ApiId }))).Items!;
  assert.equal(integrations.map(({ IntegrationType, IntegrationUri, PayloadFormatVersion }) => ({ IntegrationType, IntegrationUri, PayloadFormatVersion })), [{ IntegrationType: 'AWS_PROXY', IntegrationUri: 'arn:aws:lambda:us-east-1:000000000000:function:orders-dev-list', PayloadFormatVersion: '2.0' }]);
  const routes = (await v2.send(new GetRoutesCommand({ ApiId: found.ApiId }))).Items!;
  assert.equal(routes.map(({ RouteKey, Target, AuthorizationType, ApiKeyRequired }) => ({ RouteKey, Target, AuthorizationType, ApiKeyRequired })), [{ RouteKey: 'GET /orders', Target: `integrations/${integrations[0].IntegrationId}`, AuthorizationType: 'NONE', ApiKeyRequired: false }]);
  assert.is((await v2.send(new GetRouteCommand({ ApiId: found.ApiId, RouteId: routes[0].RouteId }))).RouteKey, 'GET /orders');
  assert.equal((await v2.send(new GetStagesCommand({ ApiId: found.ApiId }))).Items!.map(({ StageName, AutoDeploy }) => ({ StageName, AutoDeploy })), [{ StageName: '$default', AutoDeploy: true }]);
  assert.equal(await errorOf(v2.send(new GetApiCommand({ ApiId: 'nope123' }))), { name: 'NotFoundException', message: 'Invalid API identifier specified nope123', status: 404 });
  v2.destroy();
});

apis.run();
