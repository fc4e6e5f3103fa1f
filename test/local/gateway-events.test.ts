import { request as httpRequest } from 'node:http';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { startTestService, type TestService } from '../helpers/local-cloud';
import { outputsOf, shaped, UNKNOWN_CALLER } from './helpers';

const SERVICE = `service: events
frameworkVersion: '3'
provider:
  name: aws
  runtime: nodejs20.x
  httpApi:
    cors:
      allowedOrigins: [https://app.example]
      allowedHeaders: [content-type, x-token]
      allowedMethods: [GET, POST]
      maxAge: 600
  apiGateway:
    binaryMediaTypes: [image/png]
functions:
  echo:
    handler: handler.echo
    url: true
    events:
      - httpApi: 'GET /items/{id}'
      - httpApi: 'POST /items'
      - http:
          method: get
          path: items/{id}
          cors: true
      - http: POST items
  respond:
    handler: handler.respond
    events:
      - httpApi: 'GET /respond/{kind}'
      - http: GET respond/{kind}
  legacy:
    handler: handler.legacy
    events:
      - http:
          method: post
          path: legacy/{id}
          integration: lambda
`;

const HANDLER = `
exports.echo = async (event) => ({ statusCode: 200, body: JSON.stringify(event) });
const RESPONSES = {
  cookies: { statusCode: 201, cookies: ['a=1; Path=/', 'b=2'], body: 'ok' },
  multi: { statusCode: 200, headers: { 'x-one': 'single', 'x-both': 'replaced' }, multiValueHeaders: { 'x-both': ['1', '2'], 'Set-Cookie': ['c=3', 'd=4'] }, body: 'ok' },
  binary: { statusCode: 200, headers: { 'content-type': 'application/octet-stream' }, isBase64Encoded: true, body: Buffer.from([0, 255, 1]).toString('base64') },
  object: { hello: 'world' },
  text: 'plain',
  nocode: { body: 'no status code' },
};
exports.respond = async (event) => RESPONSES[event.pathParameters.kind];
exports.legacy = async (event) => {
  if (event.body.fail) throw new Error('[404] ' + event.body.fail);
  return { received: event };
};
`;

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A request with repeated header lines, which fetch would merge. */
function send(url: string, options: { method?: string; headers?: Record<string, string | string[]>; body?: Buffer | string } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    outgoing.on('error', reject);
    outgoing.setTimeout(10_000, () => outgoing.destroy(new Error('timed out')));
    outgoing.end(options.body);
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** HTTP APIs' request ids and REST APIs' extended ones: `IRrm5jULIAMEMeg=`. */
const SHORT_ID = /^[A-Za-z0-9+/]{15}=$/;
const TIME = /^\d\d\/[A-Z][a-z]{2}\/\d{4}:\d\d:\d\d:\d\d \+0000$/;
const EPOCH = /^\d{13}$/;

interface Context {
  t: TestService;
  http: string;
  rest: string;
  functionUrl: string;
  port: string;
}

const events = suite<Context>('the events deployed APIs send, and how they read responses, field by field as AWS documents them');

events.before(async (context) => {
  context.t = await startTestService({ 'serverless.yml': SERVICE, 'handler.js': HANDLER });
  const deployed = await context.t.fw('deploy');
  assert.is(deployed.code, 0, deployed.stderr);
  const outputs = outputsOf((await context.t.cfn.send(new DescribeStacksCommand({ StackName: 'events-dev' }))).Stacks![0]);
  context.http = outputs.HttpApiUrl;
  context.rest = outputs.ServiceEndpoint;
  context.functionUrl = outputs.EchoLambdaFunctionUrl;
  context.port = new URL(context.t.cloud.url).port;
});

events.after(async ({ t }) => {
  await t.stop();
});

const REQUEST_HEADERS = { 'x-multi': ['one', 'two'], cookie: 'session=abc; theme=dark', 'User-Agent': 'fidelity-test' };

events('HTTP API payload 2.0: cookies, comma-joined headers and query values, rawPath and rawQueryString as sent', async ({ http, port }) => {
  const response = await send(`${http}/items/42?a=1&a=2&b=x%20y`, { headers: REQUEST_HEADERS });
  const event = JSON.parse(String(response.body)) as Record<string, unknown>;
  const apiId = /execute-api\/([a-z0-9]+)/.exec(http)![1];
  assert.is(response.headers['apigw-requestid'], (event.requestContext as Record<string, unknown>).requestId);
  assert.equal(shaped(event, { 'requestContext.requestId': SHORT_ID, 'requestContext.time': TIME, 'requestContext.timeEpoch': EPOCH }), {
    version: '2.0',
    routeKey: 'GET /items/{id}',
    rawPath: '/items/42',
    rawQueryString: 'a=1&a=2&b=x%20y',
    cookies: ['session=abc', 'theme=dark'],
    headers: { 'x-multi': 'one,two', 'user-agent': 'fidelity-test', host: `127.0.0.1:${port}`, connection: 'keep-alive' },
    queryStringParameters: { a: '1,2', b: 'x y' },
    pathParameters: { id: '42' },
    requestContext: {
      accountId: '000000000000',
      apiId,
      domainName: `${apiId}.execute-api.us-east-1.amazonaws.com`,
      domainPrefix: apiId,
      http: { method: 'GET', path: '/items/42', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'fidelity-test' },
      requestId: '<requestContext.requestId>',
      routeKey: 'GET /items/{id}',
      stage: '$default',
      time: '<requestContext.time>',
      timeEpoch: '<requestContext.timeEpoch>',
    },
    isBase64Encoded: false,
  });
});

events('REST proxy (payload 1.0): headers as sent with multiValueHeaders, last query value with all of them, identity, stage path', async ({ rest, port }) => {
  const response = await send(`${rest}/items/42?a=1&a=2`, { headers: REQUEST_HEADERS });
  const event = JSON.parse(String(response.body)) as Record<string, unknown>;
  const apiId = /execute-api\/([a-z0-9]+)/.exec(rest)![1];
  const context = event.requestContext as Record<string, unknown>;
  assert.equal([response.headers['x-amzn-requestid'], response.headers['x-amz-apigw-id']], [context.requestId, context.extendedRequestId]);
  assert.equal(shaped(event, { 'requestContext.requestId': UUID, 'requestContext.extendedRequestId': SHORT_ID, 'requestContext.requestTime': TIME, 'requestContext.requestTimeEpoch': EPOCH }), {
    resource: '/items/{id}',
    path: '/items/42',
    httpMethod: 'GET',
    headers: { 'x-multi': 'two', cookie: 'session=abc; theme=dark', 'User-Agent': 'fidelity-test', Host: `127.0.0.1:${port}`, Connection: 'keep-alive' },
    multiValueHeaders: { 'x-multi': ['one', 'two'], cookie: ['session=abc; theme=dark'], 'User-Agent': ['fidelity-test'], Host: [`127.0.0.1:${port}`], Connection: ['keep-alive'] },
    queryStringParameters: { a: '2' },
    multiValueQueryStringParameters: { a: ['1', '2'] },
    requestContext: {
      accountId: '000000000000',
      apiId,
      domainName: `${apiId}.execute-api.us-east-1.amazonaws.com`,
      domainPrefix: apiId,
      extendedRequestId: '<requestContext.extendedRequestId>',
      httpMethod: 'GET',
      identity: { ...UNKNOWN_CALLER, sourceIp: '127.0.0.1', userAgent: 'fidelity-test' },
      path: '/dev/items/42',
      protocol: 'HTTP/1.1',
      requestId: '<requestContext.requestId>',
      requestTime: '<requestContext.requestTime>',
      requestTimeEpoch: '<requestContext.requestTimeEpoch>',
      resourceId: context.resourceId,
      resourcePath: '/items/{id}',
      stage: 'dev',
    },
    pathParameters: { id: '42' },
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
  });
  assert.match(String(context.resourceId), /^[a-z0-9]{6}$/);
});

events('function URL: payload 2.0 with $default route and the URL id as domain prefix', async ({ functionUrl }) => {
  const response = await send(`${functionUrl}some/path?q=1`, { headers: { 'User-Agent': 'fidelity-test' } });
  const event = JSON.parse(String(response.body)) as { routeKey: string; rawPath: string; rawQueryString: string; requestContext: Record<string, unknown> };
  const urlId = /lambda-url\/([a-z0-9]+)/.exec(functionUrl)![1];
  assert.equal(
    [event.routeKey, event.rawPath, event.rawQueryString, event.requestContext.domainName, event.requestContext.domainPrefix, event.requestContext.stage],
    ['$default', '/some/path', 'q=1', `${urlId}.lambda-url.us-east-1.on.aws`, urlId, '$default'],
  );
});

events('binary request bodies arrive base64-encoded, text bodies as they are', async ({ http }) => {
  const bodies = [];
  for (const [type, body] of [
    ['application/octet-stream', Buffer.from([0, 1, 254, 255])],
    ['application/json', Buffer.from('{"a":1}')],
    ['text/plain; charset=utf-8', Buffer.from('héllo')],
  ] as const) {
    const event = JSON.parse(String((await send(`${http}/items`, { method: 'POST', headers: { 'content-type': type }, body })).body)) as { body: string; isBase64Encoded: boolean };
    bodies.push([event.body, event.isBase64Encoded]);
  }
  assert.equal(bodies, [
    ['AAH+/w==', true],
    ['{"a":1}', false],
    ['héllo', false],
  ]);
});

events('REST proxy bodies: text unless the media type is in binaryMediaTypes (a POST without Content-Type and octet-stream included), whole events', async ({ rest, port }) => {
  const apiId = /execute-api\/([a-z0-9]+)/.exec(rest)![1];
  const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255]);
  const cases: [name: string, headers: Record<string, string>, body: Buffer | undefined, expected: { body: string | null; isBase64Encoded: boolean }][] = [
    ['json', { 'content-type': 'application/json' }, Buffer.from('{"text":"Learn Serverless"}'), { body: '{"text":"Learn Serverless"}', isBase64Encoded: false }],
    ['no content-type', {}, Buffer.from('{"text":"héllo"}'), { body: '{"text":"héllo"}', isBase64Encoded: false }],
    ['octet-stream, not a binary media type', { 'content-type': 'application/octet-stream' }, Buffer.from('{"a":1}'), { body: '{"a":1}', isBase64Encoded: false }],
    ['form', { 'content-type': 'application/x-www-form-urlencoded' }, Buffer.from('a=1&b=2'), { body: 'a=1&b=2', isBase64Encoded: false }],
    ['image/png, a binary media type', { 'content-type': 'image/png' }, PNG, { body: PNG.toString('base64'), isBase64Encoded: true }],
    ['no body', {}, undefined, { body: null, isBase64Encoded: false }],
  ];
  const seen = [];
  const expected = [];
  for (const [name, headers, body, expectedBody] of cases) {
    const sent = { ...headers, 'User-Agent': 'fidelity-test', 'Content-Length': String(body?.length ?? 0) };
    const response = await send(`${rest}/items`, { method: 'POST', headers: sent, body });
    const event = JSON.parse(String(response.body)) as { requestContext: Record<string, unknown> };
    seen.push([name, response.status, shaped(event, { 'requestContext.requestId': UUID, 'requestContext.extendedRequestId': SHORT_ID, 'requestContext.requestTime': TIME, 'requestContext.requestTimeEpoch': EPOCH })]);
    const wire = { ...sent, Host: `127.0.0.1:${port}`, Connection: 'keep-alive' };
    expected.push([
      name,
      200,
      {
        resource: '/items',
        path: '/items',
        httpMethod: 'POST',
        headers: wire,
        multiValueHeaders: Object.fromEntries(Object.entries(wire).map(([key, value]) => [key, [value]])),
        queryStringParameters: null,
        multiValueQueryStringParameters: null,
        requestContext: {
          accountId: '000000000000',
          apiId,
          domainName: `${apiId}.execute-api.us-east-1.amazonaws.com`,
          domainPrefix: apiId,
          extendedRequestId: '<requestContext.extendedRequestId>',
          httpMethod: 'POST',
          identity: { ...UNKNOWN_CALLER, sourceIp: '127.0.0.1', userAgent: 'fidelity-test' },
          path: '/dev/items',
          protocol: 'HTTP/1.1',
          requestId: '<requestContext.requestId>',
          requestTime: '<requestContext.requestTime>',
          requestTimeEpoch: '<requestContext.requestTimeEpoch>',
          resourceId: event.requestContext.resourceId,
          resourcePath: '/items',
          stage: 'dev',
        },
        pathParameters: null,
        stageVariables: null,
        ...expectedBody,
      },
    ]);
  }
  assert.equal(seen, expected);
});

const RESPONSE_TABLE: [kind: string, http: [number, string, Record<string, unknown>], rest: [number, string, Record<string, unknown>]][] = [
  ['cookies', [201, 'ok', { 'set-cookie': ['a=1; Path=/', 'b=2'] }], [201, 'ok', { 'set-cookie': undefined }]],
  ['multi', [200, 'ok', { 'x-one': 'single', 'x-both': 'replaced', 'set-cookie': undefined }], [200, 'ok', { 'x-one': 'single', 'x-both': '1, 2', 'set-cookie': ['c=3', 'd=4'] }]],
  ['binary', [200, '00ff01', { 'content-type': 'application/octet-stream' }], [200, '00ff01', { 'content-type': 'application/octet-stream' }]],
  ['object', [200, '7b2268656c6c6f223a22776f726c64227d', { 'content-type': 'application/json' }], [502, Buffer.from('{"message":"Internal server error"}').toString('hex'), {}]],
  ['text', [200, Buffer.from('plain').toString('hex'), { 'content-type': 'application/json' }], [502, Buffer.from('{"message":"Internal server error"}').toString('hex'), {}]],
];

events('responses: cookies and multiValueHeaders as separate headers, base64 bodies decoded, payload 2.0 inference, payload 1.0 requires statusCode', async ({ http, rest }) => {
  for (const [kind, expectedHttp, expectedRest] of RESPONSE_TABLE) {
    for (const [base, expected] of [
      [http, expectedHttp],
      [rest, expectedRest],
    ] as const) {
      const response = await send(`${base}/respond/${kind}`);
      const text = (kind === 'cookies' || kind === 'multi') ? Buffer.from(String(response.body)).toString('utf8') : response.body.toString('hex');
      const headers = Object.fromEntries(Object.keys(expected[2]).map((name) => [name, response.headers[name]]));
      assert.equal([kind, base === http ? 'http' : 'rest', response.status, text, headers], [kind, base === http ? 'http' : 'rest', expected[0], expected[1], expected[2]]);
    }
  }
});

events('CORS preflights: the HTTP API answers from its cors configuration, the REST API from its OPTIONS mock method', async ({ http, rest }) => {
  const preflight = { origin: 'https://app.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-token' };
  const httpAnswer = await send(`${http}/items/1`, { method: 'OPTIONS', headers: preflight });
  assert.equal([httpAnswer.status, httpAnswer.headers['access-control-allow-origin'], httpAnswer.headers['access-control-allow-methods'], httpAnswer.headers['access-control-allow-headers'], httpAnswer.headers['access-control-max-age']], [
    204,
    'https://app.example',
    'GET,POST',
    'content-type,x-token',
    '600',
  ]);
  const restAnswer = await send(`${rest}/items/1`, { method: 'OPTIONS', headers: preflight });
  assert.equal([restAnswer.status, restAnswer.headers['access-control-allow-origin'], restAnswer.headers['access-control-allow-methods']], [200, '*', 'OPTIONS,GET']);
});

events('REST integration: lambda: the request template\'s event in, the status by the error message\'s [code] out', async ({ rest, port }) => {
  const json = await send(`${rest}/legacy/7?q=1`, { method: 'POST', headers: { 'content-type': 'application/json', 'User-Agent': 'fidelity-test' }, body: '{"name":"Ada"}' });
  assert.equal([json.status, json.headers['content-type']], [200, 'application/json']);
  assert.equal(JSON.parse(String(json.body)), {
    received: {
      body: { name: 'Ada' },
      method: 'POST',
      principalId: '',
      stage: 'dev',
      cognitoPoolClaims: { sub: '' },
      enhancedAuthContext: {},
      headers: { 'content-type': 'application/json', 'User-Agent': 'fidelity-test', Host: `127.0.0.1:${port}`, Connection: 'keep-alive', 'Content-Length': '14' },
      query: { q: '1' },
      path: { id: '7' },
      identity: {
        accessKey: '',
        accountId: '',
        caller: '',
        cognitoAuthenticationProvider: '',
        cognitoAuthenticationType: '',
        cognitoIdentityId: '',
        cognitoIdentityPoolId: '',
        principalOrgId: '',
        user: '',
        userArn: '',
        sourceIp: '127.0.0.1',
        userAgent: 'fidelity-test',
      },
      stageVariables: {},
      requestPath: '/legacy/{id}',
    },
  });
  const form = await send(`${rest}/legacy/7`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1&b=x+y%21' });
  assert.equal((JSON.parse(String(form.body)) as { received: { body: unknown } }).received.body, { a: '1', b: 'x y!' });
  const failed = await send(`${rest}/legacy/7`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"fail":"no such item"}' });
  const error = JSON.parse(String(failed.body)) as { errorType: string; errorMessage: string };
  assert.equal([failed.status, error.errorType, error.errorMessage], [404, 'Error', '[404] no such item']);
});

events.run();
