import { randomBytes } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { LocalResponse } from '../http';

/**
 * The event an Application Load Balancer sends a Lambda target, and how it reads the answer
 * ("Lambda functions as targets" in the Elastic Load Balancing guide): header names in lower
 * case; query values as sent (not decoded); with `lambda.multi_value_headers.enabled` every value
 * in `multiValueHeaders` / `multiValueQueryStringParameters`, otherwise the last one.
 */
export interface AlbRequest {
  method: string;
  /** Path and query as the client sent them. */
  rawUrl: string;
  /** `[name, value, name, value, …]` as sent. */
  rawHeaders: string[];
  body: Buffer;
  sourceIp: string;
  /** The listener's port and protocol, for the `x-forwarded-*` headers. */
  port: number;
  protocol: string;
}

const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|x-www-form-urlencoded)|[^;]*\+(json|xml))/i;

/** `Root=1-<8 hex time>-<24 hex>`, the trace header the load balancer adds. */
export function traceId(now = Date.now()): string {
  return `Root=1-${Math.floor(now / 1000).toString(16)}-${randomBytes(12).toString('hex')}`;
}

export function albEvent(request: AlbRequest, targetGroupArn: string, multiValue: boolean): Record<string, unknown> {
  const mark = request.rawUrl.indexOf('?');
  const path = mark === -1 ? request.rawUrl : request.rawUrl.slice(0, mark);
  const query = mark === -1 ? '' : request.rawUrl.slice(mark + 1);
  const pairs = query
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const equals = part.indexOf('=');
      return equals === -1 ? [part, ''] : [part.slice(0, equals), part.slice(equals + 1)];
    });
  const lines: [string, string][] = [];
  for (let i = 0; i + 1 < request.rawHeaders.length; i += 2) lines.push([request.rawHeaders[i].toLowerCase(), request.rawHeaders[i + 1]]);
  const forwardedFor = lines.filter(([name]) => name === 'x-forwarded-for').map(([, value]) => value);
  const added: [string, string][] = [
    ['x-amzn-trace-id', traceId()],
    ['x-forwarded-for', [...forwardedFor, request.sourceIp].join(', ')],
    ['x-forwarded-port', String(request.port)],
    ['x-forwarded-proto', request.protocol.toLowerCase()],
  ];
  const headerLines = [...lines.filter(([name]) => !added.some(([own]) => own === name)), ...added];
  const contentType = lines.find(([name]) => name === 'content-type')?.[1] ?? '';
  const binary = request.body.length > 0 && (lines.some(([name]) => name === 'content-encoding') || !TEXT_TYPES.test(contentType));
  const event: Record<string, unknown> = { requestContext: { elb: { targetGroupArn } }, httpMethod: request.method, path };
  if (multiValue) {
    event.multiValueQueryStringParameters = grouped(pairs as [string, string][]);
    event.multiValueHeaders = grouped(headerLines);
  } else {
    event.queryStringParameters = Object.fromEntries(pairs);
    event.headers = Object.fromEntries(headerLines);
  }
  event.body = binary ? request.body.toString('base64') : request.body.toString('utf8');
  event.isBase64Encoded = binary;
  return event;
}

function grouped(pairs: [string, string][]): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  for (const [name, value] of pairs) (result[name] ??= []).push(value);
  return result;
}

const ERROR_TITLES: Record<number, string> = { 502: '502 Bad Gateway', 503: '503 Service Temporarily Unavailable', 504: '504 Gateway Time-out' };

/** The load balancer's own error page (`Server: awselb/2.0`). */
export function albError(status: 502 | 503 | 504): LocalResponse {
  const title = ERROR_TITLES[status];
  return {
    status,
    headers: { server: 'awselb/2.0', 'content-type': 'text/html' },
    body: `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n</body>\r\n</html>\r\n`,
  };
}

export interface AlbResponse extends LocalResponse {
  /** The reason phrase of the status line (`statusDescription`). */
  statusMessage?: string;
}

const stringRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The function's answer as the load balancer sends it on: `statusCode` (required),
 * `statusDescription` as the reason phrase, `headers` (or `multiValueHeaders` when the target
 * group enables them), `body` decoded when `isBase64Encoded`. Anything else is a 502.
 */
export function albResponse(payload: string, multiValue: boolean): AlbResponse {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return albError(502);
  }
  if (!stringRecord(value)) return albError(502);
  const status = typeof value.statusCode === 'string' && /^\d+$/.test(value.statusCode) ? Number(value.statusCode) : value.statusCode;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599) return albError(502);
  if (value.body !== undefined && value.body !== null && typeof value.body !== 'string') return albError(502);
  const response: AlbResponse = { status, headers: { server: 'awselb/2.0' } };
  const description = typeof value.statusDescription === 'string' ? value.statusDescription.replace(/^\d+\s*/, '') : '';
  response.statusMessage = description || STATUS_CODES[status];
  if (multiValue) {
    if (value.multiValueHeaders !== undefined && !stringRecord(value.multiValueHeaders)) return albError(502);
    const multi: Record<string, string[]> = {};
    for (const [name, values] of Object.entries(value.multiValueHeaders ?? {})) multi[name] = (Array.isArray(values) ? values : [values]).map(String);
    response.multiValueHeaders = multi;
  } else {
    if (value.headers !== undefined && !stringRecord(value.headers)) return albError(502);
    for (const [name, header] of Object.entries(value.headers ?? {})) response.headers![name.toLowerCase()] = String(header);
  }
  const body = typeof value.body === 'string' ? value.body : '';
  response.body = value.isBase64Encoded === true ? Buffer.from(body, 'base64') : body;
  return response;
}
