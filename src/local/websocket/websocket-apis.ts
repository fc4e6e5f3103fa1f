import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { LocalCredentials } from '../access/credentials';
import type { CloudIdentity, Diagnostics, DeployedResources, FunctionInvoker, Stores } from '../service-interfaces';

/** What WebSocket APIs need: where the cloud listens, its credentials, the deployed routes, the functions behind them and the log groups stages write to. */
export type WebSocketServices = CloudIdentity & Diagnostics & Pick<DeployedResources, 'resources'> & Pick<Stores, 'logs'> & { readonly functions: FunctionInvoker };
import type { ResourceRecord } from '../cloudformation/model';
import type { LocalRequest, LocalResponse } from '../http';
import type { GatewayAuthorization } from '../gateway/authorization';
import { functionOfIntegration } from '../gateway/routes';
import { accessLogLine, connectEvent, disconnectEvent, messageEvent, selectRoute, type ConnectionInfo } from './events';

/** API Gateway's WebSocket limits: 128 KB a message, 10 minutes idle, 2 hours a connection. */
export const MAX_MESSAGE_BYTES = 128 * 1024;
const IDLE_TIMEOUT_MS = 10 * 60_000;
const MAX_CONNECTION_MS = 2 * 60 * 60_000;

export interface Connection extends ConnectionInfo {
  socket: WebSocket;
  lastActiveAt: number;
  /** Closed by the server (DeleteConnection, time-outs): the status and reason $disconnect reports. */
  closedBy?: { code: number; reason: string };
  timers: NodeJS.Timeout[];
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 500: 'Internal Server Error', 502: 'Bad Gateway' };

/** An upgrade answered with an HTTP status instead of a WebSocket. */
export function refuseUpgrade(socket: Duplex, response: LocalResponse): void {
  const body = response.body === undefined ? Buffer.alloc(0) : Buffer.from(response.body);
  const headers = { 'content-type': 'application/json', ...response.headers, 'content-length': String(body.length), connection: 'close' };
  const head = [`HTTP/1.1 ${response.status} ${STATUS_TEXT[response.status] ?? 'Error'}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)].join('\r\n');
  socket.end(Buffer.concat([Buffer.from(`${head}\r\n\r\n`), body]));
}

const message = (status: number, text: string): LocalResponse => ({ status, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: text }) });

/**
 * Deployed WebSocket APIs (`AWS::ApiGatewayV2::Api` with ProtocolType WEBSOCKET), served on
 * the local cloud's port: `ws://127.0.0.1:PORT/_fw/execute-api/<apiId>/<stage>` or
 * `ws://<apiId>.execute-api.localhost:PORT/<stage>`. The upgrade waits for the `$connect`
 * route (authorizer, then function) as API Gateway's does; messages go to the route the
 * API's routeSelectionExpression picks, else `$default`; closing runs `$disconnect`; and
 * `@connections` lets functions push to, describe and close connections.
 */
export class WebSocketApis {
  /** The subprotocol each pending upgrade's $connect chose (its `Sec-WebSocket-Protocol` response header). */
  private readonly protocols = new WeakMap<IncomingMessage, string>();
  private readonly server = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    handleProtocols: (offered, req) => {
      const chosen = this.protocols.get(req);
      return chosen !== undefined && offered.has(chosen) ? chosen : false;
    },
  });
  readonly connections = new Map<string, Connection>();
  private stopping = false;

  constructor(
    private readonly cloud: WebSocketServices,
    private readonly authorization: GatewayAuthorization,
  ) {}

  /** What `@connections` calls are signed with. */
  get credentials(): LocalCredentials {
    return this.cloud.credentials;
  }

  /** The domain name functions are told (`requestContext.domainName`): `https://<it>/<stage>` reaches `@connections` here. */
  domainName(apiId: string): string {
    return `${apiId}.execute-api.localhost:${new URL(this.cloud.baseUrl).port}`;
  }

  private children(type: string, apiId: string): ResourceRecord[] {
    return this.cloud
      .resources(type)
      .map(({ record }) => record)
      .filter((record) => record.properties.ApiId === apiId);
  }

  private stages(api: ResourceRecord): string[] {
    return this.children('AWS::ApiGatewayV2::Stage', api.physicalId).map((record) => String(record.properties.StageName));
  }

  private route(api: ResourceRecord, routeKey: string): ResourceRecord | undefined {
    return this.children('AWS::ApiGatewayV2::Route', api.physicalId).find((record) => record.properties.RouteKey === routeKey);
  }

  private functionOf(api: ResourceRecord, route: ResourceRecord): string | undefined {
    const integrationId = String(route.properties.Target ?? '').replace(/^integrations\//, '');
    const integration = this.children('AWS::ApiGatewayV2::Integration', api.physicalId).find((record) => record.physicalId === integrationId);
    return functionOfIntegration(integration?.properties.IntegrationUri);
  }

  /** A route answers the client when it has a route response (`routeResponseSelectionExpression` in serverless.yml). */
  private hasRouteResponse(api: ResourceRecord, route: ResourceRecord): boolean {
    if (route.properties.RouteResponseSelectionExpression) return true;
    return this.children('AWS::ApiGatewayV2::RouteResponse', api.physicalId).some((record) => record.properties.RouteId === route.physicalId);
  }

  /** The upgrade of `request` (already admitted by the access guard) to a WebSocket on `api`. */
  async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, request: LocalRequest, api: ResourceRecord, path: string): Promise<void> {
    const stage = path.split('/')[1] ?? '';
    if (!this.stages(api).includes(stage) || path.split('/').length > 2) return refuseUpgrade(socket, message(403, 'Forbidden'));
    if (String(req.headers.upgrade ?? '').toLowerCase() !== 'websocket' || !req.headers['sec-websocket-key']) return refuseUpgrade(socket, message(400, 'Bad Request'));
    const connection: ConnectionInfo = {
      connectionId: `${randomBytes(11).toString('base64url')}=`,
      apiId: api.physicalId,
      stage,
      domainName: this.domainName(api.physicalId),
      connectedAt: Date.now(),
      sourceIp: req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1',
      userAgent: String(req.headers['user-agent'] ?? ''),
    };
    const event = connectEvent(connection, req.rawHeaders, request.search);
    const connectRoute = this.route(api, '$connect');
    if (connectRoute) {
      const checked = await this.authorization.checkWebSocketConnect(request, api, connectRoute, event);
      if ('refusal' in checked) {
        this.accessLog(api, event, checked.refusal.status);
        return refuseUpgrade(socket, checked.refusal);
      }
      connection.authorizer = checked.authorizer;
      if (checked.authorizer) (event.requestContext as Record<string, unknown>).authorizer = checked.authorizer;
      const answer = await this.invokeRoute(api, connectRoute, event);
      if ('failed' in answer || answer.statusCode < 200 || answer.statusCode > 299) {
        const refusal = 'failed' in answer ? message(502, 'Internal server error') : { status: answer.statusCode, body: answer.body ?? '' };
        this.accessLog(api, event, refusal.status, 'failed' in answer ? 'Internal server error' : undefined);
        return refuseUpgrade(socket, refusal);
      }
      const protocol = answer.headers['sec-websocket-protocol'];
      if (protocol) this.protocols.set(req, protocol);
    }
    this.accessLog(api, event, 200);
    if (socket.destroyed) return;
    this.server.handleUpgrade(req, socket, head, (ws) => this.accepted(api, { ...connection, socket: ws, lastActiveAt: Date.now(), timers: [] }));
  }

  private accepted(api: ResourceRecord, connection: Connection): void {
    this.connections.set(connection.connectionId, connection);
    this.cloud.log(`WebSocket ${connection.apiId}/${connection.stage} connected ${connection.connectionId}`);
    const idle = () => setTimeout(() => this.close(connection, 1001, 'Going away'), IDLE_TIMEOUT_MS).unref();
    connection.timers = [idle(), setTimeout(() => this.close(connection, 1001, 'Going away'), MAX_CONNECTION_MS).unref()];
    connection.socket.on('message', (data: Buffer, isBinary: boolean) => {
      connection.lastActiveAt = Date.now();
      clearTimeout(connection.timers[0]);
      connection.timers[0] = idle();
      void this.message(api, connection, data, isBinary);
    });
    connection.socket.on('close', (code: number, reason: Buffer) => {
      for (const timer of connection.timers) clearTimeout(timer);
      this.connections.delete(connection.connectionId);
      const closed = connection.closedBy ?? { code: code === 1005 ? 1005 : code, reason: code === 1005 ? 'Client-side close frame status not set' : reason.toString('utf8') };
      this.cloud.log(`WebSocket ${connection.apiId}/${connection.stage} disconnected ${connection.connectionId} (${closed.code})`);
      const route = this.route(api, '$disconnect');
      if (this.stopping) return;
      const event = disconnectEvent(connection, closed.code, closed.reason);
      if (!route) return this.accessLog(api, event, 200);
      void this.invokeRoute(api, route, event).then((answer) => this.accessLog(api, event, 'failed' in answer ? 500 : 200, 'failed' in answer ? 'Internal server error' : undefined));
    });
    connection.socket.on('error', () => {});
  }

  private async message(api: ResourceRecord, connection: Connection, data: Buffer, isBinary: boolean): Promise<void> {
    const expression = String(api.properties.RouteSelectionExpression ?? '$request.body.action');
    const selected = isBinary ? undefined : selectRoute(expression, data.toString('utf8'));
    const route = (selected !== undefined && !selected.startsWith('$') ? this.route(api, selected) : undefined) ?? this.route(api, '$default');
    const event = messageEvent(connection, route ? String(route.properties.RouteKey) : (selected ?? '$default'), data, isBinary);
    const requestId = String((event.requestContext as Record<string, unknown>).requestId);
    const error = (status: number, text: string) => {
      this.accessLog(api, event, status, text);
      this.send(connection, JSON.stringify({ message: text, connectionId: connection.connectionId, requestId }));
    };
    if (!route) return error(403, 'Forbidden');
    const answer = await this.invokeRoute(api, route, event);
    if ('failed' in answer) return error(500, 'Internal server error');
    this.accessLog(api, event, 200);
    if (this.hasRouteResponse(api, route) && answer.body !== undefined) this.send(connection, answer.body);
  }

  /**
   * The stage's access log line for one event, when its `AccessLogSettings` name a log group that exists
   * (`provider.logs.websocket` in serverless.yml): the Format with its `$context.*` variables filled in.
   */
  private accessLog(api: ResourceRecord, event: Record<string, unknown>, status: number, error?: string): void {
    const context = event.requestContext as Record<string, unknown>;
    const stage = this.children('AWS::ApiGatewayV2::Stage', api.physicalId).find((record) => record.properties.StageName === context.stage);
    const settings = stage?.properties.AccessLogSettings as { DestinationArn?: unknown; Format?: unknown } | undefined;
    const group = /:log-group:([^:]+)/.exec(String(settings?.DestinationArn ?? ''))?.[1];
    if (!group || typeof settings?.Format !== 'string' || !this.cloud.logs.hasGroup(group)) return;
    this.cloud.logs.append(group, `${api.physicalId}_${String(context.stage)}`, [accessLogLine(settings.Format, context, { status, error })]);
  }

  private send(connection: Connection, data: string | Buffer): void {
    if (connection.socket.readyState === connection.socket.OPEN) connection.socket.send(data);
  }

  /** The route's function's answer, read as a Lambda proxy integration's. */
  private async invokeRoute(api: ResourceRecord, route: ResourceRecord, event: Record<string, unknown>): Promise<{ failed: true } | { statusCode: number; headers: Record<string, string>; body?: string }> {
    const functionArn = this.functionOf(api, route);
    if (!functionArn) return { failed: true };
    try {
      const outcome = await this.cloud.functions.invoke(functionArn, event);
      if (outcome.functionError) return { failed: true };
      const value = JSON.parse(outcome.payload) as unknown;
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        return { statusCode: 200, headers: {}, body: value === null ? undefined : typeof value === 'string' ? value : JSON.stringify(value) };
      }
      const result = value as Record<string, unknown>;
      const headers = Object.fromEntries(Object.entries((result.headers as Record<string, unknown> | undefined) ?? {}).map(([name, item]) => [name.toLowerCase(), String(item)]));
      const body = result.body === undefined || result.body === null ? undefined : typeof result.body === 'string' ? result.body : JSON.stringify(result.body);
      return { statusCode: result.statusCode === undefined ? 200 : Number(result.statusCode), headers, body };
    } catch (error) {
      this.cloud.log(`WebSocket route ${String(route.properties.RouteKey)} of ${api.physicalId}: ${(error as Error).message}`);
      return { failed: true };
    }
  }

  /** Closes a connection from the server's side; $disconnect reports `code` and `reason`. */
  close(connection: Connection, code: number, reason: string): void {
    connection.closedBy ??= { code, reason };
    connection.socket.close(code, reason);
  }

  /** Every connection dropped at once, when the server stops (no $disconnect is run then). */
  closeAll(): void {
    this.stopping = true;
    for (const connection of this.connections.values()) {
      for (const timer of connection.timers) clearTimeout(timer);
      connection.socket.terminate();
    }
    this.connections.clear();
    this.server.close();
  }
}
