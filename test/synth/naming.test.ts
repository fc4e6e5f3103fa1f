import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as naming from '../../src/synth/naming';

const names = suite('naming');

names('normalizes function names as Serverless Framework v3 does', () => {
  assert.is(naming.normalizeName('upload-file_x'), 'UploadDashfileUnderscorex');
  assert.is(naming.lambdaFunction('hello'), 'HelloLambdaFunction');
  assert.is(naming.logGroup('say-hi'), 'SayDashhiLogGroup');
  assert.is(naming.lambdaVersion('hello', 'abc'), 'HelloLambdaVersionabc');
});

names('turns paths into logical-id parts, lower-casing each segment first', () => {
  assert.is(naming.pathToLogicalPart('/users/{id}'), 'UsersIdVar');
  assert.is(naming.pathToLogicalPart('my-path/{user_id}/sub.json'), 'MyDashpathUseridVarSubjson');
  assert.is(naming.pathToLogicalPart('/orgs/{orgId}/{proxy+}'), 'OrgsOrgidVarProxyVar');
  assert.is(naming.pathToLogicalPart('/'), '');
});

names('names HTTP API routes by method and path, with the default route apart', () => {
  assert.is(naming.httpApiRoute('GET /users/{id}'), 'HttpApiRouteGetUsersIdVar');
  assert.is(naming.httpApiRoute('* /any/{x}'), 'HttpApiRouteAnyAnyXVar');
  assert.is(naming.httpApiRoute('*'), 'HttpApiRouteDefault');
  assert.is(naming.httpApiRoute('GET /'), 'HttpApiRouteGet');
});

names('names REST resources, methods, authorizers and API keys', () => {
  assert.is(naming.restApiResource('users/{id}'), 'ApiGatewayResourceUsersIdVar');
  assert.is(naming.restApiMethod('users/{id}', 'get'), 'ApiGatewayMethodUsersIdVarGet');
  assert.is(naming.restApiMethod('', 'GET'), 'ApiGatewayMethodGet');
  assert.is(naming.restApiAuthorizer('1_ZZZ'), '1UnderscoreZZZApiGatewayAuthorizer');
  assert.is(naming.restApiKey(2, 'free'), 'ApiGatewayApiKeyFree2');
  assert.is(naming.restUsagePlanKey(1), 'ApiGatewayUsagePlanKey1');
});

names('exports outputs under the service and stage', () => {
  assert.is(naming.exportName('app', 'dev', 'HttpApiUrl'), 'sls-app-dev-HttpApiUrl');
});

names.run();
