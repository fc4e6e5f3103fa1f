import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CloudWatchLogsClient } from '@aws-sdk/client-cloudwatch-logs';
import { EventStreamCodec } from '@smithy/core/event-streams';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { logGroupArn, tailFunctionLogs } from '../../src/dev/live-tail';
import { LOCAL_CREDENTIALS, startTestCloud } from '../helpers/local-cloud';

const codec = new EventStreamCodec(bytes => Buffer.from(bytes).toString('utf8'), text => Buffer.from(text, 'utf8'));

/** One event-stream frame as CloudWatch Logs sends it in a StartLiveTail response. */
const frame = (eventType: string, body: unknown) =>
  codec.encode({
    headers: {
      ':message-type': { type: 'string', value: 'event' },
      ':event-type': { type: 'string', value: eventType },
      ':content-type': { type: 'string', value: 'application/json' },
    },
    body: Buffer.from(JSON.stringify(body)),
  });

interface Fake {
  url: string;
  /** The log groups of each StartLiveTail request, in order. */
  sessions: string[][];
  operations: string[];
  close(): Promise<void>;
}

/** A CloudWatch Logs endpoint on 127.0.0.1: `handle` answers each operation (X-Amz-Target without its prefix). */
async function fakeLogs(handle: (operation: string, body: Record<string, unknown>, res: ServerResponse, fake: Fake) => void): Promise<Fake> {
  const fake = { url: '', sessions: [], operations: [] } as unknown as Fake;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', chunk => (text += chunk));
    req.on('end', () => {
      const operation = String(req.headers['x-amz-target']).replace('Logs_20140328.', '');
      fake.operations.push(operation);
      handle(operation, JSON.parse(text || '{}'), res, fake);
    });
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => {
    server.closeAllConnections();
    return new Promise(resolve => server.close(() => resolve()));
  };
  return fake;
}

const client = (url: string) => new CloudWatchLogsClient({ endpoint: url, region: 'eu-west-1', credentials: LOCAL_CREDENTIALS, disableHostPrefix: true });

async function eventually<T>(what: string, check: () => T | undefined, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`Waited ${ms} ms for ${what}`);
    await new Promise(resolve => setTimeout(resolve, 20));
  }
}

const tail = suite('fw dev logs through CloudWatch Logs Live Tail');

tail('log group ARNs name the partition of the region', () => {
  assert.is(logGroupArn('eu-west-1', '123456789012', '/aws/lambda/app-dev-hello'), 'arn:aws:logs:eu-west-1:123456789012:log-group:/aws/lambda/app-dev-hello');
  assert.is(logGroupArn('cn-north-1', '123456789012', '/aws/lambda/x'), 'arn:aws-cn:logs:cn-north-1:123456789012:log-group:/aws/lambda/x');
  assert.is(logGroupArn('us-gov-west-1', '123456789012', '/aws/lambda/x'), 'arn:aws-us-gov:logs:us-gov-west-1:123456789012:log-group:/aws/lambda/x');
});

tail('streams every function in sessions of at most 10 log groups, each line prefixed by the function', async () => {
  const fake = await fakeLogs((_operation, body, res, state) => {
    const groups = body.logGroupIdentifiers as string[];
    state.sessions.push(groups);
    res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
    res.write(frame('sessionStart', { requestId: 'r', sessionId: `s${state.sessions.length}`, logGroupIdentifiers: groups }));
    const sessionResults = groups.map(group => ({
      logGroupIdentifier: group,
      logStreamName: '2026/11/25/[$LATEST]abc',
      message: `hello from ${group.split('/').pop()}\n`,
      timestamp: 1,
      ingestionTime: 2,
    }));
    res.write(frame('sessionUpdate', { sessionMetadata: { sampled: false }, sessionResults }));
    // the session stays open, as Live Tail's does, until the client ends it
  });
  const out: string[] = [];
  const functions = Array.from({ length: 12 }, (_, i) => ({ key: `f${i}`, name: `app-dev-f${i}` }));
  const logs = tailFunctionLogs({ region: 'eu-west-1', endpoint: fake.url }, () => functions, text => out.push(text), { account: '123456789012', client: client(fake.url), intervalMs: 50 });
  try {
    await eventually('12 log lines', () => (out.length >= 12 ? true : undefined));
    assert.equal(fake.sessions, [
      functions.slice(0, 10).map(fn => `arn:aws:logs:eu-west-1:123456789012:log-group:/aws/lambda/${fn.name}`),
      functions.slice(10).map(fn => `arn:aws:logs:eu-west-1:123456789012:log-group:/aws/lambda/${fn.name}`),
    ]);
    assert.equal([...out].sort(), functions.map(fn => `[${fn.key}] hello from ${fn.name}\n`).sort());
  } finally {
    await logs.stop();
    await fake.close();
  }
});

tail('falls back to polling FilterLogEvents where StartLiveTail is an unknown operation', async () => {
  const fake = await fakeLogs((operation, body, res) => {
    if (operation === 'StartLiveTail') {
      res.writeHead(400, { 'content-type': 'application/x-amz-json-1.1' });
      res.end(JSON.stringify({ __type: 'UnknownOperationException', message: 'no live tail here' }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
    const events = body.logGroupName === '/aws/lambda/app-dev-users' ? [{ logStreamName: 's', timestamp: Date.now(), message: 'polled line\n', eventId: '1' }] : [];
    res.end(JSON.stringify({ events }));
  });
  const out: string[] = [];
  const logs = tailFunctionLogs({ region: 'eu-west-1', endpoint: fake.url, credentials: LOCAL_CREDENTIALS }, () => [{ key: 'users', name: 'app-dev-users' }], text => out.push(text), {
    account: '123456789012',
    client: client(fake.url),
    intervalMs: 50,
  });
  try {
    await eventually('the polled line', () => (out.includes('[users] polled line\n') ? true : undefined));
    assert.is(out[0], `Live Tail is not available at ${fake.url} (UnknownOperationException): reading the logs with FilterLogEvents every 50 ms\n`);
    assert.equal(out.filter(line => line === '[users] polled line\n').length, 1);
    assert.is(fake.operations[0], 'StartLiveTail');
    assert.ok(fake.operations.slice(1).every(operation => operation === 'FilterLogEvents'));
  } finally {
    await logs.stop();
    await fake.close();
  }
});

tail('the local cloud does not serve StartLiveTail: fw says so and polls it', async () => {
  const test = await startTestCloud();
  const out: string[] = [];
  const logs = tailFunctionLogs({ region: 'us-east-1', endpoint: test.cloud.url, credentials: LOCAL_CREDENTIALS }, () => [{ key: 'users', name: 'app-dev-users' }], text => out.push(text), { intervalMs: 50 });
  try {
    const line = await eventually('the fall-back notice', () => out.find(text => text.startsWith('Live Tail')));
    assert.match(line, new RegExp(`^Live Tail is not available at ${test.cloud.url} \\(\\w+\\): reading the logs with FilterLogEvents every 50 ms\\n$`));
  } finally {
    await logs.stop();
    await test.stop();
  }
});

tail.run();
