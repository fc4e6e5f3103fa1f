import { randomUUID } from 'node:crypto';
import { requestTime, shortRequestId } from '../gateway/events';

/** What API Gateway knows about a WebSocket connection, and what its events repeat. */
export interface ConnectionInfo {
  connectionId: string;
  apiId: string;
  stage: string;
  domainName: string;
  connectedAt: number;
  sourceIp: string;
  userAgent: string;
  /** The $connect authorizer's context, which every later event of the connection carries. */
  authorizer?: Record<string, unknown>;
}

type EventType = 'CONNECT' | 'MESSAGE' | 'DISCONNECT';

/** The requestContext API Gateway gives every WebSocket event. */
function requestContext(connection: ConnectionInfo, routeKey: string, eventType: EventType, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const now = new Date();
  // One short id in both fields, as API Gateway sends them (`Zk3B7gZmIAMEVBw=`).
  const requestId = shortRequestId();
  return {
    routeKey,
    ...extra,
    eventType,
    extendedRequestId: requestId,
    requestTime: requestTime(now),
    messageDirection: 'IN',
    stage: connection.stage,
    connectedAt: connection.connectedAt,
    requestTimeEpoch: now.getTime(),
    identity: { userAgent: connection.userAgent, sourceIp: connection.sourceIp },
    requestId,
    domainName: connection.domainName,
    connectionId: connection.connectionId,
    apiId: connection.apiId,
    ...(connection.authorizer ? { authorizer: connection.authorizer } : {}),
  };
}

/**
 * Headers as `$connect` sees them: the names as the client wrote them, one value each and every
 * value listed; the hop-by-hop `Connection` and `Upgrade` are API Gateway's own business, and it
 * adds the `X-Amzn-Trace-Id` and `X-Forwarded-*` headers a load balancer in front would.
 */
export function upgradeHeaders(rawHeaders: string[], sourceIp: string, port: string): { headers: Record<string, string>; multiValueHeaders: Record<string, string[]> } {
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  const add = (name: string, value: string) => {
    headers[name] = value;
    (multiValueHeaders[name] ??= []).push(value);
  };
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (!/^(connection|upgrade)$/i.test(rawHeaders[i])) add(rawHeaders[i], rawHeaders[i + 1]);
  }
  add('X-Amzn-Trace-Id', `Root=1-${Math.floor(Date.now() / 1000).toString(16)}-${randomUUID().replace(/-/g, '').slice(0, 24)}`);
  add('X-Forwarded-For', sourceIp);
  add('X-Forwarded-Port', port);
  add('X-Forwarded-Proto', 'http');
  return { headers, multiValueHeaders };
}

export function queryParameters(search: URLSearchParams): { queryStringParameters?: Record<string, string>; multiValueQueryStringParameters?: Record<string, string[]> } {
  if (search.size === 0) return {};
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  for (const [name, value] of search) {
    single[name] = value;
    (multi[name] ??= []).push(value);
  }
  return { queryStringParameters: single, multiValueQueryStringParameters: multi };
}

export function connectEvent(connection: ConnectionInfo, rawHeaders: string[], search: URLSearchParams): Record<string, unknown> {
  return {
    ...upgradeHeaders(rawHeaders, connection.sourceIp, connection.domainName.replace(/^.*:/, '')),
    ...queryParameters(search),
    requestContext: requestContext(connection, '$connect', 'CONNECT'),
    isBase64Encoded: false,
  };
}

export function messageEvent(connection: ConnectionInfo, routeKey: string, data: Buffer, isBinary: boolean): Record<string, unknown> {
  return {
    requestContext: requestContext(connection, routeKey, 'MESSAGE', { messageId: randomUUID().replace(/-/g, '').slice(0, 16) }),
    body: isBinary ? data.toString('base64') : data.toString('utf8'),
    isBase64Encoded: isBinary,
  };
}

export function disconnectEvent(connection: ConnectionInfo, statusCode: number, reason: string): Record<string, unknown> {
  const host = connection.domainName;
  return {
    headers: { Host: host, 'x-api-key': '', 'X-Forwarded-For': '', 'x-restapi': '' },
    multiValueHeaders: { Host: [host], 'x-api-key': [''], 'X-Forwarded-For': [''], 'x-restapi': [''] },
    requestContext: requestContext(connection, '$disconnect', 'DISCONNECT', { disconnectStatusCode: statusCode, disconnectReason: reason }),
    isBase64Encoded: false,
  };
}

/**
 * The route key a message selects: the API's routeSelectionExpression (`$request.body.action`,
 * `${request.body.a.b}`) evaluated on the message as JSON. A message that is not a JSON object, or
 * lacks the property, selects nothing (the caller falls back to `$default`).
 */
export function selectRoute(expression: string, body: string): string | undefined {
  const path = /^\$\{?request\.body\.([^}]+)\}?$/.exec(expression.trim())?.[1];
  if (!path) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
}

/**
 * An access log line: `format` with each `$context.<path>` variable replaced by that field of the
 * event's requestContext (`$context.identity.sourceIp`, `$context.routeKey`, …), `status` and
 * `error.message` by the outcome, and "-" for what the event does not carry, as API Gateway writes them.
 */
export function accessLogLine(format: string, context: Record<string, unknown>, outcome: { status: number; error?: string }): string {
  const known: Record<string, unknown> = { status: outcome.status, 'error.message': outcome.error, 'error.messageString': outcome.error === undefined ? undefined : JSON.stringify(outcome.error) };
  return format.replace(/\$context\.([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*)/g, (_, path: string) => {
    let value: unknown = Object.hasOwn(known, path) ? known[path] : context;
    if (!Object.hasOwn(known, path)) {
      for (const key of path.split('.')) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    }
    return value === undefined || value === null || value === '' || typeof value === 'object' ? '-' : String(value);
  });
}
