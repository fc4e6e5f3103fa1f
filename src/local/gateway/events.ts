import { randomUUID } from 'node:crypto';
import { header, type LocalRequest, type LocalResponse } from '../http';

const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|x-www-form-urlencoded)|[^;]*\+(json|xml))/i;

function bodyOf(request: LocalRequest): { body?: string; isBase64Encoded: boolean } {
  if (request.body.length === 0) return { body: undefined, isBase64Encoded: false };
  const contentType = header(request, 'content-type') ?? '';
  if (TEXT_TYPES.test(contentType)) return { body: request.body.toString('utf8'), isBase64Encoded: false };
  return { body: request.body.toString('base64'), isBase64Encoded: true };
}

function singleHeaders(request: LocalRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  return headers;
}

/** `21/Nov/2026:17:40:33 +0000`, the time format of API Gateway request contexts. */
export function requestTime(now: Date): string {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(now.getUTCDate())}/${months[now.getUTCMonth()]}/${now.getUTCFullYear()}:${pad(now.getUTCHours())}:${pad(now.getUTCMinutes())}:${pad(now.getUTCSeconds())} +0000`;
}

export interface EventTarget {
  accountId: string;
  apiId: string;
  stage: string;
  routeKey: string;
  /** The path as the function sees it (without the local prefix or the stage). */
  path: string;
  pathParameters: Record<string, string>;
  domainName: string;
}

/** The HTTP API payload format 2.0 (also what function URLs send). */
export function httpEventV2(request: LocalRequest, target: EventTarget): Record<string, unknown> {
  const now = new Date();
  const headers = singleHeaders(request);
  const cookies = headers.cookie ? headers.cookie.split(/;\s*/) : undefined;
  delete headers.cookie;
  const query: Record<string, string> = {};
  for (const [name, value] of request.search) query[name] = query[name] === undefined ? value : `${query[name]},${value}`;
  return {
    version: '2.0',
    routeKey: target.routeKey,
    rawPath: target.path,
    rawQueryString: request.search.toString(),
    cookies,
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: Object.keys(target.pathParameters).length ? target.pathParameters : undefined,
    requestContext: {
      accountId: target.accountId,
      apiId: target.apiId,
      domainName: target.domainName,
      domainPrefix: target.apiId,
      http: { method: request.method, path: target.path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: headers['user-agent'] ?? '' },
      requestId: randomUUID(),
      routeKey: target.routeKey,
      stage: target.stage,
      time: requestTime(now),
      timeEpoch: now.getTime(),
    },
    ...bodyOf(request),
  };
}

/** The REST API Lambda proxy payload format 1.0. */
export function restEventV1(request: LocalRequest, target: EventTarget & { resourceId: string; resourcePath: string }): Record<string, unknown> {
  const now = new Date();
  const headers = singleHeaders(request);
  const multiValueHeaders = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]]));
  const query: Record<string, string> = {};
  const multiQuery: Record<string, string[]> = {};
  for (const [name, value] of request.search) {
    query[name] = value;
    (multiQuery[name] ??= []).push(value);
  }
  const { body, isBase64Encoded } = bodyOf(request);
  return {
    resource: target.resourcePath,
    path: target.path,
    httpMethod: request.method,
    headers,
    multiValueHeaders,
    queryStringParameters: Object.keys(query).length ? query : null,
    multiValueQueryStringParameters: Object.keys(multiQuery).length ? multiQuery : null,
    pathParameters: Object.keys(target.pathParameters).length ? target.pathParameters : null,
    stageVariables: null,
    requestContext: {
      accountId: target.accountId,
      apiId: target.apiId,
      resourceId: target.resourceId,
      resourcePath: target.resourcePath,
      httpMethod: request.method,
      path: `/${target.stage}${target.path}`,
      stage: target.stage,
      protocol: 'HTTP/1.1',
      requestId: randomUUID(),
      extendedRequestId: randomUUID(),
      requestTime: requestTime(now),
      requestTimeEpoch: now.getTime(),
      domainName: target.domainName,
      identity: { sourceIp: '127.0.0.1', userAgent: headers['user-agent'] ?? null },
    },
    body: body ?? null,
    isBase64Encoded,
  };
}

function headerValues(result: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries((result.headers as Record<string, unknown>) ?? {})) headers[name.toLowerCase()] = String(value);
  for (const [name, values] of Object.entries((result.multiValueHeaders as Record<string, unknown[]>) ?? {})) {
    if (Array.isArray(values)) headers[name.toLowerCase()] = values.map(String).join(', ');
  }
  return headers;
}

function responseBody(result: Record<string, unknown>): Buffer {
  const body = result.body === undefined || result.body === null ? '' : typeof result.body === 'string' ? result.body : JSON.stringify(result.body);
  return result.isBase64Encoded === true ? Buffer.from(body, 'base64') : Buffer.from(body);
}

/** Payload 2.0 response rules: a `{ statusCode }` object is the response, anything else is a JSON body with 200. */
export function httpResponseV2(value: unknown): LocalResponse {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && 'statusCode' in value) {
    const result = value as Record<string, unknown>;
    const headers = headerValues(result);
    if (Array.isArray(result.cookies) && result.cookies.length) headers['set-cookie'] = result.cookies.map(String).join(', ');
    headers['content-type'] ??= 'application/json';
    return { status: Number(result.statusCode), headers, body: responseBody(result) };
  }
  const body = typeof value === 'string' ? value : JSON.stringify(value);
  return { status: 200, headers: { 'content-type': 'application/json' }, body };
}

/** Payload 1.0 (REST proxy) response: it must be a `{ statusCode, body }` object, else a 502. */
export function restResponseV1(value: unknown): LocalResponse {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !('statusCode' in value)) {
    return jsonMessage(502, 'Internal server error');
  }
  const result = value as Record<string, unknown>;
  const headers = headerValues(result);
  headers['content-type'] ??= 'application/json';
  return { status: Number(result.statusCode), headers, body: responseBody(result) };
}

export function jsonMessage(status: number, message: string): LocalResponse {
  return { status, headers: { 'content-type': 'application/json', 'x-amzn-errortype': status === 403 ? 'MissingAuthenticationTokenException' : 'InternalServerErrorException' }, body: JSON.stringify({ message }) };
}
