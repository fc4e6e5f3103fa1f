import { request as httpRequest } from 'node:http';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DescribeStackResourceCommand } from '@aws-sdk/client-cloudformation';
import { startTestService, type TestService } from '../helpers/local-cloud';
import { shaped } from './helpers';

const EXTERNAL_LISTENER = 'arn:aws:elasticloadbalancing:us-east-1:123456789012:listener/app/shared-lb/50dc6c495c0c9188/f2f7dc8efc522ab2';

const SERVICE = `service: albs
frameworkVersion: '3'
provider:
  name: aws
  runtime: nodejs20.x
functions:
  echo:
    handler: handler.echo
    events:
      - alb:
          listenerArn: { Ref: Listener }
          priority: 3
          conditions:
            path: /single
            method: [GET, POST]
      - alb:
          listenerArn: { Ref: Listener }
          priority: 4
          conditions:
            path: /tenant
            header: { name: x-tenant, values: ['blue*'] }
            query: { plan: gold }
      - alb:
          listenerArn: { Ref: Listener }
          priority: 5
          conditions:
            path: /private
            ip: [10.0.0.0/8]
      - alb:
          listenerArn: ${EXTERNAL_LISTENER}
          priority: 1
          conditions:
            path: /elsewhere
  multi:
    handler: handler.echo
    events:
      - alb:
          listenerArn: { Ref: Listener }
          priority: 2
          multiValueHeaders: true
          conditions:
            path: /multi/*
  respond:
    handler: handler.respond
    events:
      - alb:
          listenerArn: { Ref: Listener }
          priority: 1
          conditions:
            host: api.example.com
            path: /respond/*
resources:
  Resources:
    Listener:
      Type: AWS::ElasticLoadBalancingV2::Listener
      Properties:
        LoadBalancerArn: arn:aws:elasticloadbalancing:us-east-1:000000000000:loadbalancer/app/local-lb/0123456789abcdef
        Port: 80
        Protocol: HTTP
        DefaultActions:
          - Type: fixed-response
            FixedResponseConfig: { StatusCode: '404', ContentType: text/plain, MessageBody: no rule matched }
`;

const HANDLER = `
exports.echo = async (event) => ({ statusCode: 200, statusDescription: '200 OK', headers: { 'content-type': 'application/json' }, multiValueHeaders: { 'content-type': ['application/json'] }, body: JSON.stringify(event) });
const RESPONSES = {
  described: { statusCode: 418, statusDescription: '418 Short And Stout', headers: { 'X-Kind': 'teapot' }, body: 'tea' },
  binary: { statusCode: 200, headers: { 'content-type': 'application/octet-stream' }, isBase64Encoded: true, body: Buffer.from([0, 255, 1]).toString('base64') },
  nostatus: { body: 'no status code' },
  text: 'plain',
};
exports.respond = async (event) => {
  const kind = event.path.split('/')[2];
  if (kind === 'throws') throw new Error('boom');
  return RESPONSES[kind];
};
`;

interface Raw {
  status: number;
  statusMessage: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function send(url: string, options: { method?: string; headers?: Record<string, string | string[]>; body?: Buffer | string } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, statusMessage: response.statusMessage ?? '', headers: response.headers, body: Buffer.concat(chunks) }));
    });
    outgoing.on('error', reject);
    outgoing.setTimeout(20_000, () => outgoing.destroy(new Error('timed out')));
    outgoing.end(options.body);
  });
}

const TRACE = /^Root=1-[0-9a-f]{8}-[0-9a-f]{24}$/;
const BAD_GATEWAY = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n';

interface Context {
  t: TestService;
  listener: string;
  external: string;
  deployOutput: string;
}

const alb = suite<Context>('Application Load Balancer listeners: served on their own ports, rules in priority order, the ALB event and response');

alb.before(async (context) => {
  context.t = await startTestService({ 'serverless.yml': SERVICE, 'handler.js': HANDLER });
  const deployed = await context.t.fw('deploy');
  assert.is(deployed.code, 0, deployed.stderr);
  context.deployOutput = deployed.stdout + deployed.stderr;
  context.listener = /\n {2}Listener: (http:\/\/127\.0\.0\.1:\d+)\n/.exec(context.deployOutput)?.[1] ?? '';
  context.external = new RegExp(`\\n {2}${EXTERNAL_LISTENER}: (http://127\\.0\\.0\\.1:\\d+)\\n`).exec(context.deployOutput)?.[1] ?? '';
});

alb.after(async ({ t }) => {
  await t.stop();
});

alb('the deploy report says where each listener answers: the stack\'s own and one of another stack that its rules name', ({ listener, external, deployOutput }) => {
  assert.match(listener, /^http:\/\/127\.0\.0\.1:\d+$/, deployOutput);
  assert.match(external, /^http:\/\/127\.0\.0\.1:\d+$/, deployOutput);
  assert.is.not(listener, external);
  assert.not.match(deployOutput, /ElasticLoadBalancingV2/);
});

alb('single-value event: lower-case headers with the load balancer\'s own, last query value as sent, the target group ARN', async ({ t, listener }) => {
  const response = await send(`${listener}/single?a=1&a=x%20y&b`, { method: 'POST', headers: { 'X-Multi': ['one', 'two'], 'content-type': 'text/plain' }, body: 'hello' });
  assert.is(response.status, 200);
  assert.is(response.statusMessage, 'OK');
  const event = JSON.parse(String(response.body)) as Record<string, unknown>;
  const { StackResourceDetail } = await t.cfn.send(new DescribeStackResourceCommand({ StackName: 'albs-dev', LogicalResourceId: 'EchoAlbTargetGroupListener' }));
  const port = new URL(listener).port;
  assert.equal(shaped(event, { 'headers.x-amzn-trace-id': TRACE }), {
    requestContext: { elb: { targetGroupArn: StackResourceDetail!.PhysicalResourceId } },
    httpMethod: 'POST',
    path: '/single',
    queryStringParameters: { a: 'x%20y', b: '' },
    headers: {
      'x-multi': 'two',
      'content-type': 'text/plain',
      host: `127.0.0.1:${port}`,
      connection: 'keep-alive',
      'content-length': '5',
      'x-amzn-trace-id': '<headers.x-amzn-trace-id>',
      'x-forwarded-for': '127.0.0.1',
      'x-forwarded-port': '80',
      'x-forwarded-proto': 'http',
    },
    body: 'hello',
    isBase64Encoded: false,
  });
  assert.match(StackResourceDetail!.PhysicalResourceId!, /^arn:aws:elasticloadbalancing:us-east-1:000000000000:targetgroup\/[0-9a-f]{32}\/[0-9a-f]{16}$/);
});

alb('multi-value target group: every header and query value; binary bodies base64-encoded', async ({ listener }) => {
  const response = await send(`${listener}/multi/x?a=1&a=2`, { method: 'PUT', headers: { 'X-Multi': ['one', 'two'], 'content-type': 'application/octet-stream', 'content-length': '3' }, body: Buffer.from([0, 255, 1]) });
  const event = JSON.parse(String(response.body)) as Record<string, unknown>;
  const port = new URL(listener).port;
  assert.equal(shaped(event, { 'requestContext.elb.targetGroupArn': /:targetgroup\//, 'multiValueHeaders.x-amzn-trace-id\\[0\\]': TRACE }), {
    requestContext: { elb: { targetGroupArn: '<requestContext.elb.targetGroupArn>' } },
    httpMethod: 'PUT',
    path: '/multi/x',
    multiValueQueryStringParameters: { a: ['1', '2'] },
    multiValueHeaders: {
      'x-multi': ['one', 'two'],
      'content-type': ['application/octet-stream'],
      'content-length': ['3'],
      host: [`127.0.0.1:${port}`],
      connection: ['keep-alive'],
      'x-amzn-trace-id': ['<multiValueHeaders.x-amzn-trace-id\\[0\\]>'],
      'x-forwarded-for': ['127.0.0.1'],
      'x-forwarded-port': ['80'],
      'x-forwarded-proto': ['http'],
    },
    body: 'AP8B',
    isBase64Encoded: true,
  });
});

alb('rules match on path, method, host, header, query and source address, in priority order; no match takes the default action', async ({ listener, external }) => {
  const outcomes: [string, number, string][] = [];
  const check = async (label: string, url: string, options: Parameters<typeof send>[1] = {}) => {
    const response = await send(url, options);
    let routed = String(response.body);
    try {
      routed = (JSON.parse(routed) as { path: string }).path;
    } catch {
      // a fixed response
    }
    outcomes.push([label, response.status, routed]);
  };
  await check('path and method', `${listener}/single`);
  await check('method not listed', `${listener}/single`, { method: 'DELETE' });
  await check('header and query', `${listener}/tenant?plan=GOLD`, { headers: { 'x-tenant': 'Blue-team' } });
  await check('header without query', `${listener}/tenant`, { headers: { 'x-tenant': 'blue' } });
  await check('source address outside the range', `${listener}/private`);
  await check('host header', `${listener}/respond/described`, { headers: { host: 'API.example.com:8080' } });
  await check('other host', `${listener}/respond/described`);
  await check('other listener', `${external}/elsewhere`);
  await check('other listener, no rule', `${external}/single`);
  assert.equal(outcomes, [
    ['path and method', 200, '/single'],
    ['method not listed', 404, 'no rule matched'],
    ['header and query', 200, '/tenant'],
    ['header without query', 404, 'no rule matched'],
    ['source address outside the range', 404, 'no rule matched'],
    ['host header', 418, 'tea'],
    ['other host', 404, 'no rule matched'],
    ['other listener', 200, '/elsewhere'],
    ['other listener, no rule', 404, `No listener rule matched GET /single, and ${EXTERNAL_LISTENER} is in no local stack, so its default action is unknown`],
  ]);
});

alb('responses: statusDescription is the reason phrase, base64 bodies decoded; no statusCode, a bare string or an error is a 502', async ({ listener }) => {
  const host = { host: 'api.example.com' };
  const described = await send(`${listener}/respond/described`, { headers: host });
  assert.equal([described.status, described.statusMessage, described.headers['x-kind'], String(described.body)], [418, 'Short And Stout', 'teapot', 'tea']);
  const binary = await send(`${listener}/respond/binary`, { headers: host });
  assert.equal([binary.status, binary.headers['content-type'], [...binary.body]], [200, 'application/octet-stream', [0, 255, 1]]);
  const failures = [];
  for (const kind of ['nostatus', 'text', 'throws']) {
    const response = await send(`${listener}/respond/${kind}`, { headers: host });
    failures.push([kind, response.status, response.headers.server, String(response.body)]);
  }
  assert.equal(failures, [
    ['nostatus', 502, 'awselb/2.0', BAD_GATEWAY],
    ['text', 502, 'awselb/2.0', BAD_GATEWAY],
    ['throws', 502, 'awselb/2.0', BAD_GATEWAY],
  ]);
});

alb.run();
