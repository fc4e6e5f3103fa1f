import { randomFillSync, randomUUID } from 'node:crypto';
import { header, type LocalRequest, type LocalResponse } from '../http';

const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|x-www-form-urlencoded)|[^;]*\+(json|xml))/i;

/** HTTP APIs and ALB: a body whose media type is not text is base64-encoded (`isBase64Encoded: true`). */
function bodyOf(request: LocalRequest): { body?: string; isBase64Encoded: boolean } {
  if (request.body.length === 0) return { body: undefined, isBase64Encoded: false };
  const contentType = header(request, 'content-type') ?? '';
  if (TEXT_TYPES.test(contentType)) return { body: request.body.toString('utf8'), isBase64Encoded: false };
  return { body: request.body.toString('base64'), isBase64Encoded: true };
}

/** Whether a media type is one of a REST API's `BinaryMediaTypes` (`image/png`, `image/*`, `*\/*`; `~1` is API Gateway's escaped `/`). */
export function isBinaryMediaType(contentType: string | undefined, binaryMediaTypes: readonly string[]): boolean {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return binaryMediaTypes.some((pattern) => {
    const [major, minor = ''] = pattern.replace(/~1/g, '/').trim().toLowerCase().split('/');
    const [typeMajor, typeMinor = ''] = type.split('/');
    return (major === '*' || major === typeMajor) && (minor === '*' || minor === typeMinor);
  });
}

/** What a REST API's integration does with a request body: `Integration.ContentHandling`, the API's `BinaryMediaTypes`. */
export interface RestBodyHandling {
  binaryMediaTypes: readonly string[];
  contentHandling?: string;
}

/**
 * A REST API's proxy body, as API Gateway converts it ("Content type conversions in API Gateway"): a
 * body is text unless its Content-Type matches `binaryMediaTypes` (none, a POST without Content-Type and
 * `application/octet-stream` included); a binary one reaches the function base64-encoded, flagged by
 * `isBase64Encoded`. `CONVERT_TO_BINARY` reads a text body as base64 of the binary payload.
 */
function restBodyOf(request: LocalRequest, handling: RestBodyHandling): { body: string | null; isBase64Encoded: boolean } {
  if (request.body.length === 0) return { body: null, isBase64Encoded: false };
  if (isBinaryMediaType(header(request, 'content-type'), handling.binaryMediaTypes)) return { body: request.body.toString('base64'), isBase64Encoded: true };
  if (handling.contentHandling === 'CONVERT_TO_BINARY') return { body: Buffer.from(request.body.toString('utf8'), 'base64').toString('base64'), isBase64Encoded: true };
  return { body: request.body.toString('utf8'), isBase64Encoded: false };
}

/** An HTTP API request id (`requestContext.requestId`, the `apigw-requestid` response header) and a REST API's `extendedRequestId`: 16 characters such as `IRrm5jULIAMEMeg=`. */
export function shortRequestId(): string {
  // Cut from a pool filled 372 ids at a time: a randomBytes call per request cost 15 µs.
  if (randomPoolUsed + SHORT_ID_BYTES > randomPool.length) {
    randomFillSync(randomPool);
    randomPoolUsed = 0;
  }
  randomPoolUsed += SHORT_ID_BYTES;
  return randomPool.toString('base64', randomPoolUsed - SHORT_ID_BYTES, randomPoolUsed);
}

const SHORT_ID_BYTES = 11;
const randomPool = Buffer.alloc(SHORT_ID_BYTES * 372);
let randomPoolUsed = randomPool.length;

/** Lower-case names, a repeated header's values joined with commas (HTTP APIs, payload 2.0). */
function singleHeaders(request: LocalRequest): Record<string, string> {
  if (!request.rawHeaders) {
    return Object.fromEntries(Object.entries(request.headers).flatMap(([name, value]) => (value === undefined ? [] : [[name, Array.isArray(value) ? value.join(',') : value]])));
  }
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < request.rawHeaders.length; i += 2) {
    const name = request.rawHeaders[i].toLowerCase();
    headers[name] = headers[name] === undefined ? request.rawHeaders[i + 1] : `${headers[name]},${request.rawHeaders[i + 1]}`;
  }
  return headers;
}

/**
 * REST proxy headers: names as the client wrote them, `headers` with the last value of a
 * repeated header and `multiValueHeaders` with every value, as API Gateway passes them.
 */
function restHeaders(request: LocalRequest): { headers: Record<string, string>; multiValueHeaders: Record<string, string[]> } {
  const raw = request.rawHeaders ?? Object.entries(request.headers).flatMap(([name, value]) => (value === undefined ? [] : (Array.isArray(value) ? value : [value]).flatMap((item) => [name, item])));
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const existing = Object.keys(multiValueHeaders).find((name) => name.toLowerCase() === raw[i].toLowerCase()) ?? raw[i];
    headers[existing] = raw[i + 1];
    (multiValueHeaders[existing] ??= []).push(raw[i + 1]);
  }
  return { headers, multiValueHeaders };
}

/** The query string exactly as the client sent it (`rawQueryString` is not re-encoded). */
function rawQuery(request: LocalRequest): string {
  const url = request.rawUrl ?? '';
  const mark = url.indexOf('?');
  return mark === -1 ? request.search.toString() : url.slice(mark + 1);
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
  /** The stage's variables (`StageVariables` / `Variables`), none when empty. */
  stageVariables?: Record<string, string>;
}

const orNull = <T extends object>(value: T | undefined): T | null => (value && Object.keys(value).length > 0 ? value : null);

/** The HTTP API payload format 2.0 (also what function URLs send). */
export function httpEventV2(request: LocalRequest, target: EventTarget): Record<string, unknown> {
  const now = new Date();
  const headers = singleHeaders(request);
  // Several Cookie headers are joined with commas like any header; each cookie is one item.
  const cookies = headers.cookie ? headers.cookie.split(/[;,]\s*/).filter(Boolean) : undefined;
  delete headers.cookie;
  const query: Record<string, string> = {};
  for (const [name, value] of request.search) query[name] = query[name] === undefined ? value : `${query[name]},${value}`;
  return {
    version: '2.0',
    routeKey: target.routeKey,
    rawPath: target.path,
    rawQueryString: rawQuery(request),
    cookies,
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: Object.keys(target.pathParameters).length ? target.pathParameters : undefined,
    requestContext: {
      accountId: target.accountId,
      apiId: target.apiId,
      domainName: target.domainName,
      domainPrefix: target.domainName.split('.')[0],
      http: { method: request.method, path: target.path, protocol: 'HTTP/1.1', sourceIp: request.sourceIp ?? '127.0.0.1', userAgent: headers['user-agent'] ?? '' },
      requestId: shortRequestId(),
      routeKey: target.routeKey,
      stage: target.stage,
      time: requestTime(now),
      timeEpoch: now.getTime(),
    },
    ...bodyOf(request),
    stageVariables: orNull(target.stageVariables) ?? undefined,
  };
}

const NULL_IDENTITY = {
  accessKey: null,
  accountId: null,
  caller: null,
  cognitoAuthenticationProvider: null,
  cognitoAuthenticationType: null,
  cognitoIdentityId: null,
  cognitoIdentityPoolId: null,
  principalOrgId: null,
  user: null,
  userArn: null,
};

/**
 * The Lambda proxy payload format 1.0: what REST API proxy integrations send, and HTTP APIs with
 * `PayloadFormatVersion: '1.0'` (which add `version` and lower-case header names).
 */
export function restEventV1(
  request: LocalRequest,
  target: EventTarget & { resourceId: string | null; resourcePath: string; version?: '1.0'; body?: RestBodyHandling },
): Record<string, unknown> {
  const now = new Date();
  // REST APIs: a UUID, and a shorter extended id; HTTP APIs: one short id for both.
  const requestId = target.version ? shortRequestId() : randomUUID();
  const { headers, multiValueHeaders } = target.version
    ? { headers: singleHeaders(request), multiValueHeaders: Object.fromEntries(Object.entries(restHeaders(request).multiValueHeaders).map(([name, values]) => [name.toLowerCase(), values])) }
    : restHeaders(request);
  const query: Record<string, string> = {};
  const multiQuery: Record<string, string[]> = {};
  for (const [name, value] of request.search) {
    query[name] = value;
    (multiQuery[name] ??= []).push(value);
  }
  const { body, isBase64Encoded } = target.version ? bodyOf(request) : restBodyOf(request, target.body ?? { binaryMediaTypes: [] });
  const userAgent = header(request, 'user-agent') ?? null;
  return {
    ...(target.version ? { version: target.version } : {}),
    resource: target.resourcePath,
    path: target.path,
    httpMethod: request.method,
    headers,
    multiValueHeaders,
    queryStringParameters: orNull(query),
    multiValueQueryStringParameters: orNull(multiQuery),
    requestContext: {
      accountId: target.accountId,
      apiId: target.apiId,
      domainName: target.domainName,
      domainPrefix: target.domainName.split('.')[0],
      extendedRequestId: target.version ? requestId : shortRequestId(),
      httpMethod: request.method,
      identity: { ...NULL_IDENTITY, sourceIp: request.sourceIp ?? '127.0.0.1', userAgent },
      path: target.stage === '$default' ? target.path : `/${target.stage}${target.path}`,
      protocol: 'HTTP/1.1',
      requestId,
      requestTime: requestTime(now),
      requestTimeEpoch: now.getTime(),
      resourceId: target.resourceId,
      resourcePath: target.resourcePath,
      stage: target.stage,
    },
    pathParameters: orNull(target.pathParameters),
    stageVariables: orNull(target.stageVariables),
    body: body ?? null,
    isBase64Encoded,
  };
}

/**
 * A function's response headers: `headers` one value each; `multiValueHeaders` (payload 1.0)
 * sent once per value, replacing a `headers` entry of the same name, as API Gateway merges them.
 */
function responseHeaders(result: Record<string, unknown>, multi: boolean): { headers: Record<string, string>; multiValueHeaders: Record<string, string[]> } {
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (const [name, value] of Object.entries((result.headers as Record<string, unknown>) ?? {})) {
    if (value !== null && value !== undefined) headers[name.toLowerCase()] = String(value);
  }
  if (multi) {
    for (const [name, values] of Object.entries((result.multiValueHeaders as Record<string, unknown[]>) ?? {})) {
      if (!Array.isArray(values)) continue;
      delete headers[name.toLowerCase()];
      (multiValueHeaders[name.toLowerCase()] ??= []).push(...values.map(String));
    }
  }
  return { headers, multiValueHeaders };
}

function responseBody(result: Record<string, unknown>): Buffer {
  const body = result.body === undefined || result.body === null ? '' : typeof result.body === 'string' ? result.body : JSON.stringify(result.body);
  return result.isBase64Encoded === true ? Buffer.from(body, 'base64') : Buffer.from(body);
}

/** Payload 2.0 response rules: a `{ statusCode }` object is the response, anything else is a JSON body with 200. */
export function httpResponseV2(value: unknown): LocalResponse {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && 'statusCode' in value) {
    const result = value as Record<string, unknown>;
    const { headers, multiValueHeaders } = responseHeaders(result, false);
    // Each cookie is its own Set-Cookie header.
    if (Array.isArray(result.cookies) && result.cookies.length) multiValueHeaders['set-cookie'] = result.cookies.map(String);
    headers['content-type'] ??= 'application/json';
    return { status: Number(result.statusCode), headers, multiValueHeaders, body: responseBody(result) };
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
  const { headers, multiValueHeaders } = responseHeaders(result, true);
  if (!multiValueHeaders['content-type']) headers['content-type'] ??= 'application/json';
  return { status: Number(result.statusCode), headers, multiValueHeaders, body: responseBody(result) };
}

export function jsonMessage(status: number, message: string): LocalResponse {
  return { status, headers: { 'content-type': 'application/json', 'x-amzn-errortype': status === 403 ? 'MissingAuthenticationTokenException' : 'InternalServerErrorException' }, body: JSON.stringify({ message }) };
}
