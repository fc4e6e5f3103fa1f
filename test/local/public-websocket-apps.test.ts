import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CloudWatchLogsClient, FilterLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { runFw } from '../helpers/cli';
import { LOCAL_CREDENTIALS, startTestCloud, TEST_ENV, type TestCloud } from '../helpers/local-cloud';
import { opened } from '../helpers/websocket-client';

const REPO = join(__dirname, '..', '..', '..');
const { serverlessOfflineWebsocketApp, serverlessWebsocketFixture } = require(join(REPO, 'scripts', 'public-apps.js')) as {
  serverlessOfflineWebsocketApp(options?: { log?: (line: string) => void }): { dir: string; source: string };
  /** `config`: a copy of the service file with the runtime v3 accepts (see scripts/public-apps.js). */
  serverlessWebsocketFixture(options?: { log?: (line: string) => void }): { dir: string; source: string; config: string };
};

/**
 * WebSocket apps nobody here wrote, deployed with `fw deploy --local` and driven with `ws` clients.
 * Whose is what: Serverless, Inc.'s WebSocket fixture, as serverless@2.13.0 published it with the
 * integration test that drove it on AWS (scripts/public-apps.js: serverlessWebsocketFixture), and
 * serverless-offline's contributors wrote it to check their emulator against AWS, and
 * serverless-offline@5.0.1 published it in its tarball as manual_test_websocket/ (handler.js,
 * scripts/serverless..yml + scripts/serverless.aws.yml, README.md, package.json). It is installed from
 * the npm registry into a cache outside the repository and its service file assembled as its own
 * `npm run deploy-aws` does (scripts/public-apps.js); nothing of it is rewritten. Its mocha tests are
 * not in the tarball, so the routes are driven here as handler.js answers them: every reply goes back
 * through aws-sdk v2's ApiGatewayManagementApi.postToConnection on
 * `requestContext.domainName + '/' + requestContext.stage`, and the listener's connection id is kept
 * in the DynamoDB table `listeners` its service file declares.
 */
const app = suite<{ t: TestCloud }>('public WebSocket apps run unchanged in the local cloud');

app.before(async (context) => {
  context.t = await startTestCloud();
});

app.after(async (context) => {
  await context.t.stop();
});

app('manual_test_websocket answers each route through @connections, tells its listener of connects and disconnects, and reports a failing function as API Gateway does', async (context) => {
  const { dir } = serverlessOfflineWebsocketApp();
  assert.match(readFileSync(join(dir, 'handler.js'), 'utf8'), 'return apigwManagementApi.postToConnection({ConnectionId: connectionId, Data: sendee}).promise();');
  assert.match(readFileSync(join(dir, 'node_modules', 'aws-sdk', 'package.json'), 'utf8'), /"version": "2\./);
  const deployed = await runFw(['deploy', '--local'], dir, { ...TEST_ENV, FW_LOCAL_PORT: String(context.t.cloud.port) });
  assert.is(deployed.code, 0, deployed.stderr);
  const url = deployed.stdout.split('\n').map((line) => line.trim()).find((line) => line.startsWith('ws://'));
  assert.ok(url, deployed.stdout);

  const listener = await opened(url!);
  listener.socket.send(JSON.stringify({ action: 'getClientInfo' }));
  const listenerInfo = JSON.parse(await listener.next()) as { info: { id: string } };
  assert.equal(listenerInfo, { action: 'update', event: 'client-info', info: { id: listenerInfo.info.id } });
  assert.match(listenerInfo.info.id, /^[A-Za-z0-9+/_-]{12,}=?$/);
  // Anything without a known action goes to $default.
  listener.socket.send('hello there');
  assert.is(await listener.next(), "Error: No Supported Action in Payload 'hello there'");
  listener.socket.send(JSON.stringify({ action: 'registerListener' }));
  assert.equal(JSON.parse(await listener.next()), { action: 'update', event: 'register-listener', info: { id: listenerInfo.info.id } });
  const dynamodb = new DynamoDBClient({ endpoint: context.t.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
  const stored = await dynamodb.send(new GetItemCommand({ TableName: 'listeners', Key: { name: { S: 'default' } } }));
  assert.equal(stored.Item, { name: { S: 'default' }, id: { S: listenerInfo.info.id } });

  // A second client: its $connect function tells the listener.
  const other = await opened(url!);
  const connected = JSON.parse(await listener.next()) as { info: { id: string } };
  other.socket.send(JSON.stringify({ action: 'getClientInfo' }));
  assert.equal(JSON.parse(await other.next()), { action: 'update', event: 'client-info', info: { id: connected.info.id } });
  assert.equal(connected, { action: 'update', event: 'connect', info: { id: connected.info.id } });
  assert.is.not(connected.info.id, listenerInfo.info.id);

  // `send` posts data to other connections; one that does not exist makes postToConnection fail (GoneException).
  listener.socket.send(JSON.stringify({ action: 'send', data: 'Hi there', clients: [connected.info.id] }));
  assert.is(await other.next(), 'Hi there');
  listener.socket.send(JSON.stringify({ action: 'send', data: 'lost', clients: ['AAAAAAAAAAAAAAA='] }));
  assert.is(await listener.next(), 'Error: Could not Send all Messages');

  // Two functions claim makeMultiCalls; as Serverless v3 deploys the service (fw warns), the last one has the route.
  other.socket.send(JSON.stringify({ action: 'makeMultiCalls' }));
  assert.equal(JSON.parse(await other.next()), { action: 'update', event: 'made-call-2' });
  // makeError throws: the client gets API Gateway's own message, with its connection and request ids.
  other.socket.send(JSON.stringify({ action: 'makeError' }));
  const failure = JSON.parse(await other.next()) as { requestId: string };
  assert.equal(failure, { message: 'Internal server error', connectionId: connected.info.id, requestId: failure.requestId });
  assert.match(failure.requestId, /^[A-Za-z0-9+/_=-]{8,}$/);

  // Closing runs $disconnect, which tells the listener.
  other.socket.close();
  assert.equal(JSON.parse(await listener.next()), { action: 'update', event: 'disconnect', info: { id: connected.info.id } });
  listener.socket.send(JSON.stringify({ action: 'deleteListener' }));
  const until = Date.now() + 5000;
  while ((await dynamodb.send(new GetItemCommand({ TableName: 'listeners', Key: { name: { S: 'default' } } }))).Item && Date.now() < until) await new Promise((done) => setTimeout(done, 50));
  assert.is((await dynamodb.send(new GetItemCommand({ TableName: 'listeners', Key: { name: { S: 'default' } } }))).Item, undefined);
  listener.socket.close();
  await listener.closed;
  assert.equal(listener.messages, []);
});

app('Serverless’s own WebSocket fixture answers its hello route and writes its stage’s access log, as its integration test checks on AWS', async (context) => {
  const { dir, config } = serverlessWebsocketFixture();
  const deployed = await runFw(['deploy', '--local', '--config', config], dir, { ...TEST_ENV, FW_LOCAL_PORT: String(context.t.cloud.port) });
  assert.is(deployed.code, 0, deployed.stderr);
  const url = deployed.stdout.split('\n').map((line) => line.trim()).find((line) => line.startsWith('ws://'));
  assert.ok(url, deployed.stdout);
  // "Two-Way Setup": send { action: 'hello', name: 'serverless' }, expect the message 'Hello, serverless'.
  const client = await opened(url!);
  client.socket.send(JSON.stringify({ action: 'hello', name: 'serverless' }));
  assert.is(await client.next(), 'Hello, serverless');
  // "Minimal Setup": 'test message' goes to $default, which answers nothing; the stage's access log
  // group /aws/websocket/<stack> (provider.logs.websocket) gets its events.
  client.socket.send('test message');
  client.socket.close();
  await client.closed;
  assert.equal(client.messages, []);
  const logs = new CloudWatchLogsClient({ endpoint: context.t.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
  const eventsOf = async (group: string) => ((await logs.send(new FilterLogEventsCommand({ logGroupName: group }))).events ?? []).map((event) => event.message ?? '');
  const until = Date.now() + 5000;
  while ((await eventsOf('/aws/websocket/service-dev')).length < 4 && Date.now() < until) await new Promise((done) => setTimeout(done, 50));
  const access = await eventsOf('/aws/websocket/service-dev');
  // Serverless's default format: sourceIp caller user [requestTime] "eventType routeKey connectionId" requestId.
  const line = /^127\.0\.0\.1 - - \[\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} \+0000\] "(\w+) (\S+) ([A-Za-z0-9+/=_-]+)" [A-Za-z0-9+/=_-]+$/;
  assert.equal(access.map((message) => line.exec(message)?.slice(1, 3) ?? message), [['CONNECT', '$connect'], ['MESSAGE', 'hello'], ['MESSAGE', '$default'], ['DISCONNECT', '$disconnect']]);
  assert.is(new Set(access.map((message) => line.exec(message)![3])).size, 1);
  const minimal = await eventsOf('/aws/lambda/service-dev-minimal');
  assert.equal(minimal.filter((message) => /\tINFO\t/.test(message)).map((message) => message.split('\tINFO\t')[1].trim()), ['Event type CONNECT', 'Event type MESSAGE', 'Event body test message', 'Event type DISCONNECT']);
});

app.run();
