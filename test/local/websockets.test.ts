import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { ApiGatewayManagementApiClient, DeleteConnectionCommand, GetConnectionCommand, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import { LOCAL_CREDENTIALS, startTestService, type TestService } from '../helpers/local-cloud';
import { outputsOf, shaped } from './helpers';
import { connect, opened } from '../helpers/websocket-client';

const SERVICE = `service: sockets
frameworkVersion: '3'
provider:
  name: aws
  runtime: nodejs20.x
  environment:
    BUCKET: { Ref: EventsBucket }
functions:
  auth:
    handler: handler.auth
  connect:
    handler: handler.connect
    events:
      - websocket:
          route: $connect
          authorizer:
            name: auth
            identitySource:
              - route.request.querystring.token
  disconnect:
    handler: handler.disconnect
    events:
      - websocket: $disconnect
  echo:
    handler: handler.echo
    events:
      - websocket:
          route: echo
  hello:
    handler: handler.hello
    events:
      - websocket:
          route: hello
          routeResponseSelectionExpression: $default
  fallback:
    handler: handler.fallback
    events:
      - websocket: $default
resources:
  Resources:
    EventsBucket:
      Type: AWS::S3::Bucket
  Outputs:
    EventsBucketName:
      Value: { Ref: EventsBucket }
`;

// The callback client is built the standard way, from the event's domainName and stage.
const HANDLER = `
const { S3Client, PutObjectCommand } = require('@aws-sdk/client-s3');
const { ApiGatewayManagementApiClient, PostToConnectionCommand } = require('@aws-sdk/client-apigatewaymanagementapi');
const s3 = new S3Client({ forcePathStyle: true });
const save = (key, value) => s3.send(new PutObjectCommand({ Bucket: process.env.BUCKET, Key: key, Body: JSON.stringify(value) }));
const push = (event, data) =>
  new ApiGatewayManagementApiClient({ endpoint: 'https://' + event.requestContext.domainName + '/' + event.requestContext.stage })
    .send(new PostToConnectionCommand({ ConnectionId: event.requestContext.connectionId, Data: JSON.stringify(data) }));
exports.auth = async (event) => {
  await save('authorizer.json', event);
  const effect = event.queryStringParameters.token === 'secret' ? 'Allow' : 'Deny';
  return { principalId: 'user-1', policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: event.methodArn }] }, context: { user: 'alice', level: 3 } };
};
exports.connect = async (event) => {
  const fail = event.queryStringParameters.fail;
  if (fail === 'throw') throw new Error('refused by the function');
  if (fail) return { statusCode: Number(fail) };
  await save('connect.json', event);
  return { statusCode: 200 };
};
exports.disconnect = async (event) => { await save('disconnect/' + event.requestContext.connectionId + '.json', event); return { statusCode: 200 }; };
exports.echo = async (event) => {
  const { routeKey, authorizer, connectionId } = event.requestContext;
  await push(event, { echo: JSON.parse(event.body).data, routeKey, authorizer, connectionId });
  return { statusCode: 200 };
};
exports.hello = async (event) => ({ statusCode: 200, body: 'hello ' + JSON.parse(event.body).name });
exports.fallback = async (event) => { await push(event, { fallback: event.body, routeKey: event.requestContext.routeKey }); return { statusCode: 200 }; };
`;

interface Context {
  t: TestService;
  deployOutput: string;
  url: string;
  management: ApiGatewayManagementApiClient;
}


async function objectJson(t: TestService, bucket: string, key: string, timeoutMs = 5000): Promise<Record<string, unknown>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      const object = await t.s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return JSON.parse(await object.Body!.transformToString()) as Record<string, unknown>;
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

const SHORT_ID = /^[A-Za-z0-9+/]{15}=$/;
// URL-safe, as AWS's are (e.g. `Z_ml3dT9oAMCEcQ=`): the id goes into `@connections/{id}` paths unescaped.
const CONNECTION_ID = /^[A-Za-z0-9_-]{15}=$/;
const REQUEST_TIME = /^\d\d\/[A-Z][a-z]{2}\/\d{4}:\d\d:\d\d:\d\d \+0000$/;
const EPOCH = /^\d{13}$/;

const sockets = suite<Context>('WebSocket APIs in the local cloud');

sockets.before(async (context) => {
  context.t = await startTestService({ 'serverless.yml': SERVICE, 'handler.js': HANDLER });
  const deployed = await context.t.fw('deploy');
  assert.is(deployed.code, 0, deployed.stderr);
  context.deployOutput = deployed.stdout;
  const stack = (await context.t.cfn.send(new DescribeStacksCommand({ StackName: 'sockets-dev' }))).Stacks![0];
  context.url = outputsOf(stack).ServiceEndpointWebsocket;
  context.management = new ApiGatewayManagementApiClient({ endpoint: context.url.replace(/^ws/, 'http'), region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
});

sockets.after(async (context) => {
  await context.t.stop();
});

sockets('the ServiceEndpointWebsocket output, and the endpoint fw deploy prints, is a ws:// URL on the local cloud', ({ t, url, deployOutput }) => {
  assert.match(url, new RegExp(`^${t.cloud.url.replace(/^http/, 'ws')}/_fw/execute-api/[a-z0-9]+/dev$`));
  assert.ok(deployOutput.includes(`endpoints:\n  ${url}\n`), deployOutput);
});

sockets('$connect: the authorizer refuses without a token (401) and with a denied one (403); the function refuses with its status, or 502 when it throws', async ({ url }) => {
  const refusals = await Promise.all([url, `${url}?token=wrong`, `${url}?token=secret&fail=400`, `${url}?token=secret&fail=throw`].map((address) => connect(address)));
  assert.equal(refusals, [
    { status: 401, body: '{"message":"Unauthorized"}' },
    { status: 403, body: '{"Message":"User is not authorized to access this resource with an explicit deny"}' },
    { status: 400, body: '' },
    { status: 502, body: '{"message":"Internal server error"}' },
  ]);
});

sockets('$connect: the authorizer and the function get the events API Gateway sends', async ({ t, url }) => {
  const client = await opened(`${url}?token=secret&lang=en&lang=fr`);
  const bucket = outputsOf((await t.cfn.send(new DescribeStacksCommand({ StackName: 'sockets-dev' }))).Stacks![0]).EventsBucketName;
  const apiId = /execute-api\/([a-z0-9]+)\//.exec(url)![1];
  const port = new URL(t.cloud.url).port;
  const domainName = `${apiId}.execute-api.localhost:${port}`;
  const shapes = {
    'headers.Sec-WebSocket-Key': /^[A-Za-z0-9+/]{22}==$/,
    'multiValueHeaders.Sec-WebSocket-Key\\[0\\]': /^[A-Za-z0-9+/]{22}==$/,
    'headers.X-Amzn-Trace-Id': /^Root=1-[0-9a-f]{8}-[0-9a-f]{24}$/,
    'multiValueHeaders.X-Amzn-Trace-Id\\[0\\]': /^Root=1-[0-9a-f]{8}-[0-9a-f]{24}$/,
    'requestContext.(extendedRequestId|requestId)': SHORT_ID,
    'requestContext.requestTime': REQUEST_TIME,
    'requestContext.(connectedAt|requestTimeEpoch)': EPOCH,
    'requestContext.connectionId': CONNECTION_ID,
  };
  const headers = {
    'Sec-WebSocket-Version': '13',
    'Sec-WebSocket-Key': '<headers.Sec-WebSocket-Key>',
    'Sec-WebSocket-Extensions': 'permessage-deflate; client_max_window_bits',
    Host: `127.0.0.1:${port}`,
    'X-Amzn-Trace-Id': '<headers.X-Amzn-Trace-Id>',
    'X-Forwarded-For': '127.0.0.1',
    'X-Forwarded-Port': port,
    'X-Forwarded-Proto': 'http',
  };
  const multiValueHeaders = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value.replace(/^<headers\.(.*)>$/, `<multiValueHeaders.$1\\[0\\]>`)]]));
  const requestContext = {
    routeKey: '$connect',
    eventType: 'CONNECT',
    extendedRequestId: '<requestContext.(extendedRequestId|requestId)>',
    requestTime: '<requestContext.requestTime>',
    messageDirection: 'IN',
    stage: 'dev',
    connectedAt: '<requestContext.(connectedAt|requestTimeEpoch)>',
    requestTimeEpoch: '<requestContext.(connectedAt|requestTimeEpoch)>',
    identity: { userAgent: '', sourceIp: '127.0.0.1' },
    requestId: '<requestContext.(extendedRequestId|requestId)>',
    domainName,
    connectionId: '<requestContext.connectionId>',
    apiId,
  };
  const query = { queryStringParameters: { token: 'secret', lang: 'fr' }, multiValueQueryStringParameters: { token: ['secret'], lang: ['en', 'fr'] } };
  assert.equal(shaped(await objectJson(t, bucket, 'authorizer.json'), shapes), {
    type: 'REQUEST',
    methodArn: `arn:aws:execute-api:us-east-1:000000000000:${apiId}/dev/$connect`,
    headers,
    multiValueHeaders,
    ...query,
    requestContext,
    stageVariables: {},
  });
  assert.equal(shaped(await objectJson(t, bucket, 'connect.json'), shapes), {
    headers,
    multiValueHeaders,
    ...query,
    requestContext: { ...requestContext, authorizer: { principalId: 'user-1', user: 'alice', level: '3', integrationLatency: 0 } },
    isBase64Encoded: false,
  });
  client.socket.close();
  await client.closed;
});

sockets('messages: a custom route by action, a route response, $default for the rest; the functions push with PostToConnection; $disconnect on close', async ({ t, url }) => {
  const client = await opened(`${url}?token=secret`);
  client.socket.send(JSON.stringify({ action: 'echo', data: 'ping' }));
  const pushed = JSON.parse(await client.next()) as { connectionId: string };
  const { connectionId } = pushed;
  assert.equal(shaped(pushed, { connectionId: CONNECTION_ID }), {
    echo: 'ping',
    routeKey: 'echo',
    authorizer: { principalId: 'user-1', user: 'alice', level: '3', integrationLatency: 0 },
    connectionId: '<connectionId>',
  });
  client.socket.send(JSON.stringify({ action: 'hello', name: 'Ada' }));
  assert.is(await client.next(), 'hello Ada');
  client.socket.send(JSON.stringify({ action: 'unknown' }));
  assert.equal(JSON.parse(await client.next()), { fallback: '{"action":"unknown"}', routeKey: '$default' });
  client.socket.send('not json');
  assert.equal(JSON.parse(await client.next()), { fallback: 'not json', routeKey: '$default' });
  client.socket.close();
  await client.closed;
  // The client closed without a status: $disconnect says so, as API Gateway does.
  const bucket = outputsOf((await t.cfn.send(new DescribeStacksCommand({ StackName: 'sockets-dev' }))).Stacks![0]).EventsBucketName;
  const disconnected = (await objectJson(t, bucket, `disconnect/${connectionId}.json`)).requestContext as Record<string, unknown>;
  assert.equal([disconnected.eventType, disconnected.disconnectStatusCode, disconnected.disconnectReason], ['DISCONNECT', 1005, 'Client-side close frame status not set']);
});

sockets('GetConnection and DeleteConnection through the SDK; $disconnect runs; a gone connection is a GoneException', async ({ t, url, management }) => {
  const client = await opened(`${url}?token=secret`);
  client.socket.send(JSON.stringify({ action: 'echo', data: 'who am i' }));
  const { connectionId } = JSON.parse(await client.next()) as { connectionId: string };
  const described = await management.send(new GetConnectionCommand({ ConnectionId: connectionId }));
  assert.equal(
    { ...described, $metadata: undefined, ConnectedAt: described.ConnectedAt instanceof Date, LastActiveAt: described.LastActiveAt! >= described.ConnectedAt! },
    { $metadata: undefined, ConnectedAt: true, Identity: { SourceIp: '127.0.0.1', UserAgent: '' }, LastActiveAt: true },
  );
  await management.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: 'from the test' }));
  assert.is(await client.next(), 'from the test');
  await management.send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
  assert.equal(await client.closed, { code: 1000, reason: 'Connection closed by the server' });
  const bucket = outputsOf((await t.cfn.send(new DescribeStacksCommand({ StackName: 'sockets-dev' }))).Stacks![0]).EventsBucketName;
  const disconnected = await objectJson(t, bucket, `disconnect/${connectionId}.json`);
  const context = disconnected.requestContext as Record<string, unknown>;
  assert.equal([context.routeKey, context.eventType, context.disconnectStatusCode, context.disconnectReason], ['$disconnect', 'DISCONNECT', 1000, 'Connection closed by the server']);
  const gone = await management.send(new GetConnectionCommand({ ConnectionId: connectionId })).catch((error: Error & { $metadata: { httpStatusCode: number } }) => error);
  assert.equal([(gone as Error).name, (gone as { $metadata: { httpStatusCode: number } }).$metadata.httpStatusCode], ['GoneException', 410]);
});

sockets('@connections needs a signature', async ({ url }) => {
  const response = await fetch(`${url.replace(/^ws/, 'http')}/@connections/abc%3D`, { method: 'POST', body: 'x' });
  assert.equal([response.status, await response.json()], [403, { message: 'Missing Authentication Token' }]);
});

sockets('a message over 128 KB closes the connection with 1009', async ({ url }) => {
  const client = await opened(`${url}?token=secret`);
  client.socket.send('x'.repeat(128 * 1024 + 1));
  assert.is((await client.closed).code, 1009);
});

sockets.run();
