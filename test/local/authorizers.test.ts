import { createHash, createHmac, createSign, generateKeyPairSync, type Hash, type Hmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { CloudWatchLogsClient, FilterLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { SignatureV4 } from '@smithy/signature-v4';
import { runFw } from '../helpers/cli';
import { ANY_LOCAL_CREDENTIALS } from '../../src/local/access/credentials';
import { signedLocalFetch } from '../../src/local/access/sign';
import { verifySigV4 } from '../../src/local/gateway/sigv4';
import { outputsOf, settle, startTestCloud, zip, type TestCloud } from './helpers';

interface Context {
  t: TestCloud;
  logs: CloudWatchLogsClient;
  http: string;
  rest: string;
  functionUrl: string;
  /** An identity provider of the test's own on 127.0.0.1, with its JWKS. */
  idp: Server;
  idpUrl: string;
  idpKey: ReturnType<typeof generateKeyPairSync>['privateKey'];
}

const HANDLERS: Record<string, string> = {
  'api.js': `exports.handler = async (event) => ({ statusCode: 200, body: JSON.stringify({
    authorizer: event.requestContext.authorizer ?? null,
    identity: event.requestContext.identity ? { accessKey: event.requestContext.identity.accessKey, apiKey: event.requestContext.identity.apiKey, apiKeyId: event.requestContext.identity.apiKeyId } : null }) });`,
  'auth.js': `
    exports.simple = async (event) => {
      console.log('SIMPLE ' + event.identitySource.join(','));
      return event.headers['x-token'] === 'let-me-in' ? { isAuthorized: true, context: { user: 'u1', roles: ['a'] } } : { isAuthorized: false };
    };
    exports.policy = async (event) => {
      const token = (event.authorizationToken || event.headers['x-token']).replace(/^Bearer /, '');
      console.log('POLICY ' + event.type + ' ' + token);
      if (token === 'unauthorized') throw new Error('Unauthorized');
      if (token === 'boom') throw new Error('boom');
      const [api, stage] = event.methodArn.split('/');
      // '?' and '*' wildcards: any stage of the same length, any method and path.
      const resource = token.startsWith('elsewhere') ? api + '/' + stage + '/POST/elsewhere' : api + '/?' + stage.slice(1) + '/*';
      return { principalId: 'user-' + token, context: { token, n: 7, ok: true },
        policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: token.startsWith('deny') ? 'Deny' : 'Allow', Resource: resource }] } };
    };`,
};

const CODE = { S3Bucket: 'deploys', S3Key: 'auth/code.zip' };
const fnArn = (logicalId: string) => ({ 'Fn::GetAtt': [logicalId, 'Arn'] });
const invocationsUri = (logicalId: string) => ({ 'Fn::Sub': ['arn:aws:apigateway:${AWS::Region}:lambda:path/2015-03-31/functions/${Arn}/invocations', { Arn: fnArn(logicalId) }] });
const fn = (name: string, handler: string) => ({
  Type: 'AWS::Lambda::Function',
  Properties: { Code: CODE, Handler: handler, Runtime: 'nodejs20.x', FunctionName: `auth-dev-${name}`, Role: 'arn:aws:iam::000000000000:role/x' },
});
const httpRoute = (routeKey: string, extra: Record<string, unknown> = {}) => ({
  Type: 'AWS::ApiGatewayV2::Route',
  Properties: { ApiId: { Ref: 'HttpApi' }, RouteKey: routeKey, Target: { 'Fn::Join': ['/', ['integrations', { Ref: 'HttpApiIntegration' }]] }, ...extra },
});
const restResource = (pathPart: string) => ({
  Type: 'AWS::ApiGateway::Resource',
  Properties: { ParentId: { 'Fn::GetAtt': ['RestApi', 'RootResourceId'] }, PathPart: pathPart, RestApiId: { Ref: 'RestApi' } },
});
const restMethod = (resource: string, extra: Record<string, unknown> = {}) => ({
  Type: 'AWS::ApiGateway::Method',
  Properties: {
    HttpMethod: 'GET', ResourceId: { Ref: resource }, RestApiId: { Ref: 'RestApi' }, AuthorizationType: 'NONE',
    Integration: { IntegrationHttpMethod: 'POST', Type: 'AWS_PROXY', Uri: invocationsUri('ApiFunction') }, ...extra,
  },
});
const apiKey = (name: string, value: string, enabled = true) => ({ Type: 'AWS::ApiGateway::ApiKey', Properties: { Name: name, Enabled: enabled, Value: value }, DependsOn: 'RestDeployment' });
const usagePlan = (limits: Record<string, unknown>) => ({
  Type: 'AWS::ApiGateway::UsagePlan',
  Properties: { ApiStages: [{ ApiId: { Ref: 'RestApi' }, Stage: 'dev' }], ...limits },
  DependsOn: 'RestDeployment',
});
const planKey = (key: string, plan: string) => ({ Type: 'AWS::ApiGateway::UsagePlanKey', Properties: { KeyId: { Ref: key }, KeyType: 'API_KEY', UsagePlanId: { Ref: plan } } });

function template(issuer: string, foreignIssuer: string) {
  return {
    AWSTemplateFormatVersion: '2010-09-09',
    Resources: {
      ApiFunction: fn('api', 'api.handler'),
      SimpleAuthLogGroup: { Type: 'AWS::Logs::LogGroup', Properties: { LogGroupName: '/aws/lambda/auth-dev-simple-auth' } },
      PolicyAuthLogGroup: { Type: 'AWS::Logs::LogGroup', Properties: { LogGroupName: '/aws/lambda/auth-dev-policy-auth' } },
      ApiFunctionUrl: { Type: 'AWS::Lambda::Url', Properties: { AuthType: 'AWS_IAM', TargetFunctionArn: fnArn('ApiFunction') } },
      SimpleAuthFunction: fn('simple-auth', 'auth.simple'),
      PolicyAuthFunction: fn('policy-auth', 'auth.policy'),
      UserPool: { Type: 'AWS::Cognito::UserPool', Properties: { UserPoolName: 'auth-dev' } },
      HttpApi: { Type: 'AWS::ApiGatewayV2::Api', Properties: { Name: 'auth-dev', ProtocolType: 'HTTP' } },
      HttpApiStage: { Type: 'AWS::ApiGatewayV2::Stage', Properties: { ApiId: { Ref: 'HttpApi' }, StageName: '$default', AutoDeploy: true } },
      HttpApiIntegration: { Type: 'AWS::ApiGatewayV2::Integration', Properties: { ApiId: { Ref: 'HttpApi' }, IntegrationType: 'AWS_PROXY', IntegrationUri: fnArn('ApiFunction'), PayloadFormatVersion: '2.0' } },
      JwtAuthorizer: {
        Type: 'AWS::ApiGatewayV2::Authorizer',
        Properties: { ApiId: { Ref: 'HttpApi' }, Name: 'jwt', AuthorizerType: 'JWT', IdentitySource: ['$request.header.Authorization'], JwtConfiguration: { Issuer: issuer, Audience: ['my-client'] } },
      },
      ForeignJwtAuthorizer: {
        Type: 'AWS::ApiGatewayV2::Authorizer',
        Properties: { ApiId: { Ref: 'HttpApi' }, Name: 'foreign', AuthorizerType: 'JWT', IdentitySource: ['$request.header.Authorization'], JwtConfiguration: { Issuer: foreignIssuer, Audience: ['other-client'] } },
      },
      UnreachableJwtAuthorizer: {
        Type: 'AWS::ApiGatewayV2::Authorizer',
        Properties: { ApiId: { Ref: 'HttpApi' }, Name: 'unreachable', AuthorizerType: 'JWT', IdentitySource: ['$request.header.Authorization'], JwtConfiguration: { Issuer: 'http://127.0.0.1:1', Audience: ['x'] } },
      },
      SimpleAuthorizer: {
        Type: 'AWS::ApiGatewayV2::Authorizer',
        Properties: {
          ApiId: { Ref: 'HttpApi' }, Name: 'simple', AuthorizerType: 'REQUEST', IdentitySource: ['$request.header.x-token'], AuthorizerPayloadFormatVersion: '2.0',
          EnableSimpleResponses: true, AuthorizerResultTtlInSeconds: 300, AuthorizerUri: invocationsUri('SimpleAuthFunction'),
        },
      },
      PolicyV1Authorizer: {
        Type: 'AWS::ApiGatewayV2::Authorizer',
        Properties: { ApiId: { Ref: 'HttpApi' }, Name: 'policy', AuthorizerType: 'REQUEST', IdentitySource: ['$request.header.x-token'], AuthorizerPayloadFormatVersion: '1.0', AuthorizerUri: invocationsUri('PolicyAuthFunction') },
      },
      HttpRouteOpen: httpRoute('GET /open'),
      HttpRouteJwt: httpRoute('GET /jwt', { AuthorizationType: 'JWT', AuthorizerId: { Ref: 'JwtAuthorizer' } }),
      HttpRouteJwtAdmin: httpRoute('GET /admin', { AuthorizationType: 'JWT', AuthorizerId: { Ref: 'JwtAuthorizer' }, AuthorizationScopes: ['admin'] }),
      HttpRouteForeign: httpRoute('GET /foreign', { AuthorizationType: 'JWT', AuthorizerId: { Ref: 'ForeignJwtAuthorizer' } }),
      HttpRouteUnreachable: httpRoute('GET /unreachable', { AuthorizationType: 'JWT', AuthorizerId: { Ref: 'UnreachableJwtAuthorizer' } }),
      HttpRouteSimple: httpRoute('GET /simple', { AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: 'SimpleAuthorizer' } }),
      HttpRoutePolicy: httpRoute('GET /policy', { AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: 'PolicyV1Authorizer' } }),
      HttpRouteIam: httpRoute('GET /iam', { AuthorizationType: 'AWS_IAM' }),
      RestApi: {
        Type: 'AWS::ApiGateway::RestApi',
        Properties: { Name: 'auth-dev', Policy: { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: '*', Action: 'execute-api:Invoke', Resource: 'execute-api:/*' }] } },
      },
      RestResourceToken: restResource('token'),
      RestResourceRequest: restResource('request'),
      RestResourcePrivate: restResource('private'),
      RestResourceIam: restResource('iam'),
      RestResourceCognito: restResource('cognito'),
      TokenAuthorizer: {
        Type: 'AWS::ApiGateway::Authorizer',
        Properties: {
          RestApiId: { Ref: 'RestApi' }, Name: 'token', Type: 'TOKEN', IdentitySource: 'method.request.header.Authorization',
          IdentityValidationExpression: '^Bearer [a-z-]+$', AuthorizerResultTtlInSeconds: 300, AuthorizerUri: invocationsUri('PolicyAuthFunction'),
        },
      },
      RequestAuthorizer: {
        Type: 'AWS::ApiGateway::Authorizer',
        Properties: { RestApiId: { Ref: 'RestApi' }, Name: 'request', Type: 'REQUEST', IdentitySource: 'method.request.header.x-token', AuthorizerResultTtlInSeconds: 60, AuthorizerUri: invocationsUri('PolicyAuthFunction') },
      },
      CognitoAuthorizer: {
        Type: 'AWS::ApiGateway::Authorizer',
        Properties: { RestApiId: { Ref: 'RestApi' }, Name: 'pool', Type: 'COGNITO_USER_POOLS', IdentitySource: 'method.request.header.Authorization', ProviderARNs: ['arn:aws:cognito-idp:us-east-1:000000000000:userpool/us-east-1_NotLocal1'] },
      },
      RestMethodToken: restMethod('RestResourceToken', { AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: 'TokenAuthorizer' } }),
      RestMethodRequest: restMethod('RestResourceRequest', { AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: 'RequestAuthorizer' } }),
      RestMethodPrivate: restMethod('RestResourcePrivate', { ApiKeyRequired: true }),
      RestMethodIam: restMethod('RestResourceIam', { AuthorizationType: 'AWS_IAM' }),
      RestMethodCognito: restMethod('RestResourceCognito', { AuthorizationType: 'COGNITO_USER_POOLS', AuthorizerId: { Ref: 'CognitoAuthorizer' } }),
      RestDeployment: {
        Type: 'AWS::ApiGateway::Deployment',
        Properties: { RestApiId: { Ref: 'RestApi' }, StageName: 'dev' },
        DependsOn: ['RestMethodToken', 'RestMethodRequest', 'RestMethodPrivate', 'RestMethodIam', 'RestMethodCognito'],
      },
      GoodKey: apiKey('good', 'good-key-0123456789abcdef'),
      DisabledKey: apiKey('disabled', 'disabled-key-0123456789abc', false),
      ThrottledKey: apiKey('throttled', 'throttled-key-0123456789ab'),
      QuotaKey: apiKey('quota', 'quota-key-0123456789abcdef'),
      FreePlan: usagePlan({}),
      ThrottledPlan: {
        ...usagePlan({ Throttle: { RateLimit: 0.01, BurstLimit: 1 } }),
        Properties: { ApiStages: [{ ApiId: { Ref: 'RestApi' }, Stage: 'dev', Throttle: { '/token/GET': { RateLimit: 5, BurstLimit: 5 } } }], Throttle: { RateLimit: 0.01, BurstLimit: 1 } },
      },
      QuotaPlan: usagePlan({ Quota: { Limit: 2, Period: 'DAY' } }),
      GoodPlanKey: planKey('GoodKey', 'FreePlan'),
      DisabledPlanKey: planKey('DisabledKey', 'FreePlan'),
      ThrottledPlanKey: planKey('ThrottledKey', 'ThrottledPlan'),
      QuotaPlanKey: planKey('QuotaKey', 'QuotaPlan'),
    },
    Outputs: {
      HttpApiUrl: { Value: { 'Fn::Sub': 'https://${HttpApi}.execute-api.${AWS::Region}.amazonaws.com' } },
      ServiceEndpoint: { Value: { 'Fn::Sub': 'https://${RestApi}.execute-api.${AWS::Region}.amazonaws.com/dev' } },
      FunctionUrl: { Value: { 'Fn::GetAtt': ['ApiFunctionUrl', 'FunctionUrl'] } },
    },
  };
}

const auth = suite<Context>('local cloud: API authorizers and API keys');

auth.before(async (context) => {
  context.idpKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const jwk = { ...context.idpKey.export({ format: 'jwk' }), kid: 'idp-key', alg: 'RS256', use: 'sig' };
  delete (jwk as Record<string, unknown>).d;
  for (const name of ['p', 'q', 'dp', 'dq', 'qi']) delete (jwk as Record<string, unknown>)[name];
  context.idp = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') res.end(JSON.stringify({ issuer: context.idpUrl, jwks_uri: `${context.idpUrl}/keys` }));
    else if (req.url === '/keys') res.end(JSON.stringify({ keys: [jwk] }));
    else res.writeHead(404).end('{}');
  });
  await new Promise<void>((resolve) => context.idp.listen(0, '127.0.0.1', resolve));
  context.idpUrl = `http://127.0.0.1:${(context.idp.address() as AddressInfo).port}`;

  context.t = await startTestCloud();
  context.logs = new CloudWatchLogsClient({ ...context.t.config, maxAttempts: 1 });
  await context.t.s3.send(new CreateBucketCommand({ Bucket: 'deploys' }));
  await context.t.s3.send(new PutObjectCommand({ ...{ Bucket: CODE.S3Bucket, Key: CODE.S3Key }, Body: await zip(HANDLERS) }));
  const body = JSON.stringify(template(`${context.t.cloud.url}/_fw/issuer`, context.idpUrl));
  await context.t.cfn.send(new CreateStackCommand({ StackName: 'auth-dev', TemplateBody: body }));
  const stack = await settle(context.t.cfn, 'auth-dev');
  assert.is(stack.StackStatus, 'CREATE_COMPLETE', stack.StackStatusReason);
  ({ HttpApiUrl: context.http, ServiceEndpoint: context.rest, FunctionUrl: context.functionUrl } = outputsOf(stack));
});

auth.after(async (context) => {
  context.logs.destroy();
  await context.t.stop();
  context.idp.close();
});

async function call(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null, errorType: response.headers.get('x-amzn-errortype'), headers: response.headers };
}

async function token(context: Context, ...args: string[]): Promise<string> {
  const result = await runFw(['local', 'token', '--url', context.t.cloud.url, ...args], process.cwd());
  assert.is(result.code, 0, result.stderr);
  return result.stdout.trim();
}

const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;

/** Lines an authorizer function logged that start with the marker. */
async function logged(context: Context, fnName: string, marker: string): Promise<string[]> {
  const { events = [] } = await context.logs.send(new FilterLogEventsCommand({ logGroupName: `/aws/lambda/auth-dev-${fnName}`, filterPattern: `"${marker}"` }));
  return events.map((event) => /(SIMPLE|POLICY) .*/.exec(event.message ?? '')?.[0] ?? '').filter((line) => line.startsWith(marker));
}

function signWith(key: ReturnType<typeof generateKeyPairSync>['privateKey'], kid: string, claims: Record<string, unknown>): string {
  const input = `${Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${input}.${createSign('sha256').update(input).sign(key).toString('base64url')}`;
}

auth('a route without an authorizer stays open', async ({ http }) => {
  assert.equal(await call(`${http}/open`).then((r) => [r.status, r.body]), [200, { authorizer: null, identity: null }]);
});

auth('HTTP API JWT: no token is 401, a token from fw local token passes its claims and scopes to the function', async (context) => {
  const missing = await call(`${context.http}/jwt`);
  assert.equal([missing.status, missing.body], [401, { message: 'Unauthorized' }]);
  const jwt = await token(context, '--audience', 'my-client', '--claims', '{"sub":"u1","groups":["a","b"]}', '--scope', 'read write');
  const claims = claimsOf(jwt);
  const expected = {
    authorizer: { jwt: { claims: { iss: `${context.t.cloud.url}/_fw/issuer`, iat: String(claims.iat), exp: String(claims.exp), aud: 'my-client', scope: 'read write', sub: 'u1', groups: '[a b]' }, scopes: ['read', 'write'] } },
    identity: null,
  };
  assert.equal(await call(`${context.http}/jwt`, { authorization: `Bearer ${jwt}` }).then((r) => [r.status, r.body]), [200, expected]);
  // AWS accepts the token without the Bearer prefix too.
  assert.equal(await call(`${context.http}/jwt`, { authorization: jwt }).then((r) => r.status), 200);
  assert.is((claims.exp as number) - (claims.iat as number), 3600);
});

auth('HTTP API JWT: wrong audience, expired, bad signature, other issuer and missing scope are refused', async (context) => {
  const refused = async (jwt: string, path = 'jwt') => {
    const response = await call(`${context.http}/${path}`, { authorization: `Bearer ${jwt}` });
    return [response.status, response.body, response.headers.get('www-authenticate')];
  };
  const invalid = (description: string) => [401, { message: 'Unauthorized' }, `Bearer scope="" error="invalid_token" error_description="${description}"`];
  assert.equal(await refused(await token(context, '--audience', 'someone-else')), invalid('the token audience does not match'));
  assert.equal(await refused(await token(context, '--audience', 'my-client', '--expires-in=-1m')), invalid('the token has expired'));
  const good = await token(context, '--audience', 'my-client');
  const [header, payload] = good.split('.');
  const forged = `${header}.${Buffer.from(JSON.stringify({ ...claimsOf(good), sub: 'admin' })).toString('base64url')}.${good.split('.')[2]}`;
  assert.equal(await refused(forged), invalid('the token signature is invalid'));
  assert.equal(await refused(`${header}.${payload}.${Buffer.from('not a signature').toString('base64url')}`), invalid('the token signature is invalid'));
  assert.equal(await refused(await token(context, '--audience', 'my-client', '--issuer', 'https://elsewhere.example')), invalid(`the token issuer https://elsewhere.example is not ${context.t.cloud.url}/_fw/issuer`));
  assert.equal(await refused(await token(context, '--audience', 'my-client', '--scope', 'read'), 'admin'), [
    403,
    { message: 'Forbidden' },
    'Bearer scope="admin" error="insufficient_scope" error_description="the token does not have the required scopes"',
  ]);
  assert.equal(await call(`${context.http}/admin`, { authorization: `Bearer ${await token(context, '--audience', 'my-client', '--scope', 'read admin')}` }).then((r) => r.status), 200);
});

auth("HTTP API JWT: a token of another issuer is verified against that issuer's JWKS; an unreachable issuer refuses", async (context) => {
  const now = Math.floor(Date.now() / 1000);
  const claims = { iss: context.idpUrl, client_id: 'other-client', sub: 'u2', iat: now, exp: now + 60 };
  const response = await call(`${context.http}/foreign`, { authorization: `Bearer ${signWith(context.idpKey, 'idp-key', claims)}` });
  assert.equal([response.status, (response.body as { authorizer: { jwt: unknown } }).authorizer.jwt], [
    200,
    { claims: { iss: context.idpUrl, client_id: 'other-client', sub: 'u2', iat: String(now), exp: String(now + 60) }, scopes: null },
  ]);
  const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const unknownKey = await call(`${context.http}/foreign`, { authorization: `Bearer ${signWith(stranger, 'stranger', claims)}` });
  assert.equal([unknownKey.status, unknownKey.headers.get('www-authenticate')], [401, 'Bearer scope="" error="invalid_token" error_description="no signing key stranger at the issuer"']);
  const wrongKey = await call(`${context.http}/foreign`, { authorization: `Bearer ${signWith(stranger, 'idp-key', claims)}` });
  assert.equal([wrongKey.status, wrongKey.body], [401, { message: 'Unauthorized' }]);
  // An issuer that does not answer: refused at once, and again without a second wait.
  const lost = { ...claims, iss: 'http://127.0.0.1:1', client_id: 'x' };
  for (let attempt = 0; attempt < 2; attempt++) {
    const unreachable = await call(`${context.http}/unreachable`, { authorization: `Bearer ${signWith(context.idpKey, 'idp-key', lost)}` });
    assert.equal([unreachable.status, unreachable.headers.get('www-authenticate')], [401, 'Bearer scope="" error="invalid_token" error_description="no signing key idp-key at the issuer"']);
  }
});

auth('HTTP API Lambda authorizer (2.0, simple responses): 401 without identity, 403 when refused, context passed, answers cached', async (context) => {
  const missing = await call(`${context.http}/simple`);
  assert.equal([missing.status, missing.body], [401, { message: 'Unauthorized' }]);
  assert.equal(await logged(context, 'simple-auth', 'SIMPLE'), []);
  const refused = await call(`${context.http}/simple`, { 'x-token': 'nope' });
  assert.equal([refused.status, refused.body], [403, { message: 'Forbidden' }]);
  const admitted = await call(`${context.http}/simple`, { 'x-token': 'let-me-in' });
  assert.equal([admitted.status, admitted.body], [200, { authorizer: { lambda: { user: 'u1', roles: ['a'] } }, identity: null }]);
  assert.is((await call(`${context.http}/simple`, { 'x-token': 'let-me-in' })).status, 200);
  // AuthorizerResultTtlInSeconds 300: one invocation per identity.
  assert.equal((await logged(context, 'simple-auth', 'SIMPLE')).sort(), ['SIMPLE let-me-in', 'SIMPLE nope']);
});

auth('HTTP API Lambda authorizer (1.0, IAM policy): Allow passes the context, Deny is 403', async (context) => {
  const admitted = await call(`${context.http}/policy`, { 'x-token': 'allow-v1' });
  assert.equal([admitted.status, admitted.body], [200, { authorizer: { lambda: { token: 'allow-v1', n: 7, ok: true } }, identity: null }]);
  const denied = await call(`${context.http}/policy`, { 'x-token': 'deny-v1' });
  assert.equal([denied.status, denied.body, denied.errorType], [403, { message: 'Forbidden' }, null]);
  assert.equal(await logged(context, 'policy-auth', 'POLICY REQUEST'), ['POLICY REQUEST allow-v1', 'POLICY REQUEST deny-v1']);
});

auth('REST TOKEN authorizer: identityValidationExpression, Allow, explicit Deny, no Allow, Unauthorized and a failing authorizer', async (context) => {
  const status = async (authorization?: string) => {
    const response = await call(`${context.rest}/token`, authorization ? { authorization } : {});
    return [response.status, response.body, response.errorType];
  };
  assert.equal(await status(), [401, { message: 'Unauthorized' }, 'UnauthorizedException']);
  assert.equal(await status('Bearer NOT-MATCHING-1'), [401, { message: 'Unauthorized' }, 'UnauthorizedException']);
  assert.equal(await status('Bearer allow'), [200, { authorizer: { principalId: 'user-allow', token: 'allow', n: '7', ok: 'true', integrationLatency: 0 }, identity: { accessKey: null } }, null]);
  assert.equal(await status('Bearer deny'), [403, { Message: 'User is not authorized to access this resource with an explicit deny' }, 'AccessDeniedException']);
  assert.equal(await status('Bearer elsewhere'), [403, { Message: 'User is not authorized to access this resource' }, 'AccessDeniedException']);
  assert.equal(await status('Bearer unauthorized'), [401, { message: 'Unauthorized' }, 'UnauthorizedException']);
  assert.equal(await status('Bearer boom'), [500, { message: null }, 'AuthorizerConfigurationException']);
  assert.is((await status('Bearer allow'))[0], 200);
  // The non-matching token never reached the function; the cached Allow ran it once.
  assert.equal(await logged(context, 'policy-auth', 'POLICY TOKEN'), ['POLICY TOKEN allow', 'POLICY TOKEN deny', 'POLICY TOKEN elsewhere', 'POLICY TOKEN unauthorized', 'POLICY TOKEN boom']);
});

auth('REST REQUEST authorizer: a missing identity source is 401 without a call, an Allow reaches the function', async (context) => {
  const missing = await call(`${context.rest}/request`);
  assert.equal([missing.status, missing.body], [401, { message: 'Unauthorized' }]);
  const admitted = await call(`${context.rest}/request`, { 'x-token': 'allow-request' });
  assert.equal([admitted.status, (admitted.body as { authorizer: unknown }).authorizer], [200, { principalId: 'user-allow-request', token: 'allow-request', n: '7', ok: 'true', integrationLatency: 0 }]);
  assert.equal(await logged(context, 'policy-auth', 'POLICY REQUEST allow-request'), ['POLICY REQUEST allow-request']);
});

auth('REST API keys: missing, unknown and disabled keys are 403; a key in a usage plan passes; throttle and quota are 429', async (context) => {
  const withKey = async (key?: string) => {
    const response = await call(`${context.rest}/private`, key ? { 'x-api-key': key } : {});
    return [response.status, response.body, response.errorType];
  };
  const forbidden = [403, { message: 'Forbidden' }, 'ForbiddenException'];
  assert.equal(await withKey(), forbidden);
  assert.equal(await withKey('not-a-key'), forbidden);
  assert.equal(await withKey('disabled-key-0123456789abc'), forbidden);
  const [status, body] = await withKey('good-key-0123456789abcdef');
  assert.is(status, 200);
  const identity = (body as { identity: Record<string, unknown> }).identity;
  assert.equal([identity.apiKey, typeof identity.apiKeyId], ['good-key-0123456789abcdef', 'string']);
  assert.equal(await withKey('throttled-key-0123456789ab').then((r) => r[0]), 200);
  assert.equal(await withKey('throttled-key-0123456789ab'), [429, { message: 'Too Many Requests' }, 'TooManyRequestsException']);
  assert.equal([(await withKey('quota-key-0123456789abcdef'))[0], (await withKey('quota-key-0123456789abcdef'))[0]], [200, 200]);
  assert.equal(await withKey('quota-key-0123456789abcdef'), [429, { message: 'Limit Exceeded' }, 'LimitExceededException']);
});

const bytes = (data: string | ArrayBuffer | ArrayBufferView) =>
  typeof data === 'string' ? data : ArrayBuffer.isView(data) ? Buffer.from(data.buffer, data.byteOffset, data.byteLength) : Buffer.from(data);

/** The hash SignatureV4 wants, from node:crypto (the SDK's own lives in a package fw does not depend on). */
class Sha256 {
  private readonly hash: Hash | Hmac;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.hash = secret ? createHmac('sha256', bytes(secret)) : createHash('sha256');
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    this.hash.update(bytes(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
}

async function signed(url: string, credentials: { accessKeyId: string; secretAccessKey: string }, service = 'execute-api'): Promise<Record<string, string>> {
  const { hostname, port, pathname } = new URL(url);
  const signer = new SignatureV4({ service, region: 'us-east-1', credentials, sha256: Sha256 });
  const request = await signer.sign({ method: 'GET', protocol: 'http:', hostname, port: Number(port), path: pathname, headers: { host: `${hostname}:${port}` } });
  return request.headers as Record<string, string>;
}

auth('aws_iam: unsigned is 403, signed with the local credentials reaches the function, a wrong secret is refused', async (context) => {
  for (const url of [`${context.rest}/iam`, `${context.http}/iam`]) {
    const unsigned = await call(url);
    assert.equal([unsigned.status, unsigned.body, unsigned.errorType], [403, { message: 'Missing Authentication Token' }, 'MissingAuthenticationTokenException']);
    const wrong = await call(url, await signed(url, { accessKeyId: 'local', secretAccessKey: 'not-the-secret' }));
    assert.equal([wrong.status, wrong.errorType], [403, 'InvalidSignatureException']);
    const unknown = await call(url, await signed(url, { accessKeyId: 'AKIDSTRANGER', secretAccessKey: 'x' }));
    assert.equal([unknown.status, unknown.body], [403, { message: 'The security token included in the request is invalid.' }]);
  }
  const rest = await call(`${context.rest}/iam`, await signed(`${context.rest}/iam`, { accessKeyId: 'local', secretAccessKey: 'local' }));
  assert.equal([rest.status, rest.body], [200, { authorizer: null, identity: { accessKey: 'local' } }]);
  const http = await call(`${context.http}/iam`, await signed(`${context.http}/iam`, { accessKeyId: 'local', secretAccessKey: 'local' }));
  assert.equal([http.status, http.body], [
    200,
    { authorizer: { iam: { accessKey: 'local', accountId: '000000000000', userArn: 'arn:aws:iam::000000000000:root', callerId: '000000000000', principalOrgId: null, userId: '000000000000' } }, identity: null },
  ]);
});

auth('aws_iam checks signatures against the credentials the local cloud was given, with the management APIs\' verifier', async () => {
  const required = { accessKeyId: 'AKIDREQUIRED', secretAccessKey: 'required-secret' };
  const url = 'http://127.0.0.1:4566/_fw/execute-api/abc/prod/items?filter=a%20b&b=2';
  const { hostname, port, pathname } = new URL(url);
  const request = (headers: Record<string, string>) => ({
    method: 'GET', path: pathname, search: new URL(url).searchParams, body: Buffer.alloc(0), hostname, region: 'us-east-1',
    rawUrl: `${pathname}?filter=a%20b&b=2`,
    headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value])),
  });
  const sign = async (credentials: typeof required) =>
    (await new SignatureV4({ service: 'execute-api', region: 'us-east-1', credentials, sha256: Sha256 }).sign({
      method: 'GET', protocol: 'http:', hostname, port: Number(port), path: pathname, query: { filter: 'a b', b: '2' }, headers: { host: `${hostname}:${port}` },
    })).headers as Record<string, string>;
  assert.equal(verifySigV4(request(await sign(required)), required), { accessKeyId: 'AKIDREQUIRED' });
  assert.equal(verifySigV4(request(await sign({ accessKeyId: 'local', secretAccessKey: 'local' })), required), {
    refused: { message: 'The security token included in the request is invalid.', errorType: 'UnrecognizedClientException' },
  });
  assert.equal(verifySigV4(request(await sign({ ...required, secretAccessKey: 'guess' })), required), {
    refused: {
      message: 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
      errorType: 'InvalidSignatureException',
    },
  });
  // A scope for another service: refused when credentials are required, accepted without (what aws4 signs for a local host).
  assert.equal(verifySigV4(request(await sign(required)), required, 'lambda'), { refused: { message: "Credential should be scoped to correct service: 'lambda'.", errorType: 'InvalidSignatureException' } });
  assert.equal(verifySigV4(request(await sign(ANY_LOCAL_CREDENTIALS)), ANY_LOCAL_CREDENTIALS, 'lambda'), { accessKeyId: 'local' });
});

auth('a function URL with AuthType AWS_IAM wants a SigV4 signature for lambda', async (context) => {
  const unsigned = await call(context.functionUrl);
  assert.equal([unsigned.status, unsigned.body, unsigned.errorType], [403, { Message: 'Forbidden' }, 'AccessDeniedException']);
  // Signed for execute-api: without --require-credentials any scope is accepted (aws4 scopes a local host to no service).
  assert.is((await call(context.functionUrl, await signed(context.functionUrl, { accessKeyId: 'local', secretAccessKey: 'wrong' }, 'lambda'))).status, 403);
  assert.is((await call(context.functionUrl, await signed(context.functionUrl, { accessKeyId: 'local', secretAccessKey: 'local' }))).status, 200);
  const admitted = await call(context.functionUrl, await signed(context.functionUrl, { accessKeyId: 'local', secretAccessKey: 'local' }, 'lambda'));
  assert.equal([admitted.status, admitted.body], [
    200,
    {
      authorizer: { iam: { accessKey: 'local', accountId: '000000000000', callerId: '000000000000', cognitoIdentity: null, principalOrgId: null, userArn: 'arn:aws:iam::000000000000:root', userId: '000000000000' } },
      identity: null,
    },
  ]);
});

auth('Cognito user pool authorizer on a pool that is not local: no token is 401; with one, the response says the token was not verified', async (context) => {
  const missing = await call(`${context.rest}/cognito`);
  assert.equal([missing.status, missing.body], [401, { message: 'Unauthorized' }]);
  const jwt = await token(context, '--audience', 'pool-client', '--claims', '{"sub":"u3"}');
  const passed = await call(`${context.rest}/cognito`, { authorization: jwt });
  assert.equal([passed.status, passed.headers.get('x-fw-local-not-enforced'), (passed.body as { authorizer: { claims: { sub: string } } }).authorizer.claims.sub], [
    200,
    'COGNITO_USER_POOLS authorizer pool: the token is not verified by the local cloud',
    'u3',
  ]);
});

auth('the local issuer publishes its discovery document and keys, and keeps its key across restarts', async (context) => {
  const issuer = `${context.t.cloud.url}/_fw/issuer`;
  const discovery = await call(`${issuer}/.well-known/openid-configuration`);
  assert.equal(discovery.body, {
    issuer,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    token_endpoint: `${issuer}/token`,
    response_types_supported: ['token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
  });
  const { keys } = (await call(`${issuer}/.well-known/jwks.json`)).body as { keys: Record<string, string>[] };
  assert.equal(keys.map((key) => [key.kty, key.alg, key.use, key.kid]), [['RSA', 'RS256', 'sig', createHash('sha256').update(JSON.stringify({ e: keys[0].e, kty: 'RSA', n: keys[0].n })).digest('base64url')]]);
  const jwt = await token(context, '--audience', 'x');
  assert.is(JSON.parse(Buffer.from(jwt.split('.')[0], 'base64url').toString('utf8')).kid, keys[0].kid);
});

auth('fw local token signs with the key in the data folder when no local cloud answers', async (context) => {
  const issuer = `${context.t.cloud.url}/_fw/issuer`;
  const offline = await runFw(['local', 'token', '--port', '1', '--data', context.t.dataDir, '--issuer', issuer, '--audience', 'my-client'], process.cwd());
  assert.is(offline.code, 0, offline.stderr);
  const response = await call(`${context.http}/jwt`, { authorization: `Bearer ${offline.stdout.trim()}` });
  assert.equal([response.status, (response.body as { authorizer: { jwt: { claims: { iss: string } } } }).authorizer.jwt.claims.iss], [200, issuer]);
});

auth('fw local token refuses bad options on one line', async (context) => {
  const claims = await runFw(['local', 'token', '--url', context.t.cloud.url, '--claims', '[1]'], process.cwd(), { NO_COLOR: '1' });
  assert.equal([claims.code, claims.stderr], [1, 'Error: Invalid --claims: expected a JSON object, got "[1]"\n']);
  const expires = await runFw(['local', 'token', '--url', context.t.cloud.url, '--expires-in', 'soon'], process.cwd(), { NO_COLOR: '1' });
  assert.equal([expires.code, expires.stderr], [1, 'Error: Invalid --expires-in: expected a duration like 3600, 30m, 1h or 7d, got "soon"\n']);
});

auth('the local cloud reports what it does not enforce or emulate in the stack, to signed requests only', async (context) => {
  const url = `${context.t.cloud.url}/_fw/deploy-report?stack=auth-dev`;
  const unsigned = await fetch(url);
  assert.is(unsigned.status, 403);
  const signed = await signedLocalFetch(url, {}, ANY_LOCAL_CREDENTIALS);
  assert.is(signed.status, 200);
  assert.equal(await signed.json(), {
    stack: 'auth-dev',
    notEnforced: [
      "CognitoAuthorizer: Cognito user pool authorizer not enforced (its pool is not in the local cloud); its methods refuse requests without a token and pass the token's claims unverified",
      'RestApi: resource policy not enforced',
      'ThrottledPlan: stage or method throttling not applied (usage plan throttles and quotas are)',
    ],
    loadBalancers: [],
  });
});

auth.run();
