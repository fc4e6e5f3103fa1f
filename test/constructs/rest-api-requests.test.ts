import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError } from '../../src/errors';
import type { ServiceConfig } from '../../src/constructs/model';
import { synth } from '../helpers/synth';

/** Templates compared here were written by serverless@3.40.0 for the same services (tmp services, `serverless package`). */
function errorOf(config: Partial<ServiceConfig>): string {
  try {
    synth(config);
  } catch (error) {
    assert.instance(error, ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

const uri = (fn: string) => ({
  'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':apigateway:', { Ref: 'AWS::Region' }, ':lambda:path/2015-03-31/functions/', { 'Fn::GetAtt': [`${fn}LambdaFunction`, 'Arn'] }, '/invocations']],
});
const api = { Ref: 'ApiGatewayRestApi' };

const validation = suite('RestApi request parameters, validator and models');

validation('a required parameter gives RequestParameters with its flag, and the API one validator named after the service', () => {
  const t = synth({
    service: 'my-svc',
    functions: {
      hello: {
        handler: 'h.hello',
        events: [{ http: { path: 'items/{id}', method: 'get', request: { parameters: { headers: { 'X-Sweep': true, mapped: { required: true, mappedValue: 'context.requestId' } }, querystrings: { q: true, r: { required: false } }, paths: { id: true } } } } }],
      },
    },
  });
  assert.equal(t.Resources.ApiGatewayMethodItemsIdVarGet, {
    Type: 'AWS::ApiGateway::Method',
    Properties: {
      HttpMethod: 'GET',
      RequestParameters: {
        'method.request.querystring.q': true,
        'method.request.querystring.r': false,
        'method.request.path.id': true,
        'method.request.header.X-Sweep': true,
        'method.request.header.mapped': true,
      },
      ResourceId: { Ref: 'ApiGatewayResourceItemsIdVar' },
      RestApiId: api,
      ApiKeyRequired: false,
      AuthorizationType: 'NONE',
      Integration: { IntegrationHttpMethod: 'POST', Type: 'AWS_PROXY', Uri: uri('Hello') },
      MethodResponses: [],
      RequestValidatorId: { Ref: 'ApiGatewayMysvcRequestValidator' },
    },
    DependsOn: ['HelloLambdaPermissionApiGateway'],
  });
  assert.equal(t.Resources.ApiGatewayMysvcRequestValidator, {
    Type: 'AWS::ApiGateway::RequestValidator',
    Properties: { RestApiId: api, ValidateRequestBody: true, ValidateRequestParameters: true, Name: 'my-svc-dev | Validate request body and querystring parameters' },
  });
});

validation('optional parameters only: no validator', () => {
  const t = synth({ functions: { hello: { handler: 'h.hello', events: [{ http: { path: 'a', method: 'get', request: { parameters: { headers: { x: false } } } } }] } } });
  assert.equal(Object.keys(t.Resources).filter(id => /Validator|Model$/.test(id)), []);
  assert.equal((t.Resources.ApiGatewayMethodAGet.Properties as Record<string, unknown>).RequestParameters, { 'method.request.header.x': false });
});

validation('schemas: a model per content type, a provider schema shared by key, one validator for all', () => {
  const t = synth({
    service: 'shop',
    provider: {
      name: 'aws',
      runtime: 'nodejs18.x',
      apiGateway: { request: { schemas: { 'post-create-model': { name: 'PostCreateModel', schema: { type: 'object', required: ['a'] }, description: 'A Model' }, unused: { schema: {} } } } },
    },
    functions: {
      hello: {
        handler: 'h.hello',
        events: [
          { http: { path: 'a', method: 'post', request: { schemas: { 'application/json': 'post-create-model' } } } },
          { http: { path: 'b/{id}', method: 'post', request: { schemas: { 'application/json': { schema: { type: 'object' }, name: 'BModel', description: 'b model' }, 'application/vnd.api+json': { type: 'string' } } } } },
          { http: { path: 'c', method: 'put', request: { schemas: { 'application/json': 'post-create-model' } } } },
        ],
      },
    },
  });
  assert.equal(
    Object.keys(t.Resources).filter(id => /Validator|Model$/.test(id)).sort(),
    ['ApiGatewayMethodBIdVarPostApplicationJsonModel', 'ApiGatewayMethodBIdVarPostApplicationVndApiJsonModel', 'ApiGatewayPostCreateModelModel', 'ApiGatewayShopRequestValidator'],
  );
  assert.equal(t.Resources.ApiGatewayPostCreateModelModel, {
    Type: 'AWS::ApiGateway::Model',
    Properties: { RestApiId: api, Schema: { type: 'object', required: ['a'] }, ContentType: 'application/json', Name: 'PostCreateModel', Description: 'A Model' },
  });
  assert.equal(t.Resources.ApiGatewayMethodBIdVarPostApplicationJsonModel, {
    Type: 'AWS::ApiGateway::Model',
    Properties: { RestApiId: api, ContentType: 'application/json', Schema: { type: 'object' }, Name: 'BModel', Description: 'b model' },
  });
  assert.equal(t.Resources.ApiGatewayMethodBIdVarPostApplicationVndApiJsonModel, {
    Type: 'AWS::ApiGateway::Model',
    Properties: { RestApiId: api, ContentType: 'application/vnd.api+json', Schema: { type: 'string' } },
  });
  const props = (id: string) => t.Resources[id].Properties as Record<string, unknown>;
  assert.equal(props('ApiGatewayMethodBIdVarPost').RequestModels, {
    'application/json': { Ref: 'ApiGatewayMethodBIdVarPostApplicationJsonModel' },
    'application/vnd.api+json': { Ref: 'ApiGatewayMethodBIdVarPostApplicationVndApiJsonModel' },
  });
  assert.equal([props('ApiGatewayMethodAPost').RequestModels, props('ApiGatewayMethodCPut').RequestModels], [
    { 'application/json': { Ref: 'ApiGatewayPostCreateModelModel' } },
    { 'application/json': { Ref: 'ApiGatewayPostCreateModelModel' } },
  ]);
  assert.equal(props('ApiGatewayMethodCPut').RequestValidatorId, { Ref: 'ApiGatewayShopRequestValidator' });
});

validation('a schema name that is neither a provider schema nor JSON is refused (v3 writes the name as the schema)', () => {
  assert.is(
    errorOf({ functions: { hello: { handler: 'h.hello', events: [{ http: { path: 'a', method: 'post', request: { schemas: { 'application/json': 'missing-model' } } } }] } } }),
    `Invalid configuration in 'functions.hello.events[0].http.request.schemas.application/json': "missing-model" is neither a schema of provider.apiGateway.request.schemas nor a JSON schema`,
  );
});

validation.run();

const cors = suite('RestApi CORS preflight origins');

const preflightTemplate = (t: ReturnType<typeof synth>, id: string) =>
  ((t.Resources[id].Properties as any).Integration.IntegrationResponses[0] as { ResponseParameters: Record<string, string>; ResponseTemplates: Record<string, string> });
const matching = (patterns: string[]) =>
  `#set($origin = $input.params("Origin"))\n#if($origin == "") #set($origin = $input.params("origin")) #end\n#if(${patterns.map(p => `$origin.matches("${p}")`).join(' || ')}) #set($context.responseOverride.header.Access-Control-Allow-Origin = $origin) #end`;

cors("origins (a list, even ['*'] or one) answer with the request's origin when it matches; origin and cors: true do not", () => {
  const t = synth({
    functions: {
      hello: {
        handler: 'h.hello',
        events: [
          { http: { path: 'a', method: 'post', cors: { origins: ['*'] } } },
          { http: { path: 'b', method: 'post', cors: { origins: ['https://a.example.com', 'https://*.b.example.com'] } } },
          { http: { path: 'c', method: 'post', cors: { origin: 'https://a.example.com' } } },
          { http: { path: 'd', method: 'post', cors: true } },
        ],
      },
    },
  });
  assert.equal(
    ['A', 'B', 'C', 'D'].map(p => {
      const response = preflightTemplate(t, `ApiGatewayMethod${p}Options`);
      return [response.ResponseParameters['method.response.header.Access-Control-Allow-Origin'], response.ResponseTemplates['application/json']];
    }),
    [
      ["'*'", matching(['.+'])],
      ["'https://a.example.com'", matching(['https://a[.]example[.]com', 'https://.+[.]b[.]example[.]com'])],
      ["'https://a.example.com'", ''],
      ["'*'", ''],
    ],
  );
});

cors("on one path, the origins an event names replace cors: true's '*', whichever comes first", () => {
  const t = synth({
    functions: {
      hello: {
        handler: 'h.hello',
        events: [
          { http: { path: 'a', method: 'post', cors: true } },
          { http: { path: 'a', method: 'get', cors: { origins: ['https://x.com'] } } },
          { http: { path: 'b', method: 'post', cors: { origins: ['https://x.com'] } } },
          { http: { path: 'b', method: 'get', cors: true } },
        ],
      },
    },
  });
  for (const id of ['ApiGatewayMethodAOptions', 'ApiGatewayMethodBOptions']) {
    const response = preflightTemplate(t, id);
    assert.equal([response.ResponseParameters['method.response.header.Access-Control-Allow-Origin'], response.ResponseTemplates['application/json']], ["'https://x.com'", matching(['https://x[.]com'])]);
  }
});

cors.run();

const settings = suite('RestApi and HttpApi settings v3 refuses or writes its own way');

settings('an http authorizer may name a function declared after the one using it', () => {
  const t = synth({
    functions: {
      hello: { handler: 'h.hello', events: [{ http: { path: 'a', method: 'get', authorizer: 'auth' } }, { http: { path: 'b', method: 'get', authorizer: { name: 'auth', resultTtlInSeconds: 0 } } }] },
      auth: { handler: 'h.auth' },
    },
  });
  assert.equal(t.Resources.AuthApiGatewayAuthorizer, {
    Type: 'AWS::ApiGateway::Authorizer',
    Properties: { AuthorizerResultTtlInSeconds: 0, IdentitySource: 'method.request.header.Authorization', Name: 'auth', RestApiId: api, AuthorizerUri: uri('Auth'), Type: 'TOKEN' },
  });
  assert.equal(t.Resources.ApiGatewayMethodAGet.DependsOn, ['AuthApiGatewayAuthorizer']);
  assert.ok(t.Resources.AuthLambdaPermissionApiGateway);
});

settings('restApiResources naming a method path needs restApiId, as v3 (which cannot find the resource otherwise)', () => {
  assert.is(
    errorOf({
      provider: { name: 'aws', runtime: 'nodejs18.x', apiGateway: { restApiResources: { '/sweep': 'res01' } } },
      functions: { hello: { handler: 'h.hello', events: [{ http: { path: 'sweep', method: 'get' } }] } },
    }),
    `Invalid configuration in 'provider.apiGateway.restApiResources': "/sweep" (used by 'functions.hello.events[0].http') is a resource of an existing API, which needs provider.apiGateway.restApiId`,
  );
  const t = synth({
    provider: { name: 'aws', runtime: 'nodejs18.x', apiGateway: { restApiId: 'abc', restApiRootResourceId: 'root', restApiResources: { '/sweep': 'res01' } } },
    functions: { hello: { handler: 'h.hello', events: [{ http: { path: 'sweep', method: 'get' } }, { http: { path: 'sweep/x', method: 'get' } }] } },
  });
  assert.equal([(t.Resources.ApiGatewayMethodSweepGet.Properties as any).ResourceId, t.Resources.ApiGatewayResourceSweepX.Properties], [
    'res01',
    { ParentId: 'res01', PathPart: 'x', RestApiId: 'abc' },
  ]);
});

settings("httpApi.authorizer.id on the stack's own HTTP API is refused, as v3 refuses it", () => {
  assert.is(
    errorOf({ functions: { hello: { handler: 'h.hello', events: [{ httpApi: { path: '/a', method: 'GET', authorizer: { id: 'auth1' } } }] } } }),
    `Invalid configuration in 'functions.hello.events[0].httpApi.authorizer.id': an external authorizer ("auth1") needs an external API (provider.httpApi.id); this HTTP API is part of the stack`,
  );
});

settings('provider.logs.restApi.role is the RoleArn the account role custom resource sets', () => {
  const t = synth({
    provider: { name: 'aws', runtime: 'nodejs18.x', logs: { restApi: { role: 'arn:aws:iam::123456789012:role/mine' } } },
    functions: { hello: { handler: 'h.hello', events: [{ http: { path: 'a', method: 'get' } }] } },
  });
  assert.equal(t.Resources.CustomApiGatewayAccountCloudWatchRole, {
    Type: 'Custom::ApiGatewayAccountRole',
    Version: 1,
    Properties: { ServiceToken: { 'Fn::GetAtt': ['CustomDashresourceDashapigwDashcwDashroleLambdaFunction', 'Arn'] }, RoleArn: 'arn:aws:iam::123456789012:role/mine' },
  });
});

settings.run();

const lambda = suite('RestApi lambda (non-proxy) integration: request and response settings');

lambda('request.template adds to the default templates; response.statusCodes replace the default table, with response.headers on each', () => {
  const t = synth({
    functions: {
      hello: {
        handler: 'h.hello',
        events: [{
          http: {
            path: 'a', method: 'post', integration: 'lambda',
            request: { template: { 'text/xml': 'y' }, passThrough: 'WHEN_NO_TEMPLATES', contentHandling: 'CONVERT_TO_TEXT' },
            response: { headers: { 'X-Sweep': "'yes'" }, template: '$input.path("$")', contentHandling: 'CONVERT_TO_BINARY', statusCodes: { 201: { pattern: '' }, 409: { pattern: '.*conflict.*', template: 'x', headers: { 'X-A': "'b'" } } } },
          },
        }],
      },
    },
  });
  const properties = t.Resources.ApiGatewayMethodAPost.Properties as any;
  const { RequestTemplates, ...integration } = properties.Integration;
  assert.equal(Object.keys(RequestTemplates), ['application/json', 'application/x-www-form-urlencoded', 'text/xml']);
  assert.is(RequestTemplates['text/xml'], 'y');
  assert.equal(integration, {
    IntegrationHttpMethod: 'POST',
    Type: 'AWS',
    Uri: uri('Hello'),
    PassthroughBehavior: 'WHEN_NO_TEMPLATES',
    IntegrationResponses: [
      { StatusCode: '201', SelectionPattern: '', ResponseParameters: { 'method.response.header.X-Sweep': "'yes'" }, ResponseTemplates: { 'application/json': '$input.path("$")' }, ContentHandling: 'CONVERT_TO_BINARY' },
      { StatusCode: '409', SelectionPattern: '.*conflict.*', ResponseParameters: { 'method.response.header.X-Sweep': "'yes'", 'method.response.header.X-A': "'b'" }, ResponseTemplates: { 'application/json': 'x' } },
    ],
    ContentHandling: 'CONVERT_TO_TEXT',
  });
  assert.equal(properties.MethodResponses, [
    { ResponseParameters: { 'method.response.header.X-Sweep': true }, ResponseModels: {}, StatusCode: '201' },
    { ResponseParameters: { 'method.response.header.X-Sweep': true, 'method.response.header.X-A': true }, ResponseModels: {}, StatusCode: '409' },
  ]);
});

lambda.run();
