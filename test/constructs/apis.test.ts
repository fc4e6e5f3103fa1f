import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { synth } from '../helpers/synth';

const httpApi = suite('HttpApi');

httpApi('one integration and permission per function, one route per event', () => {
  const t = synth({ functions: { users: { handler: 'h.users', events: [{ httpApi: 'GET /users' }, { httpApi: 'POST /users' }] } } });
  const ids = Object.keys(t.Resources).filter(id => id.startsWith('HttpApi') || id.includes('Permission')).sort();
  assert.equal(ids, ['HttpApi', 'HttpApiIntegrationUsers', 'HttpApiRouteGetUsers', 'HttpApiRoutePostUsers', 'HttpApiStage', 'UsersLambdaPermissionHttpApi']);
  assert.equal(t.Resources.HttpApiRoutePostUsers, {
    Type: 'AWS::ApiGatewayV2::Route',
    Properties: { ApiId: { Ref: 'HttpApi' }, RouteKey: 'POST /users', Target: { 'Fn::Join': ['/', ['integrations', { Ref: 'HttpApiIntegrationUsers' }]] } },
    DependsOn: 'HttpApiIntegrationUsers',
  });
});

httpApi('cors: true allows the methods the routes use', () => {
  const t = synth({
    provider: { name: 'aws', httpApi: { cors: true } },
    functions: { a: { handler: 'h.a', events: [{ httpApi: 'GET /a' }, { httpApi: 'PUT /a' }] } },
  });
  assert.equal((t.Resources.HttpApi.Properties as any).CorsConfiguration.AllowMethods, ['OPTIONS', 'GET', 'PUT']);
});

httpApi('an unknown authorizer name is an error naming the event', () => {
  assert.throws(
    () => synth({ functions: { a: { handler: 'h.a', events: [{ httpApi: { method: 'GET', path: '/a', authorizer: { name: 'nope' } } }] } } }),
    (error: Error) => error.message === `Invalid configuration in 'functions.a.events[0].httpApi.authorizer.name': no authorizer named "nope" under provider.httpApi.authorizers`,
  );
});

httpApi.run();

const restApi = suite('RestApi');

restApi('path resources are shared by every function and created once per segment', () => {
  const t = synth({
    functions: {
      a: { handler: 'h.a', events: [{ http: 'GET users/{id}' }] },
      b: { handler: 'h.b', events: [{ http: 'POST users' }] },
    },
  });
  assert.equal(Object.keys(t.Resources).filter(id => id.startsWith('ApiGatewayResource')), ['ApiGatewayResourceUsers', 'ApiGatewayResourceUsersIdVar']);
  assert.equal(t.Resources.ApiGatewayResourceUsersIdVar.Properties, { ParentId: { Ref: 'ApiGatewayResourceUsers' }, PathPart: '{id}', RestApiId: { Ref: 'ApiGatewayRestApi' } });
});

restApi('the deployment follows every method, preflights first', () => {
  const t = synth({ functions: { a: { handler: 'h.a', events: [{ http: 'GET a' }, { http: { path: 'b', method: 'post', cors: true } }] } } });
  assert.equal(t.Resources.ApiGatewayDeployment1704067200000, {
    Type: 'AWS::ApiGateway::Deployment',
    Properties: { RestApiId: { Ref: 'ApiGatewayRestApi' }, StageName: 'dev' },
    DependsOn: ['ApiGatewayMethodBOptions', 'ApiGatewayMethodAGet', 'ApiGatewayMethodBPost'],
  });
});

restApi('an authorizer naming a function that does not exist is an error', () => {
  assert.throws(
    () => synth({ functions: { a: { handler: 'h.a', events: [{ http: { path: 'a', method: 'get', authorizer: 'missing' } }] } } }),
    (error: Error) => error.message === `Invalid configuration in 'functions.a.events[0].http.authorizer': no function named "missing" in this service to use as authorizer`,
  );
});

restApi('VPC endpoint ids go to a private API only, as the reference writes them', () => {
  const http = { hello: { handler: 'h.main', events: [{ http: 'GET /x' }] } };
  const endpoint = (endpointType: string) =>
    (synth({ provider: { name: 'aws', runtime: 'nodejs18.x', endpointType, vpcEndpointIds: ['vpce-123'] }, functions: http }).Resources.ApiGatewayRestApi.Properties as Record<string, unknown>)
      .EndpointConfiguration;
  assert.equal(endpoint('PRIVATE'), { Types: ['PRIVATE'], VpcEndpointIds: ['vpce-123'] });
  assert.equal(endpoint('REGIONAL'), { Types: ['REGIONAL'] });
});

restApi.run();

const role = suite('ExecutionRole and DeploymentBucket');

role('the shared role is left out when every function has its own', () => {
  const t = synth({ functions: { a: { handler: 'h.a', role: 'arn:aws:iam::1:role/r' } } });
  assert.is(t.Resources.IamRoleLambdaExecution, undefined);
});

role('a named deployment bucket replaces the generated one', () => {
  const t = synth({ provider: { name: 'aws', deploymentBucket: { name: 'my-bucket' } }, functions: { a: { handler: 'h.a' } } });
  assert.is(t.Resources.ServerlessDeploymentBucket, undefined);
  assert.equal((t.Resources.ALambdaFunction.Properties as any).Code.S3Bucket, 'my-bucket');
  assert.equal(t.Outputs!.ServerlessDeploymentBucketName, { Value: 'my-bucket', Export: { Name: 'sls-app-dev-ServerlessDeploymentBucketName' } });
});

role.run();
