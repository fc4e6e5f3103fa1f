import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { CloudWatchLogsClient, FilterLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { GetFunctionCommand, InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { failure, outputsOf, settle, startTestCloud, zip, type TestCloud } from './helpers';

interface Context {
  t: TestCloud;
  lambda: LambdaClient;
  logs: CloudWatchLogsClient;
  outputs: Record<string, string>;
}

const HANDLERS: Record<string, string> = {
  'src/api.js': `
    exports.hello = async (event, context) => {
      console.log('hello log', event.rawPath || event.path);
      return { statusCode: 200, headers: { 'x-from': 'fn' }, body: JSON.stringify({
        version: event.version || '1.0', params: event.pathParameters, path: event.rawPath || event.path,
        resource: event.resource, routeKey: event.routeKey, fn: context.functionName, greeting: process.env.GREETING,
        query: event.queryStringParameters, body: event.body, remaining: context.getRemainingTimeInMillis() > 0 }) };
    };`,
  'callback.js': `exports.handler = (event, context, callback) => { setTimeout(() => callback(null, { style: 'callback', got: event }), 5); };`,
  'text.js': `exports.handler = async (event) => (event.nothing ? undefined : { text: 'line\\nbreak \\u0001 \\u2028 é', got: event });`,
  'esm.mjs': `export const handler = async (event) => ({ style: 'esm', got: event });`,
  'slow.js': `exports.handler = () => new Promise((resolve) => setTimeout(resolve, 10000));`,
  'fails.js': `exports.handler = async () => { console.error('about to fail'); throw new TypeError('bad thing'); };`,
  'upload.js': `exports.handler = async (event) => { const r = event.Records[0]; console.log('UPLOADED ' + r.eventName + ' ' + r.s3.bucket.name + '/' + r.s3.object.key + ' ' + r.s3.object.size); };`,
  'esm-pkg/package.json': '{"type":"module"}',
  'esm-pkg/index.js': `export const handler = async () => 'esm from a type:module package';`,
  'py_handler.py': `def hello(event, context):\n    print('python says hi')\n    return {'got': event, 'name': context.function_name}\n`,
};

const fnArn = (logicalId: string) => ({ 'Fn::GetAtt': [logicalId, 'Arn'] });

function lambdaFunction(name: string, handler: string, extra: Record<string, unknown> = {}) {
  return {
    Type: 'AWS::Lambda::Function',
    Properties: {
      Code: { S3Bucket: 'deploys', S3Key: 'serverless/app/dev/1700000000000-2023-11-14T22:13:20.000Z/app.zip' },
      Handler: handler,
      Runtime: 'nodejs20.x',
      FunctionName: `app-dev-${name}`,
      MemorySize: 256,
      Timeout: 6,
      Role: fnArn('IamRoleLambdaExecution'),
      Environment: { Variables: { GREETING: 'hi there' } },
      ...extra,
    },
    DependsOn: [`${name[0].toUpperCase()}${name.slice(1)}LogGroup`],
  };
}

const logGroup = (name: string) => ({ Type: 'AWS::Logs::LogGroup', Properties: { LogGroupName: `/aws/lambda/app-dev-${name}` } });
const invocationsUri = (logicalId: string) => ({
  'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':apigateway:', { Ref: 'AWS::Region' }, ':lambda:path/2015-03-31/functions/', fnArn(logicalId), '/invocations']],
});

/** The shape of template Serverless Framework v3 generates for these events. */
const template = {
  AWSTemplateFormatVersion: '2010-09-09',
  Resources: {
    IamRoleLambdaExecution: { Type: 'AWS::IAM::Role', Properties: { AssumeRolePolicyDocument: {}, RoleName: { 'Fn::Join': ['-', ['app', 'dev', { Ref: 'AWS::Region' }, 'lambdaRole']] } } },
    HelloLogGroup: logGroup('hello'),
    CallbackLogGroup: logGroup('callback'),
    EsmLogGroup: logGroup('esm'),
    TextLogGroup: logGroup('text'),
    SlowLogGroup: logGroup('slow'),
    FailsLogGroup: logGroup('fails'),
    UploadLogGroup: logGroup('upload'),
    HelloLambdaFunction: lambdaFunction('hello', 'src/api.hello'),
    CallbackLambdaFunction: lambdaFunction('callback', 'callback.handler'),
    EsmLambdaFunction: lambdaFunction('esm', 'esm.handler'),
    TextLambdaFunction: lambdaFunction('text', 'text.handler'),
    SlowLambdaFunction: lambdaFunction('slow', 'slow.handler', { Timeout: 1 }),
    FailsLambdaFunction: lambdaFunction('fails', 'fails.handler'),
    UploadLambdaFunction: lambdaFunction('upload', 'upload.handler'),
    HelloLambdaVersionAbc: { Type: 'AWS::Lambda::Version', DeletionPolicy: 'Retain', Properties: { FunctionName: { Ref: 'HelloLambdaFunction' }, CodeSha256: 'x' } },
    HelloLambdaFunctionUrl: { Type: 'AWS::Lambda::Url', Properties: { AuthType: 'NONE', TargetFunctionArn: fnArn('HelloLambdaFunction') } },
    HttpApi: { Type: 'AWS::ApiGatewayV2::Api', Properties: { Name: 'dev-app', ProtocolType: 'HTTP', CorsConfiguration: { AllowOrigins: ['*'], AllowHeaders: ['Content-Type'], AllowMethods: ['GET', 'POST'], MaxAge: 60 } } },
    HttpApiStage: { Type: 'AWS::ApiGatewayV2::Stage', Properties: { ApiId: { Ref: 'HttpApi' }, StageName: '$default', AutoDeploy: true } },
    HttpApiIntegrationHello: { Type: 'AWS::ApiGatewayV2::Integration', Properties: { ApiId: { Ref: 'HttpApi' }, IntegrationType: 'AWS_PROXY', IntegrationUri: fnArn('HelloLambdaFunction'), PayloadFormatVersion: '2.0' } },
    HttpApiRouteGetUsersIdVar: { Type: 'AWS::ApiGatewayV2::Route', Properties: { ApiId: { Ref: 'HttpApi' }, RouteKey: 'GET /users/{id}', Target: { 'Fn::Join': ['/', ['integrations', { Ref: 'HttpApiIntegrationHello' }]] } }, DependsOn: 'HttpApiIntegrationHello' },
    HttpApiRoutePostUsers: { Type: 'AWS::ApiGatewayV2::Route', Properties: { ApiId: { Ref: 'HttpApi' }, RouteKey: 'POST /users', Target: { 'Fn::Join': ['/', ['integrations', { Ref: 'HttpApiIntegrationHello' }]] } }, DependsOn: 'HttpApiIntegrationHello' },
    ApiGatewayRestApi: { Type: 'AWS::ApiGateway::RestApi', Properties: { Name: 'dev-app', EndpointConfiguration: { Types: ['EDGE'] } } },
    ApiGatewayResourceItems: { Type: 'AWS::ApiGateway::Resource', Properties: { ParentId: { 'Fn::GetAtt': ['ApiGatewayRestApi', 'RootResourceId'] }, PathPart: 'items', RestApiId: { Ref: 'ApiGatewayRestApi' } } },
    ApiGatewayResourceItemsIdVar: { Type: 'AWS::ApiGateway::Resource', Properties: { ParentId: { Ref: 'ApiGatewayResourceItems' }, PathPart: '{id}', RestApiId: { Ref: 'ApiGatewayRestApi' } } },
    ApiGatewayMethodItemsIdVarGet: {
      Type: 'AWS::ApiGateway::Method',
      Properties: { HttpMethod: 'GET', RequestParameters: {}, ResourceId: { Ref: 'ApiGatewayResourceItemsIdVar' }, RestApiId: { Ref: 'ApiGatewayRestApi' }, ApiKeyRequired: false, AuthorizationType: 'NONE', Integration: { IntegrationHttpMethod: 'POST', Type: 'AWS_PROXY', Uri: invocationsUri('HelloLambdaFunction') }, MethodResponses: [] },
    },
    ApiGatewayMethodItemsIdVarOptions: {
      Type: 'AWS::ApiGateway::Method',
      Properties: {
        AuthorizationType: 'NONE', HttpMethod: 'OPTIONS', ResourceId: { Ref: 'ApiGatewayResourceItemsIdVar' }, RestApiId: { Ref: 'ApiGatewayRestApi' },
        MethodResponses: [{ StatusCode: '200', ResponseParameters: { 'method.response.header.Access-Control-Allow-Origin': true } }],
        Integration: { Type: 'MOCK', RequestTemplates: { 'application/json': '{statusCode:200}' }, IntegrationResponses: [{ StatusCode: '200', ResponseParameters: { 'method.response.header.Access-Control-Allow-Origin': "'*'", 'method.response.header.Access-Control-Allow-Methods': "'OPTIONS,GET'" }, ResponseTemplates: { 'application/json': '' } }] },
      },
    },
    EsmpkgLambdaFunction: lambdaFunction('esmpkg', 'esm-pkg/index.handler'),
    EsmpkgLogGroup: logGroup('esmpkg'),
    ApiGatewayDeployment1700000000000: { Type: 'AWS::ApiGateway::Deployment', Properties: { RestApiId: { Ref: 'ApiGatewayRestApi' }, StageName: 'dev' }, DependsOn: ['ApiGatewayMethodItemsIdVarGet'] },
    HelloLambdaPermissionApiGateway: { Type: 'AWS::Lambda::Permission', Properties: { FunctionName: fnArn('HelloLambdaFunction'), Action: 'lambda:InvokeFunction', Principal: 'apigateway.amazonaws.com' } },
    UploadLambdaPermissionPhotosS3: { Type: 'AWS::Lambda::Permission', Properties: { FunctionName: fnArn('UploadLambdaFunction'), Action: 'lambda:InvokeFunction', Principal: 's3.amazonaws.com' } },
    S3BucketPhotos: {
      Type: 'AWS::S3::Bucket',
      Properties: { BucketName: 'app-photos', NotificationConfiguration: { LambdaConfigurations: [{ Event: 's3:ObjectCreated:*', Function: fnArn('UploadLambdaFunction'), Filter: { S3Key: { Rules: [{ Name: 'suffix', Value: '.jpg' }] } } }] } },
      DependsOn: ['UploadLambdaPermissionPhotosS3'],
    },
  },
  Outputs: {
    HttpApiUrl: { Value: { 'Fn::Join': ['', ['https://', { Ref: 'HttpApi' }, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }]] } },
    ServiceEndpoint: { Value: { 'Fn::Join': ['', ['https://', { Ref: 'ApiGatewayRestApi' }, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }, '/dev']] } },
    HelloLambdaFunctionUrl: { Value: { 'Fn::GetAtt': ['HelloLambdaFunctionUrl', 'FunctionUrl'] } },
    HelloLambdaFunctionQualifiedArn: { Value: { Ref: 'HelloLambdaVersionAbc' } },
  },
};

const fns = suite<Context>('local functions, HTTP and REST APIs');

fns.before(async (context) => {
  context.t = await startTestCloud();
  context.lambda = new LambdaClient({ ...context.t.config, maxAttempts: 1 });
  context.logs = new CloudWatchLogsClient({ ...context.t.config, maxAttempts: 1 });
  await context.t.s3.send(new CreateBucketCommand({ Bucket: 'deploys' }));
  await context.t.s3.send(new PutObjectCommand({ Bucket: 'deploys', Key: template.Resources.HelloLambdaFunction.Properties.Code.S3Key, Body: await zip(HANDLERS) }));
  await context.t.cfn.send(new CreateStackCommand({ StackName: 'app-dev', TemplateBody: JSON.stringify(template), Capabilities: ['CAPABILITY_NAMED_IAM'] }));
  const stack = await settle(context.t.cfn, 'app-dev');
  assert.is(stack.StackStatus, 'CREATE_COMPLETE', stack.StackStatusReason);
  context.outputs = outputsOf(stack);
});

fns.after(async (context) => {
  context.lambda.destroy();
  context.logs.destroy();
  await context.t.stop();
});

fns('stack outputs point at URLs that answer locally', ({ t, outputs }) => {
  const base = t.cloud.url.replace(/[.]/g, '\\.');
  assert.match(outputs.HttpApiUrl, new RegExp(`^${base}/_fw/execute-api/[a-z0-9]{10}$`));
  assert.match(outputs.ServiceEndpoint, new RegExp(`^${base}/_fw/execute-api/[a-z0-9]{10}/dev$`));
  assert.match(outputs.HelloLambdaFunctionUrl, new RegExp(`^${base}/_fw/lambda-url/[a-z0-9]{32}/$`));
  assert.is(outputs.HelloLambdaFunctionQualifiedArn, 'arn:aws:lambda:us-east-1:000000000000:function:app-dev-hello:1');
});

fns('an HTTP API route invokes the handler with payload 2.0 and path parameters', async ({ outputs }) => {
  const response = await fetch(`${outputs.HttpApiUrl}/users/42?x=1`);
  assert.is(response.status, 200);
  assert.is(response.headers.get('x-from'), 'fn');
  const body = await response.json();
  assert.equal(body, { version: '2.0', params: { id: '42' }, path: '/users/42', routeKey: 'GET /users/{id}', fn: 'app-dev-hello', greeting: 'hi there', query: { x: '1' }, remaining: true });
  const posted = await fetch(`${outputs.HttpApiUrl}/users`, { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
  assert.equal(((await posted.json()) as { body: string }).body, '{"a":1}');
  const missing = await fetch(`${outputs.HttpApiUrl}/nothing`);
  assert.is(missing.status, 404);
  assert.equal(await missing.json(), { message: 'Not Found' });
});

fns('a REST API route invokes the handler with proxy payload 1.0 and path parameters', async ({ outputs }) => {
  const response = await fetch(`${outputs.ServiceEndpoint}/items/abc`);
  assert.is(response.status, 200);
  const body = await response.json();
  assert.equal(body, { version: '1.0', params: { id: 'abc' }, path: '/items/abc', resource: '/items/{id}', fn: 'app-dev-hello', greeting: 'hi there', query: null, body: null, remaining: true });
  const missing = await fetch(`${outputs.ServiceEndpoint}/other`);
  assert.is(missing.status, 403);
});

fns('CORS: the HTTP API answers preflights and the REST API its MOCK OPTIONS method', async ({ outputs }) => {
  const preflight = await fetch(`${outputs.HttpApiUrl}/users/1`, { method: 'OPTIONS', headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'GET' } });
  assert.is(preflight.status, 204);
  assert.equal(
    ['access-control-allow-origin', 'access-control-allow-methods', 'access-control-allow-headers', 'access-control-max-age'].map((name) => preflight.headers.get(name)),
    ['*', 'GET,POST', 'Content-Type', '60'],
  );
  const simple = await fetch(`${outputs.HttpApiUrl}/users/1`, { headers: { origin: 'http://localhost:3000' } });
  assert.is(simple.headers.get('access-control-allow-origin'), '*');
  const options = await fetch(`${outputs.ServiceEndpoint}/items/1`, { method: 'OPTIONS' });
  assert.is(options.status, 200);
  assert.equal([options.headers.get('access-control-allow-origin'), options.headers.get('access-control-allow-methods')], ['*', 'OPTIONS,GET']);
});

fns('a function URL invokes the handler', async ({ outputs }) => {
  const response = await fetch(`${outputs.HelloLambdaFunctionUrl}some/path`);
  assert.is(response.status, 200);
  assert.is(((await response.json()) as { path: string }).path, '/some/path');
});

fns('Invoke answers with the invocation\'s own request id: x-amzn-RequestId is the id the function ran under', async ({ lambda }) => {
  const invoked = await lambda.send(new InvokeCommand({ FunctionName: 'app-dev-callback', Payload: Buffer.from('{"n":3}'), LogType: 'Tail' }));
  const requestId = invoked.$metadata.requestId!;
  assert.match(requestId, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  const tail = Buffer.from(invoked.LogResult!, 'base64').toString();
  assert.equal(/START RequestId: (\S+)/.exec(tail)?.[1], requestId);
});

fns('Lambda Invoke runs callback-style and ESM handlers', async ({ lambda }) => {
  const decode = (payload?: Uint8Array) => JSON.parse(Buffer.from(payload!).toString());
  const callback = await lambda.send(new InvokeCommand({ FunctionName: 'app-dev-callback', Payload: Buffer.from('{"n":1}') }));
  assert.equal(decode(callback.Payload), { style: 'callback', got: { n: 1 } });
  const esm = await lambda.send(new InvokeCommand({ FunctionName: 'arn:aws:lambda:us-east-1:000000000000:function:app-dev-esm', Payload: Buffer.from('{"n":2}') }));
  assert.equal(decode(esm.Payload), { style: 'esm', got: { n: 2 } });
  const packaged = await lambda.send(new InvokeCommand({ FunctionName: 'app-dev-esmpkg' }));
  assert.is(decode(packaged.Payload), 'esm from a type:module package');
  const { Configuration } = await lambda.send(new GetFunctionCommand({ FunctionName: 'app-dev-hello' }));
  assert.equal([Configuration!.Handler, Configuration!.MemorySize, Configuration!.Timeout, Configuration!.Environment!.Variables], ['src/api.hello', 256, 6, { GREETING: 'hi there' }]);
  const missing = await failure(lambda.send(new GetFunctionCommand({ FunctionName: 'nope' })));
  assert.is(missing?.name, 'ResourceNotFoundException');
});

fns('a result reaches Invoke as the JSON text the function serialized, control characters and all; no result is null', async ({ lambda }) => {
  const text = await lambda.send(new InvokeCommand({ FunctionName: 'app-dev-text', Payload: Buffer.from('{"s":"a\\u0001b\\nc"}') }));
  assert.is(Buffer.from(text.Payload!).toString(), '{"text":"line\\nbreak \\u0001 \u2028 é","got":{"s":"a\\u0001b\\nc"}}');
  const nothing = await lambda.send(new InvokeCommand({ FunctionName: 'app-dev-text', Payload: Buffer.from('{"nothing":true}') }));
  assert.is(Buffer.from(nothing.Payload!).toString(), 'null');
});

fns('a handler that throws returns the error as AWS does, and it is logged', async ({ lambda, logs }) => {
  const result = await lambda.send(new InvokeCommand({ FunctionName: 'app-dev-fails', LogType: 'Tail' }));
  assert.is(result.FunctionError, 'Unhandled');
  const error = JSON.parse(Buffer.from(result.Payload!).toString());
  assert.equal([error.errorType, error.errorMessage], ['TypeError', 'bad thing']);
  const tail = Buffer.from(result.LogResult!, 'base64').toString();
  assert.match(tail, /ERROR\tabout to fail/);
  assert.match(tail, /ERROR\tInvoke Error/);
  const { events } = await logs.send(new FilterLogEventsCommand({ logGroupName: '/aws/lambda/app-dev-fails', filterPattern: '"bad thing"' }));
  assert.ok(events!.length >= 1);
});

fns('a function that overruns its timeout is stopped and reported', async ({ lambda }) => {
  const started = Date.now();
  const result = await lambda.send(new InvokeCommand({ FunctionName: 'app-dev-slow' }));
  const elapsed = Date.now() - started;
  assert.is(result.FunctionError, 'Unhandled');
  const error = JSON.parse(Buffer.from(result.Payload!).toString());
  assert.is(error.errorType, 'Sandbox.Timedout');
  assert.match(error.errorMessage, /Task timed out after 1\.00 seconds$/);
  assert.ok(elapsed >= 1000 && elapsed < 4000, `took ${elapsed} ms`);
});

fns('an S3 upload triggers the function named in the bucket notification', async ({ t, logs }) => {
  await t.s3.send(new PutObjectCommand({ Bucket: 'app-photos', Key: 'cats/tom.jpg', Body: 'jpeg bytes' }));
  await t.s3.send(new PutObjectCommand({ Bucket: 'app-photos', Key: 'notes.txt', Body: 'ignored: suffix filter' }));
  const deadline = Date.now() + 8000;
  let messages: string[] = [];
  while (Date.now() < deadline) {
    const { events } = await logs.send(new FilterLogEventsCommand({ logGroupName: '/aws/lambda/app-dev-upload', filterPattern: 'UPLOADED' }));
    messages = events!.map((event) => event.message!.split('\t').pop()!);
    if (messages.length > 0) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.equal(messages, ['UPLOADED ObjectCreated:Put app-photos/cats/tom.jpg 10']);
});

const python = spawnSync('python3', ['--version']).status === 0;
fns('a Python handler runs through python3', async ({ t, lambda }) => {
  if (!python) {
    console.log('  (skipped: python3 is not installed)');
    return;
  }
  await t.cfn.send(new CreateStackCommand({
    StackName: 'py',
    TemplateBody: JSON.stringify({ Resources: { PyLogGroup: logGroup('py'), PyLambdaFunction: { ...lambdaFunction('py', 'py_handler.hello', { Runtime: 'python3.12', Role: 'arn:aws:iam::000000000000:role/x' }) } } }),
  }));
  assert.is((await settle(t.cfn, 'py')).StackStatus, 'CREATE_COMPLETE');
  const result = await lambda.send(new InvokeCommand({ FunctionName: 'app-dev-py', Payload: Buffer.from('{"k":"v"}'), LogType: 'Tail' }));
  assert.equal(JSON.parse(Buffer.from(result.Payload!).toString()), { got: { k: 'v' }, name: 'app-dev-py' });
  assert.match(Buffer.from(result.LogResult!, 'base64').toString(), /python says hi/);
});

fns.run();
