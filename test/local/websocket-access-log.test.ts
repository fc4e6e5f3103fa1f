import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { accessLogLine } from '../../src/local/websocket/events';

const accessLog = suite('WebSocket stage access log lines');

const context = {
  routeKey: 'hello',
  eventType: 'MESSAGE',
  requestTime: '27/Nov/2026:19:03:19 +0000',
  stage: 'dev',
  identity: { userAgent: '', sourceIp: '127.0.0.1' },
  requestId: 'Zk3B7gZmIAMEVBw=',
  connectionId: 'L0SM9cOFvHcCIhw=',
  authorizer: { principalId: 'user-1', level: '3' },
};

accessLog('fills Serverless’s default format, with "-" where the event has no value', () => {
  const format = '$context.identity.sourceIp $context.identity.caller $context.identity.user [$context.requestTime] "$context.eventType $context.routeKey $context.connectionId" $context.requestId';
  assert.is(accessLogLine(format, context, { status: 200 }), '127.0.0.1 - - [27/Nov/2026:19:03:19 +0000] "MESSAGE hello L0SM9cOFvHcCIhw=" Zk3B7gZmIAMEVBw=');
});

accessLog('fills a JSON format with the outcome and the authorizer’s context', () => {
  const format = '{"status":"$context.status","error":"$context.error.message","user":"$context.authorizer.principalId","level":"$context.authorizer.level","agent":"$context.identity.userAgent","whole":"$context.identity"}';
  assert.equal(JSON.parse(accessLogLine(format, context, { status: 500, error: 'Internal server error' })), {
    status: '500',
    error: 'Internal server error',
    user: 'user-1',
    level: '3',
    agent: '-',
    whole: '-',
  });
});

accessLog.run();
