import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import type { ResourceRecord } from '../cloudformation/model';
import type { CloudIdentity, ListenerEndpoint, LoadBalancerEndpoints, TriggerServices } from '../service-interfaces';
import { writeJsonAtomic } from '../state/files';
import { readBody } from '../http';
import { urlHost, WILDCARD_HOSTS } from '../access/hosts';
import { byCodeUnits } from '../../order';
import { ruleMatches, type RuleCondition, type RuleRequest } from './conditions';
import { albError, albEvent, albResponse, type AlbResponse } from './events';

const LISTENER = 'AWS::ElasticLoadBalancingV2::Listener';
const RULE = 'AWS::ElasticLoadBalancingV2::ListenerRule';
const TARGET_GROUP = 'AWS::ElasticLoadBalancingV2::TargetGroup';

interface Action {
  Type?: string;
  Order?: number;
  TargetGroupArn?: string;
  ForwardConfig?: { TargetGroups?: { TargetGroupArn?: string; Weight?: number }[] };
  FixedResponseConfig?: { StatusCode?: string; ContentType?: string; MessageBody?: string };
  RedirectConfig?: { Protocol?: string; Host?: string; Port?: string; Path?: string; Query?: string; StatusCode?: string };
}

interface Served {
  server: Server;
  port: number;
}

/** A listener rule's `Values`, whole: what `true`/`"true"` target group attributes and the like come down to. */
const isTrue = (value: unknown) => value === true || String(value).toLowerCase() === 'true';

/**
 * Serves every Application Load Balancer listener the stacks have, or that their listener rules
 * name, each on a port of its own (kept across restarts when free), since an ALB routes by the
 * Host header and so cannot share the local cloud's port: rules in priority order, their
 * actions (forward to a Lambda target group, fixed response, redirect), then the listener's
 * default actions. Health checks of Lambda target groups run on their interval.
 */
export class LoadBalancers implements LoadBalancerEndpoints {
  private readonly served = new Map<string, Served>();
  private readonly starting = new Map<string, Promise<void>>();
  private readonly healthTimers = new Map<string, NodeJS.Timeout>();
  private readonly health = new Map<string, 'healthy' | 'unhealthy'>();
  private host?: string;
  private stopped = false;

  constructor(private readonly cloud: TriggerServices & Pick<CloudIdentity, 'dataDir'>) {}

  private get portsFile(): string {
    return join(this.cloud.dataDir, 'state', 'load-balancer-ports.json');
  }

  private rememberedPorts(): Record<string, number> {
    try {
      return existsSync(this.portsFile) ? (JSON.parse(readFileSync(this.portsFile, 'utf8')) as Record<string, number>) : {};
    } catch {
      return {};
    }
  }

  /** Starts serving on this address (the local cloud's), then follows the stacks. */
  async listen(host: string): Promise<void> {
    this.host = host;
    this.sync();
    await this.ready();
  }

  /** Waits for listeners being started (what the deploy report does before saying where they are). */
  async ready(): Promise<void> {
    await Promise.all(this.starting.values());
  }

  private listenerArns(): Map<string, ResourceRecord | undefined> {
    const wanted = new Map<string, ResourceRecord | undefined>();
    for (const { record } of this.cloud.resources(LISTENER)) wanted.set(record.ref ?? record.physicalId, record);
    for (const { record } of this.cloud.resources(RULE)) {
      const listenerArn = String(record.properties.ListenerArn ?? '');
      if (listenerArn && !wanted.has(listenerArn)) wanted.set(listenerArn, undefined);
    }
    return wanted;
  }

  sync(): void {
    if (this.stopped || this.host === undefined) return;
    const wanted = this.listenerArns();
    for (const [listenerArn, served] of this.served) {
      if (wanted.has(listenerArn)) continue;
      this.served.delete(listenerArn);
      served.server.close();
      served.server.closeAllConnections();
    }
    for (const listenerArn of wanted.keys()) {
      if (!this.served.has(listenerArn) && !this.starting.has(listenerArn)) {
        const start = this.start(listenerArn).finally(() => this.starting.delete(listenerArn));
        this.starting.set(listenerArn, start);
      }
    }
    this.syncHealthChecks();
  }

  private async start(listenerArn: string): Promise<void> {
    const server = createServer((req, res) => void this.serve(listenerArn, req, res));
    // A load balancer's idle timeout (idle_timeout.timeout_seconds) is 60 s by default.
    server.keepAliveTimeout = 60_000;
    server.on('upgrade', (_req: IncomingMessage, socket: Duplex) => {
      // "WebSockets are not supported. Upgrade requests are rejected with an HTTP 400 code."
      socket.end('HTTP/1.1 400 Bad Request\r\nserver: awselb/2.0\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
    });
    const remembered = this.rememberedPorts()[listenerArn];
    const listenOn = (port: number) =>
      new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, this.host, () => {
          server.off('error', reject);
          resolve();
        });
      });
    try {
      await listenOn(remembered ?? 0);
    } catch {
      await listenOn(0);
    }
    const port = (server.address() as AddressInfo).port;
    if (this.stopped || !this.listenerArns().has(listenerArn)) {
      server.close();
      return;
    }
    this.served.set(listenerArn, { server, port });
    if (remembered !== port) writeJsonAtomic(this.portsFile, { ...this.rememberedPorts(), [listenerArn]: port });
    this.cloud.log(`load balancer listener ${listenerArn} on http://${this.urlHost()}:${port}`);
  }

  /** Where clients on this machine reach a listener's address (loopback when bound to every interface). */
  private urlHost(): string {
    const host = this.host ?? '127.0.0.1';
    return WILDCARD_HOSTS.has(host) ? '127.0.0.1' : urlHost(host);
  }

  /** Where each listener of these stacks answers. */
  endpoints(stackIds?: Set<string>): ListenerEndpoint[] {
    const endpoints: ListenerEndpoint[] = [];
    const ownerOf = new Map<string, string | undefined>();
    for (const { stack, record } of this.cloud.resources(LISTENER)) if (!stackIds || stackIds.has(stack.stackId)) ownerOf.set(record.ref ?? record.physicalId, record.logicalId);
    for (const { stack, record } of this.cloud.resources(RULE)) {
      const listenerArn = String(record.properties.ListenerArn ?? '');
      if ((!stackIds || stackIds.has(stack.stackId)) && !ownerOf.has(listenerArn)) ownerOf.set(listenerArn, undefined);
    }
    for (const [listenerArn, logicalId] of ownerOf) {
      const served = this.served.get(listenerArn);
      if (served) endpoints.push({ listenerArn, url: `http://${this.urlHost()}:${served.port}`, ...(logicalId ? { logicalId } : {}) });
    }
    return endpoints.sort((a, b) => byCodeUnits(a.listenerArn, b.listenerArn));
  }

  private async serve(listenerArn: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    if (!body) {
      res.destroy();
      return;
    }
    let response: AlbResponse;
    try {
      response = await this.route(listenerArn, req, body);
    } catch (error) {
      this.cloud.log(`load balancer ${listenerArn}: ${(error as Error).stack ?? String(error)}`);
      response = albError(502);
    }
    this.cloud.log(`${req.method} ${req.url} (load balancer) → ${response.status}`);
    if (res.destroyed) return;
    const answer = response.body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(response.body) ? response.body : Buffer.from(response.body);
    const headers: Record<string, string | string[]> = { ...response.headers, ...response.multiValueHeaders };
    if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-length')) headers['content-length'] = String(answer.length);
    res.writeHead(response.status, response.statusMessage ?? '', headers);
    res.end(req.method === 'HEAD' ? undefined : answer);
  }

  private async route(listenerArn: string, req: IncomingMessage, body: Buffer): Promise<AlbResponse> {
    const rawUrl = req.url ?? '/';
    const mark = rawUrl.indexOf('?');
    const headers: Record<string, string[]> = {};
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) (headers[req.rawHeaders[i].toLowerCase()] ??= []).push(req.rawHeaders[i + 1]);
    const sourceIp = (req.socket.remoteAddress ?? '').replace(/^::ffff:(?=\d+\.)/, '');
    const request: RuleRequest = {
      method: req.method ?? 'GET',
      path: mark === -1 ? rawUrl : rawUrl.slice(0, mark),
      host: (headers.host?.[0] ?? '').replace(/:\d+$/, ''),
      headers,
      query: mark === -1 ? [] : [...new URLSearchParams(rawUrl.slice(mark + 1))],
      sourceIp,
    };
    const listener = this.listenerArns().get(listenerArn);
    const rules = this.cloud
      .resources(RULE)
      .map(({ record }) => record)
      .filter((record) => record.properties.ListenerArn === listenerArn)
      .sort((a, b) => Number(a.properties.Priority) - Number(b.properties.Priority));
    const rule = rules.find((record) => ruleMatches((record.properties.Conditions as RuleCondition[] | undefined) ?? [], request));
    const actions = (rule ? rule.properties.Actions : listener?.properties.DefaultActions) as Action[] | undefined;
    if (!actions) {
      // A listener of another stack or account: its default action is not known here.
      return { status: 404, headers: { server: 'awselb/2.0', 'content-type': 'text/plain; charset=utf-8' }, body: `No listener rule matched ${request.method} ${request.path}, and ${listenerArn} is in no local stack, so its default action is unknown` };
    }
    const action = [...actions].sort((a, b) => (a.Order ?? 0) - (b.Order ?? 0)).find((candidate) => ['forward', 'fixed-response', 'redirect'].includes(String(candidate.Type)));
    if (!action) return albError(503);
    if (action.Type === 'fixed-response') return fixedResponse(action);
    if (action.Type === 'redirect') return redirect(action, request, rawUrl, listener);
    const targetGroupArn = action.TargetGroupArn ?? weighted(action.ForwardConfig?.TargetGroups ?? []);
    const listenerPort = Number(listener?.properties.Port ?? 80);
    return this.forward(String(targetGroupArn), { method: request.method, rawUrl, rawHeaders: req.rawHeaders, body, sourceIp, port: listenerPort, protocol: String(listener?.properties.Protocol ?? 'HTTP') });
  }

  private targetGroup(targetGroupArn: string): ResourceRecord | undefined {
    return this.cloud.resources(TARGET_GROUP).find(({ record }) => (record.ref ?? record.physicalId) === targetGroupArn)?.record;
  }

  private async forward(targetGroupArn: string, request: Parameters<typeof albEvent>[0]): Promise<AlbResponse> {
    const group = this.targetGroup(targetGroupArn);
    const target = lambdaTarget(group);
    // A target group with no registered (Lambda) target: the load balancer has nowhere to send the request.
    if (!group || !target) return albError(503);
    const multiValue = multiValueHeaders(group);
    try {
      const outcome = await this.cloud.functions.invoke(target.functionArn, albEvent(request, targetGroupArn, multiValue), target.qualifier);
      if (outcome.functionError) return albError(502);
      return albResponse(outcome.payload, multiValue);
    } catch (error) {
      this.cloud.log(`load balancer invoke of ${target.functionArn} failed: ${(error as Error).message}`);
      return albError(502);
    }
  }

  private syncHealthChecks(): void {
    const wanted = new Map<string, { group: ResourceRecord; key: string }>();
    for (const { record } of this.cloud.resources(TARGET_GROUP)) {
      if (record.properties.TargetType !== 'lambda' || !isTrue(record.properties.HealthCheckEnabled) || !lambdaTarget(record)) continue;
      const groupArn = record.ref ?? record.physicalId;
      wanted.set(groupArn, { group: record, key: `${groupArn}|${JSON.stringify(record.properties)}` });
    }
    for (const [key, timer] of this.healthTimers) {
      if (![...wanted.values()].some((entry) => entry.key === key)) {
        clearInterval(timer);
        this.healthTimers.delete(key);
      }
    }
    for (const { group, key } of wanted.values()) {
      if (this.healthTimers.has(key)) continue;
      const seconds = Number(group.properties.HealthCheckIntervalSeconds ?? 35);
      const timer = setInterval(() => void this.checkHealth(group), seconds * 1000);
      timer.unref();
      this.healthTimers.set(key, timer);
      void this.checkHealth(group);
    }
  }

  /** One health check of a Lambda target group: a GET of HealthCheckPath, healthy when the status is one the Matcher names. */
  async checkHealth(group: ResourceRecord): Promise<'healthy' | 'unhealthy'> {
    const groupArn = group.ref ?? group.physicalId;
    const target = lambdaTarget(group)!;
    const event = albEvent(
      { method: 'GET', rawUrl: String(group.properties.HealthCheckPath ?? '/'), rawHeaders: ['user-agent', 'ELB-HealthChecker/2.0'], body: Buffer.alloc(0), sourceIp: '127.0.0.1', port: 80, protocol: 'HTTP' },
      groupArn,
      multiValueHeaders(group),
    );
    delete (event.headers as Record<string, string> | undefined)?.['x-forwarded-for'];
    let state: 'healthy' | 'unhealthy' = 'unhealthy';
    try {
      const outcome = await this.cloud.functions.invoke(target.functionArn, event, target.qualifier);
      const response = outcome.functionError ? undefined : albResponse(outcome.payload, multiValueHeaders(group));
      if (response && statusMatches(response.status, String((group.properties.Matcher as { HttpCode?: unknown } | undefined)?.HttpCode ?? '200'))) state = 'healthy';
    } catch {
      state = 'unhealthy';
    }
    if (this.health.get(groupArn) !== state) this.cloud.log(`target group ${groupArn}: ${state} (health check GET ${String(group.properties.HealthCheckPath ?? '/')})`);
    this.health.set(groupArn, state);
    return state;
  }

  /** The last health check's result of each target group that has them. */
  healthOf(targetGroupArn: string): 'healthy' | 'unhealthy' | undefined {
    return this.health.get(targetGroupArn);
  }

  async close(): Promise<void> {
    this.stopped = true;
    for (const timer of this.healthTimers.values()) clearInterval(timer);
    this.healthTimers.clear();
    await Promise.allSettled(this.starting.values());
    await Promise.all(
      [...this.served.values()].map(
        ({ server }) =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
          }),
      ),
    );
    this.served.clear();
  }
}

function lambdaTarget(group: ResourceRecord | undefined): { functionArn: string; qualifier?: string } | undefined {
  const id = String(((group?.properties.Targets as { Id?: unknown }[] | undefined) ?? [])[0]?.Id ?? '');
  if (!id) return undefined;
  const parts = id.split(':');
  // arn:aws:lambda:region:account:function:name[:qualifier]
  return parts.length === 8 ? { functionArn: parts.slice(0, 7).join(':'), qualifier: parts[7] } : { functionArn: id };
}

function multiValueHeaders(group: ResourceRecord): boolean {
  const attributes = (group.properties.TargetGroupAttributes as { Key?: string; Value?: unknown }[] | undefined) ?? [];
  return isTrue(attributes.find((attribute) => attribute.Key === 'lambda.multi_value_headers.enabled')?.Value);
}

/** `200`, `200,202`, `200-299`: the Matcher's HttpCode forms. */
export function statusMatches(status: number, httpCode: string): boolean {
  return httpCode.split(',').some((part) => {
    const [low, high = low] = part.trim().split('-').map(Number);
    return status >= low && status <= high;
  });
}

function weighted(groups: { TargetGroupArn?: string; Weight?: number }[]): string | undefined {
  const total = groups.reduce((sum, group) => sum + Number(group.Weight ?? 1), 0);
  let pick = Math.random() * total;
  for (const group of groups) {
    pick -= Number(group.Weight ?? 1);
    if (pick < 0) return group.TargetGroupArn;
  }
  return groups[0]?.TargetGroupArn;
}

function fixedResponse(action: Action): AlbResponse {
  const config = action.FixedResponseConfig ?? {};
  const headers: Record<string, string> = { server: 'awselb/2.0' };
  if (config.ContentType) headers['content-type'] = `${config.ContentType}; charset=utf-8`;
  return { status: Number(config.StatusCode ?? 200), headers, body: config.MessageBody ?? '' };
}

/** A redirect action: `#{protocol}`, `#{host}`, `#{port}`, `#{path}`, `#{query}` stand for the request's own. */
function redirect(action: Action, request: RuleRequest, rawUrl: string, listener: ResourceRecord | undefined): AlbResponse {
  const config = action.RedirectConfig ?? {};
  const mark = rawUrl.indexOf('?');
  const own: Record<string, string> = {
    protocol: String(listener?.properties.Protocol ?? 'HTTP').toLowerCase(),
    host: request.host,
    port: String(listener?.properties.Port ?? 80),
    path: request.path.slice(1),
    query: mark === -1 ? '' : rawUrl.slice(mark + 1),
  };
  const fill = (value: string | undefined, fallback: string) => (value ?? fallback).replace(/#\{(protocol|host|port|path|query)\}/g, (_, key: string) => own[key]);
  const protocol = fill(config.Protocol, '#{protocol}').toLowerCase();
  const port = fill(config.Port, '#{port}');
  const defaultPort = (protocol === 'https' && port === '443') || (protocol === 'http' && port === '80');
  const path = fill(config.Path, '/#{path}');
  const query = fill(config.Query, '#{query}');
  const location = `${protocol}://${fill(config.Host, '#{host}')}${defaultPort ? '' : `:${port}`}${path}${query ? `?${query}` : ''}`;
  return { status: config.StatusCode === 'HTTP_302' ? 302 : 301, headers: { server: 'awselb/2.0', location, 'content-type': 'text/html' }, body: '' };
}
