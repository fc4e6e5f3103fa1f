import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError } from '../../../src/errors';
import type { ServiceConfig } from '../../../src/constructs/model';
import type { Template } from '../../../src/synth/template';
import { synth } from '../../helpers/synth';
import { ROLE_NAME, makeHandler, type Apis } from '../../../src/custom-resources/api-gateway-cloud-watch-role/handler';
import { responseUrl } from '../../helpers/response-url';

const websocket = suite('websocket event');

const invocationUri = (arn: unknown) => ({
  'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':apigateway:', { Ref: 'AWS::Region' }, ':lambda:path/2015-03-31/functions/', arn, '/invocations']],
});
const arn = (fn: string) => ({ 'Fn::GetAtt': [`${fn}LambdaFunction`, 'Arn'] });
const deploymentOf = (t: Template) => Object.keys(t.Resources).find(id => /^WebsocketsDeployment(?!Stage)/.test(id))!;
function errorOf(config: Partial<ServiceConfig>): string {
  try {
    synth(config);
  } catch (error) {
    assert.instance(error, ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

websocket('routes share one API; each function gets one integration and one permission', () => {
  const t = synth({
    functions: {
      connection: { handler: 'h.c', events: [{ websocket: '$connect' }, { websocket: { route: '$disconnect' } }] },
      hello: { handler: 'h.hello', events: [{ websocket: { route: 'say-hello', routeResponseSelectionExpression: '$default' } }] },
    },
  });
  assert.equal(t.Resources.WebsocketsApi, {
    Type: 'AWS::ApiGatewayV2::Api',
    Properties: { Name: 'dev-app-websockets', RouteSelectionExpression: '$request.body.action', Description: 'Serverless Websockets', ProtocolType: 'WEBSOCKET' },
  });
  assert.equal(t.Resources.ConnectionWebsocketsIntegration, {
    Type: 'AWS::ApiGatewayV2::Integration',
    Properties: { ApiId: { Ref: 'WebsocketsApi' }, IntegrationType: 'AWS_PROXY', IntegrationUri: invocationUri(arn('Connection')) },
  });
  assert.equal(t.Resources.ConnectionLambdaPermissionWebsockets, {
    Type: 'AWS::Lambda::Permission',
    DependsOn: ['WebsocketsApi', 'ConnectionLambdaFunction'],
    Properties: { FunctionName: arn('Connection'), Action: 'lambda:InvokeFunction', Principal: 'apigateway.amazonaws.com' },
  });
  assert.equal(t.Resources.SdisconnectWebsocketsRoute, {
    Type: 'AWS::ApiGatewayV2::Route',
    Properties: {
      ApiId: { Ref: 'WebsocketsApi' },
      RouteKey: '$disconnect',
      AuthorizationType: 'NONE',
      Target: { 'Fn::Join': ['/', ['integrations', { Ref: 'ConnectionWebsocketsIntegration' }]] },
    },
  });
  assert.equal(t.Resources.sayDashhelloWebsocketsRouteResponse, {
    Type: 'AWS::ApiGatewayV2::RouteResponse',
    Properties: { ApiId: { Ref: 'WebsocketsApi' }, RouteId: { Ref: 'sayDashhelloWebsocketsRoute' }, RouteResponseKey: '$default' },
  });
  const deployment = deploymentOf(t);
  assert.equal(t.Resources[deployment].DependsOn, [
    'SconnectWebsocketsRoute',
    'SdisconnectWebsocketsRoute',
    'sayDashhelloWebsocketsRouteResponse',
    'sayDashhelloWebsocketsRoute',
  ]);
  assert.equal((t.Resources.WebsocketsDeploymentStage.Properties as any).DeploymentId, { Ref: deployment });
  assert.equal(t.Outputs!.ServiceEndpointWebsocket.Value, {
    'Fn::Join': ['', ['wss://', { Ref: 'WebsocketsApi' }, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }, '/dev']],
  });
});

websocket('the deployment is named after a hash of the API, so it changes exactly when the API does', () => {
  const config = (route: string) => ({ functions: { f: { handler: 'h.f', events: [{ websocket: route }] } } });
  assert.is(deploymentOf(synth(config('$connect'))), deploymentOf(synth(config('$connect'))));
  assert.is.not(deploymentOf(synth(config('$connect'))), deploymentOf(synth(config('$default'))));
});

websocket('an authorizer function may be declared after the function using it', () => {
  const t = synth({
    functions: {
      connect: { handler: 'h.c', events: [{ websocket: { route: '$connect', authorizer: { name: 'auth', identitySource: 'route.request.querystring.Token' } } }] },
      auth: { handler: 'h.auth' },
    },
  });
  assert.equal(t.Resources.AuthWebsocketsAuthorizer, {
    Type: 'AWS::ApiGatewayV2::Authorizer',
    Properties: {
      ApiId: { Ref: 'WebsocketsApi' },
      Name: 'auth',
      AuthorizerType: 'REQUEST',
      AuthorizerUri: invocationUri(arn('Auth')),
      IdentitySource: ['route.request.querystring.Token'],
    },
  });
  assert.equal(t.Resources.AuthLambdaPermissionWebsockets, {
    Type: 'AWS::Lambda::Permission',
    DependsOn: ['WebsocketsApi', 'AuthLambdaFunction'],
    Properties: { Action: 'lambda:InvokeFunction', Principal: 'apigateway.amazonaws.com', FunctionName: arn('Auth') },
  });
  assert.equal((t.Resources.SconnectWebsocketsRoute.Properties as any).AuthorizerId, { Ref: 'AuthWebsocketsAuthorizer' });
});

websocket('an authorizer given by ARN is named after the ARN’s last part', () => {
  const t = synth({ functions: { c: { handler: 'h.c', events: [{ websocket: { route: '$connect', authorizer: 'arn:aws:lambda:us-east-1:1:function:auth' } }] } } });
  assert.equal((t.Resources.AuthWebsocketsAuthorizer.Properties as any).IdentitySource, ['route.request.header.Auth']);
  assert.equal(t.Resources.AuthLambdaPermissionWebsockets.DependsOn, ['WebsocketsApi']);
});

websocket('logs add the log group, stage settings and the account role custom resource', () => {
  const t = synth({
    provider: { name: 'aws', runtime: 'nodejs18.x', logs: { websocket: { level: 'ERROR', fullExecutionData: false } } } as ServiceConfig['provider'],
    functions: { f: { handler: 'h.f', events: [{ websocket: '$default' }] } },
  });
  assert.equal(t.Resources.WebsocketsLogGroup, { Type: 'AWS::Logs::LogGroup', Properties: { LogGroupName: '/aws/websocket/app-dev' } });
  assert.equal((t.Resources.WebsocketsDeploymentStage.Properties as any).DefaultRouteSettings, { DataTraceEnabled: false, LoggingLevel: 'ERROR' });
  assert.equal(t.Resources.CustomApiGatewayAccountCloudWatchRole, {
    Type: 'Custom::ApiGatewayAccountRole',
    Version: 1,
    Properties: { ServiceToken: { 'Fn::GetAtt': ['CustomDashresourceDashapigwDashcwDashroleLambdaFunction', 'Arn'] } },
  });
});

websocket('a route two functions claim invokes the last one, as Serverless v3 deploys it, and fw says so', () => {
  // serverless-offline@5.0.1's manual_test_websocket app (test/local/public-websocket-apps.test.ts) has such a route.
  const written: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string) => (written.push(String(chunk)), true)) as typeof process.stderr.write;
  let t: Template;
  try {
    t = synth({
      functions: {
        a: { handler: 'h.a', events: [{ websocket: { route: 'x', routeResponseSelectionExpression: '$default' } }] },
        b: { handler: 'h.b', events: [{ websocket: 'x' }] },
      },
    });
  } finally {
    process.stderr.write = write;
  }
  assert.equal(written, [
    `Warning: functions.b.events[0].websocket: the websocket route "x" is also handled by function "a" at 'functions.a.events[0].websocket.route'; an API has one route per key, so it invokes "b" only (as Serverless Framework v3 deploys it)\n`,
  ]);
  assert.equal(t.Resources.xWebsocketsRoute, {
    Type: 'AWS::ApiGatewayV2::Route',
    Properties: { ApiId: { Ref: 'WebsocketsApi' }, RouteKey: 'x', AuthorizationType: 'NONE', Target: { 'Fn::Join': ['/', ['integrations', { Ref: 'BWebsocketsIntegration' }]] } },
  });
  assert.equal(
    Object.keys(t.Resources).filter(id => /Websockets(Route|Integration|RouteResponse)$|LambdaPermissionWebsockets$/.test(id)).sort(),
    ['ALambdaPermissionWebsockets', 'AWebsocketsIntegration', 'BLambdaPermissionWebsockets', 'BWebsocketsIntegration', 'xWebsocketsRoute'],
  );
});

websocket('a route key that cannot name a logical id, or an authorizer off $connect is refused', () => {
  assert.match(errorOf({ functions: { a: { handler: 'h.a', events: [{ websocket: { route: 'a b' } }] } } }), `'functions.a.events[0].websocket.route'`);
  assert.match(
    errorOf({ functions: { a: { handler: 'h.a', events: [{ websocket: { route: 'foo', authorizer: 'arn:aws:lambda:us-east-1:1:function:auth' } }] } } }),
    `'functions.a.events[0].websocket.authorizer': API Gateway allows an authorizer on the $connect route only`,
  );
  assert.is(
    errorOf({ functions: { a: { handler: 'h.a', events: [{ websocket: { route: '$connect', authorizer: 'missing' } }] } } }),
    `Invalid configuration in 'functions.a.events[0].websocket.authorizer': no function named "missing" in this service to use as authorizer`,
  );
});

websocket('an API made elsewhere (provider.apiGateway.websocketApiId) gets routes and a deployment naming the stage, but no API or stage resource', () => {
  const t = synth({
    provider: { name: 'aws', runtime: 'nodejs18.x', apiGateway: { websocketApiId: 'abc123' } },
    functions: { f: { handler: 'h.f', events: [{ websocket: '$connect' }] } },
  });
  assert.equal(t.Resources.WebsocketsApi, undefined);
  assert.equal(t.Resources.WebsocketsDeploymentStage, undefined);
  assert.equal((t.Resources.SconnectWebsocketsRoute.Properties as any).ApiId, 'abc123');
  assert.equal(t.Resources.FLambdaPermissionWebsockets.DependsOn, ['FLambdaFunction']);
  assert.equal(t.Resources[deploymentOf(t)].Properties, { ApiId: 'abc123', Description: 'Serverless Websockets', StageName: 'dev' });
  // v3 hashes nothing for an API made elsewhere: the same id whatever the routes.
  assert.is(deploymentOf(t), 'WebsocketsDeploymentRBNvo1WzZ4oRRq0W9hknpT7T8If536DEMBg9hyq4o');
});

websocket.run();

const accountRole = suite('API Gateway account CloudWatch role custom resource');

function fakeAccount(current: string | undefined, failures = 0) {
  const calls: Array<[string, ...unknown[]]> = [];
  let left = failures;
  const apis: Apis = {
    accountRoleArn: async () => (calls.push(['accountRoleArn']), current),
    setAccountRoleArn: async arn => {
      calls.push(['setAccountRoleArn', arn]);
      if (left-- > 0) throw Object.assign(new Error('role not assumable yet'), { name: 'BadRequestException' });
    },
    ensureRole: async name => void calls.push(['ensureRole', name]),
    attachedPolicies: async name => (calls.push(['attachedPolicies', name]), []),
    attachPolicy: async (name, policy) => void calls.push(['attachPolicy', name, policy]),
    sleep: async () => undefined,
  };
  return { apis, calls };
}
const roleContext = { invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:app-dev-custom-resource-apigw-cw-role', logStreamName: 'stream' };
const roleEvent = (ResponseURL: string, ResourceProperties: Record<string, unknown> = {}) => ({
  RequestType: 'Create' as const,
  ResponseURL,
  StackId: 'stack',
  RequestId: 'request',
  LogicalResourceId: 'CustomApiGatewayAccountCloudWatchRole',
  ResourceProperties,
});

accountRole('without an account role, one is created with the push-to-logs policy and set, retrying while IAM propagates', async () => {
  const answer = await responseUrl();
  const { apis, calls } = fakeAccount(undefined, 2);
  try {
    await makeHandler(apis)(roleEvent(answer.url), roleContext);
    const roleArn = `arn:aws:iam::123456789012:role/${ROLE_NAME}`;
    assert.equal(calls, [
      ['accountRoleArn'],
      ['ensureRole', ROLE_NAME],
      ['attachedPolicies', ROLE_NAME],
      ['attachPolicy', ROLE_NAME, 'arn:aws:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs'],
      ['setAccountRoleArn', roleArn],
      ['setAccountRoleArn', roleArn],
      ['setAccountRoleArn', roleArn],
    ]);
    assert.is(answer.bodies[0].Status, 'SUCCESS');
  } finally {
    answer.close();
  }
});

accountRole('an account role already set is left alone', async () => {
  const answer = await responseUrl();
  const { apis, calls } = fakeAccount('arn:aws:iam::123456789012:role/theirs');
  try {
    await makeHandler(apis)(roleEvent(answer.url), roleContext);
    assert.equal(calls, [['accountRoleArn']]);
    assert.is(answer.bodies[0].Status, 'SUCCESS');
  } finally {
    answer.close();
  }
});

accountRole('a given RoleArn (provider.logs.restApi.role) is set on the account instead of a role fw creates', async () => {
  const answer = await responseUrl();
  const { apis, calls } = fakeAccount(undefined, 1);
  try {
    await makeHandler(apis)(roleEvent(answer.url, { RoleArn: 'arn:aws:iam::123456789012:role/mine' }), roleContext);
    assert.equal(calls, [['accountRoleArn'], ['setAccountRoleArn', 'arn:aws:iam::123456789012:role/mine'], ['setAccountRoleArn', 'arn:aws:iam::123456789012:role/mine']]);
    assert.is(answer.bodies[0].Status, 'SUCCESS');
  } finally {
    answer.close();
  }
});

accountRole.run();
