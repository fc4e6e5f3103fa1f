import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { httpEventV2, restEventV1 } from '../../src/local/gateway/events';
import type { LocalRequest } from '../../src/local/http';
import { shaped, UNKNOWN_CALLER } from './helpers';

/** A request as the server hands it to the gateway: headers as sent, and Node's merged view of them. */
function request(method: string, url: string, rawHeaders: string[], body = ''): LocalRequest {
  const headers: Record<string, string> = {};
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    headers[name] = headers[name] === undefined ? rawHeaders[i + 1] : `${headers[name]}, ${rawHeaders[i + 1]}`;
  }
  const parsed = new URL(url, 'http://127.0.0.1:4566');
  return { method, path: parsed.pathname, search: parsed.searchParams, headers, body: Buffer.from(body), hostname: '127.0.0.1', region: 'us-east-1', rawUrl: url, rawHeaders, sourceIp: '10.0.0.9' };
}

const TARGET = {
  accountId: '000000000000',
  apiId: 'abc123',
  stage: 'prod',
  routeKey: 'POST /orders/{id}',
  path: '/orders/7',
  pathParameters: { id: '7' },
  domainName: 'abc123.execute-api.us-east-1.amazonaws.com',
  stageVariables: { table: 'orders-prod' },
};
const VARYING = {
  // HTTP APIs' request ids (payload 1.0 too): `IRrm5jULIAMEMeg=`, the same one in both fields.
  'requestContext.(requestId|extendedRequestId)': /^[A-Za-z0-9+/]{15}=$/,
  'requestContext.(time|requestTime)': /^\d\d\/[A-Z][a-z]{2}\/\d{4}:\d\d:\d\d:\d\d \+0000$/,
  'requestContext.(timeEpoch|requestTimeEpoch)': /^\d{13}$/,
};
const RAW_HEADERS = ['Content-Type', 'application/json', 'X-Tag', 'a', 'X-Tag', 'b', 'User-Agent', 'ua/1'];

const builders = suite('gateway event builders (payload 1.0 on HTTP APIs, named stages, stage variables)');

builders('HTTP API payload 1.0: version, lower-case headers, every value in multiValueHeaders, routeKey as resourceId, stage in the path', () => {
  const event = restEventV1(request('POST', '/prod/orders/7?x=1&x=2', RAW_HEADERS, '{"n":1}'), { ...TARGET, version: '1.0', resourceId: TARGET.routeKey, resourcePath: '/orders/{id}' });
  assert.equal(shaped(event, VARYING), {
    version: '1.0',
    resource: '/orders/{id}',
    path: '/orders/7',
    httpMethod: 'POST',
    headers: { 'content-type': 'application/json', 'x-tag': 'a,b', 'user-agent': 'ua/1' },
    multiValueHeaders: { 'content-type': ['application/json'], 'x-tag': ['a', 'b'], 'user-agent': ['ua/1'] },
    queryStringParameters: { x: '2' },
    multiValueQueryStringParameters: { x: ['1', '2'] },
    requestContext: {
      accountId: '000000000000',
      apiId: 'abc123',
      domainName: 'abc123.execute-api.us-east-1.amazonaws.com',
      domainPrefix: 'abc123',
      extendedRequestId: '<requestContext.(requestId|extendedRequestId)>',
      httpMethod: 'POST',
      identity: { ...UNKNOWN_CALLER, sourceIp: '10.0.0.9', userAgent: 'ua/1' },
      path: '/prod/orders/7',
      protocol: 'HTTP/1.1',
      requestId: '<requestContext.(requestId|extendedRequestId)>',
      requestTime: '<requestContext.(time|requestTime)>',
      requestTimeEpoch: '<requestContext.(timeEpoch|requestTimeEpoch)>',
      resourceId: 'POST /orders/{id}',
      resourcePath: '/orders/{id}',
      stage: 'prod',
    },
    pathParameters: { id: '7' },
    stageVariables: { table: 'orders-prod' },
    body: '{"n":1}',
    isBase64Encoded: false,
  });
});

builders('payload 2.0: stage variables when the stage has some, cookies from every Cookie header, the query string untouched', () => {
  const event = httpEventV2(request('GET', '/orders/7?q=a+b&e=%C3%A9', ['Cookie', 'a=1; b=2', 'Cookie', 'c=3']), TARGET);
  assert.equal(
    [event.cookies, event.rawQueryString, event.queryStringParameters, event.stageVariables, (event.requestContext as { http: unknown }).http],
    [['a=1', 'b=2', 'c=3'], 'q=a+b&e=%C3%A9', { q: 'a b', e: 'é' }, { table: 'orders-prod' }, { method: 'GET', path: '/orders/7', protocol: 'HTTP/1.1', sourceIp: '10.0.0.9', userAgent: '' }],
  );
  assert.is(httpEventV2(request('GET', '/orders/7', []), { ...TARGET, stageVariables: {} }).stageVariables, undefined);
});

builders.run();
