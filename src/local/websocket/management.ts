import { isUtf8 } from 'node:buffer';
import type { ResourceRecord } from '../cloudformation/model';
import type { LocalRequest, LocalResponse } from '../http';
import { signatureRefused } from '../auth/responses';
import { verifySigV4 } from '../gateway/sigv4';
import { MAX_MESSAGE_BYTES, type Connection, type WebSocketApis } from './websocket-apis';

function managementError(status: number, errorType: string, body: Record<string, unknown> = {}): LocalResponse {
  return { status, headers: { 'content-type': 'application/json', 'x-amzn-errortype': errorType }, body: JSON.stringify(body) };
}

/**
 * The `@connections` API (ApiGatewayManagementApi): PostToConnection, GetConnection and
 * DeleteConnection, signed with SigV4 for `execute-api` like every call an SDK makes to it.
 * A connection that is gone, or belongs to another API or stage, is a GoneException (410).
 */
export function manageConnection(apis: WebSocketApis, request: LocalRequest, api: ResourceRecord, path: string): LocalResponse {
  const parts = /^\/([^/]+)\/(?:@|%40)connections\/([^/]+)$/i.exec(path);
  if (!parts) return managementError(403, 'MissingAuthenticationTokenException', { message: 'Missing Authentication Token' });
  const signed = verifySigV4(request, apis.credentials);
  if ('refused' in signed) return signatureRefused(signed.refused.message, signed.refused.errorType);
  const [, stage, encodedId] = parts;
  const connection: Connection | undefined = apis.connections.get(decodeURIComponent(encodedId));
  if (!connection || connection.apiId !== api.physicalId || connection.stage !== stage) return managementError(410, 'GoneException');
  if (request.method === 'POST') {
    if (request.body.length > MAX_MESSAGE_BYTES) return managementError(413, 'PayloadTooLargeException', { message: 'Message too long' });
    connection.lastActiveAt = Date.now();
    connection.socket.send(isUtf8(request.body) ? request.body.toString('utf8') : request.body);
    return { status: 200, headers: { 'content-type': 'application/json' } };
  }
  if (request.method === 'GET') {
    const body = {
      connectedAt: new Date(connection.connectedAt).toISOString(),
      identity: { sourceIp: connection.sourceIp, userAgent: connection.userAgent },
      lastActiveAt: new Date(connection.lastActiveAt).toISOString(),
    };
    return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  }
  if (request.method === 'DELETE') {
    apis.close(connection, 1000, 'Connection closed by the server');
    return { status: 204 };
  }
  return managementError(403, 'MissingAuthenticationTokenException', { message: 'Missing Authentication Token' });
}
