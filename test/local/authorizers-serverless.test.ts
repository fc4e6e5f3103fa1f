import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { runFw } from '../helpers/cli';
import { outputsOf, startTestCloud, type TestCloud } from './helpers';

const ENV = { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', NO_COLOR: '1' };

interface Context {
  t: TestCloud;
  work: string;
  deploy: { code: number; stdout: string; stderr: string };
  http: string;
  rest: string;
}

const serviceFile = (issuer: string) => `service: guarded
frameworkVersion: '3'
provider:
  name: aws
  runtime: nodejs20.x
  httpApi:
    authorizers:
      jwtAuth:
        type: jwt
        identitySource: $request.header.Authorization
        issuerUrl: ${issuer}
        audience:
          - my-client
      lambdaAuth:
        type: request
        functionName: simpleAuth
        enableSimpleResponses: true
        identitySource: $request.header.x-token
  apiGateway:
    apiKeys:
      - name: tester
        value: tester-key-0123456789abcdef
      - generated
    usagePlan:
      quota:
        limit: 1000
        period: DAY
functions:
  simpleAuth:
    handler: auth.simple
  tokenAuth:
    handler: auth.policy
  requestAuth:
    handler: auth.policy
  api:
    handler: handler.api
    events:
      - httpApi:
          method: GET
          path: /jwt
          authorizer:
            name: jwtAuth
            scopes:
              - read
      - httpApi:
          method: GET
          path: /lambda
          authorizer:
            name: lambdaAuth
      - http:
          method: get
          path: token
          authorizer: tokenAuth
      - http:
          method: get
          path: request
          authorizer:
            name: requestAuth
            type: request
            identitySource: method.request.header.x-token
            resultTtlInSeconds: 0
      - http:
          method: get
          path: private
          private: true
      - http:
          method: get
          path: pool
          authorizer:
            name: pool
            arn: arn:aws:cognito-idp:us-east-1:000000000000:userpool/us-east-1_abc
`;

const HANDLERS: Record<string, string> = {
  'handler.js': `exports.api = async (event) => ({ statusCode: 200, body: JSON.stringify(event.requestContext.authorizer ?? null) });`,
  'auth.js': `
    exports.simple = async (event) => ({ isAuthorized: event.headers['x-token'] === 'open-sesame', context: { who: 'simple' } });
    exports.policy = async (event) => {
      const token = (event.authorizationToken || event.headers['x-token'] || '').replace(/^Bearer /, '');
      return { principalId: token || 'anonymous', policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: token === 'yes' ? 'Allow' : 'Deny', Resource: event.methodArn }] } };
    };`,
};

const guarded = suite<Context>('serverless.yml authorizers, private endpoints and API keys in the local cloud');

guarded.before(async (context) => {
  context.work = mkdtempSync(join(tmpdir(), 'fw-guarded-'));
  context.t = await startTestCloud(join(context.work, 'cloud'));
  const dir = join(context.work, 'service');
  mkdirSync(dir);
  writeFileSync(join(dir, 'serverless.yml'), serviceFile(`${context.t.cloud.url}/_fw/issuer`));
  for (const [name, content] of Object.entries(HANDLERS)) writeFileSync(join(dir, name), content);
  context.deploy = await runFw(['deploy', '--endpoint-url', context.t.cloud.url], dir, ENV);
  const stack = (await context.t.cfn.send(new DescribeStacksCommand({ StackName: 'guarded-dev' }))).Stacks![0];
  ({ HttpApiUrl: context.http, ServiceEndpoint: context.rest } = outputsOf(stack));
});

guarded.after(async (context) => {
  await context.t.stop({ keepData: true });
  rmSync(context.work, { recursive: true, force: true });
});

guarded('fw deploy lists the API keys and, once, what the local cloud does not enforce', ({ deploy }) => {
  assert.is(deploy.code, 0, deploy.stderr);
  const generated = /^ {2}generated: ([A-Za-z0-9_-]{40})$/m.exec(deploy.stdout)?.[1];
  const keys = deploy.stdout.slice(deploy.stdout.indexOf('api keys:'), deploy.stdout.indexOf('endpoints:'));
  assert.is(keys, ['api keys:', `  generated: ${generated}`, '  tester: tester-key-0123456789abcdef', ''].join('\n'));
  const report = deploy.stdout.slice(deploy.stdout.indexOf('\nWarning:'));
  assert.is(
    report,
    [
      '',
      'Warning: the local cloud does not enforce or emulate these parts of guarded-dev (they deploy, but do not behave as on AWS):',
      "  - PoolApiGatewayAuthorizer: Cognito user pool authorizer not enforced (its pool is not in the local cloud); its methods refuse requests without a token and pass the token's claims unverified",
      '',
    ].join('\n'),
  );
});

guarded('fw info lists the API keys with their values, read through API Gateway\'s GetApiKey', async ({ t, work, deploy }) => {
  const generated = /^ {2}generated: ([A-Za-z0-9_-]{40})$/m.exec(deploy.stdout)?.[1];
  const result = await runFw(['info', '--endpoint-url', t.cloud.url], join(work, 'service'), ENV);
  assert.is(result.code, 0, result.stderr);
  const section = result.stdout.slice(result.stdout.indexOf('api keys:'), result.stdout.indexOf('endpoints:'));
  assert.is(section, ['api keys:', `  generated: ${generated}`, '  tester: tester-key-0123456789abcdef', ''].join('\n'));
});

guarded('httpApi jwt authorizer: refused without a token or scope, admitted with one from fw local token', async (context) => {
  const mint = async (...args: string[]) => (await runFw(['local', 'token', '--url', context.t.cloud.url, '--audience', 'my-client', ...args], context.work)).stdout.trim();
  assert.is((await fetch(`${context.http}/jwt`)).status, 401);
  assert.is((await fetch(`${context.http}/jwt`, { headers: { authorization: await mint('--scope', 'write') } })).status, 403);
  const admitted = await fetch(`${context.http}/jwt`, { headers: { authorization: `Bearer ${await mint('--scope', 'read', '--claims', '{"sub":"u9"}')}` } });
  assert.is(admitted.status, 200);
  assert.equal(((await admitted.json()) as { jwt: { claims: { sub: string }; scopes: string[] } }).jwt.scopes, ['read']);
});

guarded('httpApi request authorizer with simple responses', async ({ http }) => {
  assert.equal(await Promise.all(['', 'wrong', 'open-sesame'].map(async (token) => (await fetch(`${http}/lambda`, { headers: token ? { 'x-token': token } : {} })).status)), [401, 403, 200]);
  assert.equal(await (await fetch(`${http}/lambda`, { headers: { 'x-token': 'open-sesame' } })).json(), { lambda: { who: 'simple' } });
});

guarded('http authorizers: TOKEN by name, REQUEST without caching', async ({ rest }) => {
  const status = async (path: string, headers: Record<string, string>) => (await fetch(`${rest}/${path}`, { headers })).status;
  assert.equal([await status('token', {}), await status('token', { authorization: 'no' }), await status('token', { authorization: 'yes' })], [401, 403, 200]);
  // resultTtlInSeconds: 0: a REQUEST authorizer runs even without its identity source (AWS checks them only when caching).
  assert.equal([await status('request', {}), await status('request', { 'x-token': 'no' }), await status('request', { 'x-token': 'yes' })], [403, 403, 200]);
});

guarded('private: true needs a key of provider.apiGateway.apiKeys', async ({ rest, deploy }) => {
  const generated = /^ {2}generated: (\S+)$/m.exec(deploy.stdout)![1];
  const status = async (key?: string) => (await fetch(`${rest}/private`, { headers: key ? { 'x-api-key': key } : {} })).status;
  assert.equal([await status(), await status('wrong'), await status('tester-key-0123456789abcdef'), await status(generated)], [403, 403, 200, 200]);
});

guarded('a Cognito authorizer is refused without a token and flagged as not enforced with one', async ({ rest }) => {
  assert.is((await fetch(`${rest}/pool`)).status, 401);
  const flagged = await fetch(`${rest}/pool`, { headers: { authorization: 'a.b.c' } });
  assert.equal([flagged.status, flagged.headers.get('x-fw-local-not-enforced')], [200, 'COGNITO_USER_POOLS authorizer pool: the token is not verified by the local cloud']);
});

guarded.run();
