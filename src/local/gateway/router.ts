import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { LocalServices } from '../service-interfaces';
import type { ResourceRecord } from '../cloudformation/model';
import type { LocalRequest, LocalResponse } from '../http';
import { EXECUTE_API_PREFIX, LAMBDA_URL_PREFIX } from './endpoints';
import { corsPreflight, withCorsHeaders, type CorsConfiguration } from './cors';
import { mockIntegration } from './mock-integration';
import { httpEventV2, httpResponseV2, jsonMessage, restEventV1, restResponseV1 } from './events';
import { bestMatch, functionOfIntegration } from './routes';
import { lambdaIntegrationEvent, lambdaIntegrationResponse, requestTemplate, TemplateOutputError } from './lambda-integration';
import { deployReportResponse } from '../deploy-report';
import { sesMessagesResponse } from '../ses/outbox';
import { GatewayAuthorization, NOT_ENFORCED_HEADER, type Protected } from './authorization';
import { functionUrlForbidden } from '../auth/responses';
import { verifySigV4 } from './sigv4';
import { validateRequest } from './request-validation';
import { CUSTOM_RESOURCE_RESPONSE_PREFIX, receiveCustomResourceResponse } from '../providers/custom-resource';
import { signalWaitCondition, WAIT_CONDITION_PREFIX } from '../providers/wait-condition';
import { refuseUpgrade, WebSocketApis } from '../websocket/websocket-apis';
import { manageConnection } from '../websocket/management';
import { isThrottle } from '../runtime/concurrency';

type Target = { kind: 'execute-api' | 'lambda-url'; id: string; path: string };

/** `/_fw/execute-api/<id>/rest`, `/_fw/lambda-url/<id>/rest`, or the same ids in the Host header. */
export function gatewayTarget(request: LocalRequest): Target | undefined {
  for (const [prefix, kind] of [[EXECUTE_API_PREFIX, 'execute-api'], [LAMBDA_URL_PREFIX, 'lambda-url']] as const) {
    if (request.path.startsWith(prefix)) {
      const rest = request.path.slice(prefix.length);
      const slash = rest.indexOf('/');
      return { kind, id: slash === -1 ? rest : rest.slice(0, slash), path: slash === -1 ? '/' : rest.slice(slash) };
    }
  }
  const host = /^([a-z0-9]+)\.(execute-api|lambda-url)\./.exec(request.hostname);
  if (host) return { kind: host[2] as Target['kind'], id: host[1], path: request.path };
  return undefined;
}

/**
 * Serves deployed HTTP APIs, REST APIs and function URLs: finds the route in
 * the stacks' resources and invokes its function with the payload AWS sends.
 */
export class GatewayRouter {
  private readonly authorization: GatewayAuthorization;
  readonly websockets: WebSocketApis;

  constructor(private readonly cloud: LocalServices) {
    this.authorization = new GatewayAuthorization(cloud);
    this.websockets = new WebSocketApis(cloud, this.authorization);
  }

  /** An HTTP upgrade: a WebSocket API's connection, or refused as API Gateway refuses a path it does not serve. */
  async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, request: LocalRequest): Promise<void> {
    const target = gatewayTarget(request);
    const api = target?.kind === 'execute-api' ? this.cloud.resources('AWS::ApiGatewayV2::Api').find(({ record }) => record.physicalId === target.id) : undefined;
    if (!target || !api || api.record.properties.ProtocolType !== 'WEBSOCKET') return refuseUpgrade(socket, jsonMessage(404, 'Not Found'));
    return this.websockets.upgrade(req, socket, head, request, api.record, target.path);
  }

  async handle(request: LocalRequest): Promise<LocalResponse | undefined> {
    const issuer = this.authorization.issuer.handle(request, this.cloud.baseUrl);
    if (issuer) return issuer;
    const report = await deployReportResponse(this.cloud, request);
    if (report) return report;
    const messages = sesMessagesResponse(this.cloud.sesOutbox, request);
    if (messages) return messages;
    if (request.path.startsWith(WAIT_CONDITION_PREFIX)) return signalWaitCondition(this.cloud, request);
    if (request.path.startsWith(CUSTOM_RESOURCE_RESPONSE_PREFIX)) return receiveCustomResourceResponse(this.cloud, request);
    const target = gatewayTarget(request);
    if (!target) return undefined;
    if (target.kind === 'lambda-url') return this.functionUrl(request, target);
    const httpApi = this.cloud.resources('AWS::ApiGatewayV2::Api').find(({ record }) => record.physicalId === target.id);
    if (httpApi?.record.properties.ProtocolType === 'WEBSOCKET') {
      // Plain HTTP to a WebSocket API: only the @connections management API answers.
      if (/\/(@|%40)connections\//i.test(target.path)) return manageConnection(this.websockets, request, httpApi.record, target.path);
      return jsonMessage(426, 'Upgrade Required');
    }
    if (httpApi) return this.httpApi(request, target, httpApi.record);
    const restApi = this.cloud.resources('AWS::ApiGateway::RestApi').find(({ record }) => record.physicalId === target.id);
    if (restApi) return this.restApi(request, target, restApi.record);
    return jsonMessage(404, 'Not Found');
  }

  /**
   * The resources whose `key` property is `id` (an API's stages, routes, integrations, …), by type,
   * from one pass over the deployed resources: a pass per type was up to a tenth of a gateway request.
   */
  private children(key: string, id: string): (type: string) => ResourceRecord[] {
    const byType = new Map<string, ResourceRecord[]>();
    for (const { record } of this.cloud.resources()) {
      if (record.properties[key] !== id) continue;
      const found = byType.get(record.type);
      if (found) found.push(record);
      else byType.set(record.type, [record]);
    }
    return (type) => byType.get(type) ?? [];
  }

  /** The function behind a route, once the route's authorizer (if any) let the request through. */
  private async authorizedInvoke(request: LocalRequest, target: Protected, functionArn: string | undefined, validate?: () => LocalResponse | undefined): Promise<LocalResponse> {
    const checked = await this.authorization.check(request, target);
    if ('refusal' in checked) return checked.refusal;
    const invalid = validate?.();
    if (invalid) return invalid;
    const response = await this.invoke(functionArn, target.event, target.format);
    return checked.notEnforced ? { ...response, headers: { ...response.headers, [NOT_ENFORCED_HEADER]: checked.notEnforced } } : response;
  }

  private async invoke(functionArn: string | undefined, event: unknown, format: '1.0' | '2.0'): Promise<LocalResponse> {
    if (!functionArn) return jsonMessage(500, 'Internal Server Error');
    try {
      const outcome = await this.cloud.functions.invoke(functionArn, event);
      if (outcome.functionError) {
        const timedOut = outcome.payload.includes('Sandbox.Timedout');
        if (format === '1.0') return timedOut ? jsonMessage(504, 'Endpoint request timed out') : jsonMessage(502, 'Internal server error');
        return timedOut ? jsonMessage(503, 'Service Unavailable') : jsonMessage(500, 'Internal Server Error');
      }
      const value = JSON.parse(outcome.payload) as unknown;
      return format === '1.0' ? restResponseV1(value) : httpResponseV2(value);
    } catch (error) {
      this.cloud.log(`gateway invoke of ${functionArn} failed: ${(error as Error).message}`);
      // A throttled function (Lambda's 429) is an internal server error to the client of either kind of API.
      if (isThrottle(error)) return format === '1.0' ? jsonMessage(500, 'Internal server error') : jsonMessage(500, 'Internal Server Error');
      return jsonMessage(format === '1.0' ? 502 : 500, format === '1.0' ? 'Internal server error' : 'Internal Server Error');
    }
  }

  private async httpApi(request: LocalRequest, target: Target, api: ResourceRecord): Promise<LocalResponse> {
    const cors = api.properties.CorsConfiguration as CorsConfiguration | undefined;
    const preflight = corsPreflight(request, cors);
    if (preflight) return preflight;
    return withCorsHeaders(request, cors, await this.httpApiRoute(request, target, api));
  }

  private async httpApiRoute(request: LocalRequest, target: Target, api: ResourceRecord): Promise<LocalResponse> {
    const children = this.children('ApiId', api.physicalId);
    const stages = children('AWS::ApiGatewayV2::Stage').map((record) => String(record.properties.StageName));
    const first = target.path.split('/')[1] ?? '';
    const stage = first && first !== '$default' && stages.includes(first) ? first : '$default';
    const path = stage === '$default' ? target.path : target.path.slice(stage.length + 1) || '/';
    const routes = children('AWS::ApiGatewayV2::Route').map((record) => {
      const routeKey = String(record.properties.RouteKey);
      const [method, routePath] = routeKey === '$default' ? ['ANY', '/{proxy+}'] : routeKey.split(' ');
      return { method, path: routePath ?? '/', routeKey, record };
    });
    const match = bestMatch(routes, request.method, path) ?? (path === '/' ? bestMatch(routes.filter((r) => r.routeKey === '$default').map((r) => ({ ...r, path: '/' })), request.method, '/') : undefined);
    if (!match) return jsonMessage(404, 'Not Found');
    const integrationId = String(match.item.record.properties.Target ?? '').replace(/^integrations\//, '');
    const integration = children('AWS::ApiGatewayV2::Integration').find((record) => record.physicalId === integrationId);
    if (!integration) return jsonMessage(500, 'Internal Server Error');
    const format = String(integration.properties.PayloadFormatVersion ?? '2.0') === '1.0' ? '1.0' : '2.0';
    const stageVariables = children('AWS::ApiGatewayV2::Stage').find((record) => String(record.properties.StageName) === stage)?.properties.StageVariables;
    const base = {
      accountId: this.cloud.accountId,
      apiId: api.physicalId,
      stage,
      routeKey: match.item.routeKey,
      path,
      pathParameters: match.parameters,
      domainName: `${api.physicalId}.execute-api.${request.region}.amazonaws.com`,
      stageVariables: stageVariables as Record<string, string> | undefined,
    };
    const event = format === '2.0' ? httpEventV2(request, base) : restEventV1(request, { ...base, version: '1.0', resourceId: match.item.routeKey, resourcePath: match.item.path });
    const route: Protected = { kind: 'http', api, stage, path, route: match.item.record, event, format };
    return withRequestId(await this.authorizedInvoke(request, route, functionOfIntegration(integration.properties.IntegrationUri)), 'apigw-requestid', event);
  }

  private async restApi(request: LocalRequest, target: Target, api: ResourceRecord): Promise<LocalResponse> {
    const [, stage = '', ...rest] = target.path.split('/');
    const path = `/${rest.join('/')}`;
    const children = this.children('RestApiId', api.physicalId);
    const stages = new Set([
      ...children('AWS::ApiGateway::Deployment').map((record) => record.properties.StageName),
      ...children('AWS::ApiGateway::Stage').map((record) => record.properties.StageName),
    ]);
    if (!stages.has(stage)) return jsonMessage(403, 'Missing Authentication Token');
    const resources = children('AWS::ApiGateway::Resource');
    const pathOf = (resourceId: string): string => {
      if (resourceId === api.attributes.RootResourceId) return '/';
      const resource = resources.find((record) => record.physicalId === resourceId);
      if (!resource) return '/?';
      const parent = pathOf(String(resource.properties.ParentId));
      return `${parent === '/' ? '' : parent}/${String(resource.properties.PathPart)}`;
    };
    const methods = children('AWS::ApiGateway::Method').map((record) => ({
      method: String(record.properties.HttpMethod).toUpperCase(),
      path: pathOf(String(record.properties.ResourceId)),
      record,
    }));
    const match = bestMatch(methods, request.method, path);
    if (!match) return jsonMessage(403, 'Missing Authentication Token');
    const integration = (match.item.record.properties.Integration ?? {}) as Record<string, unknown>;
    // A stage's variables: AWS::ApiGateway::Stage `Variables`, or the `StageDescription` of the deployment that made the stage.
    const stageVariables = (children('AWS::ApiGateway::Stage').find((record) => record.properties.StageName === stage)?.properties.Variables ??
      (
        children('AWS::ApiGateway::Deployment').find((record) => record.properties.StageName === stage)?.properties.StageDescription as
          | Record<string, unknown>
          | undefined
      )?.Variables) as Record<string, string> | undefined;
    const event = restEventV1(request, {
      stageVariables,
      accountId: this.cloud.accountId,
      apiId: api.physicalId,
      stage,
      routeKey: '',
      path,
      pathParameters: match.parameters,
      domainName: `${api.physicalId}.execute-api.${request.region}.amazonaws.com`,
      resourceId: String(match.item.record.properties.ResourceId),
      resourcePath: match.item.path,
      body: { binaryMediaTypes: (api.properties.BinaryMediaTypes as string[] | undefined) ?? [], contentHandling: integration.ContentHandling as string | undefined },
    });
    return withRequestId(await this.restMethod(request, api, stage, path, match, integration, event), 'x-amzn-requestid', event);
  }

  private async restMethod(
    request: LocalRequest,
    api: ResourceRecord,
    stage: string,
    path: string,
    match: { item: { path: string; record: ResourceRecord }; parameters: Record<string, string> },
    integration: Record<string, unknown>,
    event: Record<string, unknown>,
  ): Promise<LocalResponse> {
    const method: Protected = { kind: 'rest', api, stage, path, route: match.item.record, event, format: '1.0' };
    // After the authorizer, before the integration, as API Gateway validates.
    const validate = () => validateRequest(request, match.item.record, match.parameters, (type) => this.cloud.resources(type).map(({ record }) => record));
    if (integration.Type === 'MOCK') {
      const checked = await this.authorization.check(request, method);
      return 'refusal' in checked ? checked.refusal : validate() ?? mockIntegration(integration, request, method.event);
    }
    const functionArn = functionOfIntegration(integration.Uri);
    if (integration.Type === 'AWS' && functionArn) return this.lambdaIntegration(request, method, integration, functionArn, validate);
    return this.authorizedInvoke(request, method, functionOfIntegration(integration.Uri), validate);
  }

  /** REST `integration: lambda`: the request template's event in, the integration responses' status out. */
  private async lambdaIntegration(
    request: LocalRequest,
    method: Protected,
    integration: Record<string, unknown>,
    functionArn: string,
    validate: () => LocalResponse | undefined,
  ): Promise<LocalResponse> {
    const checked = await this.authorization.check(request, method);
    if ('refusal' in checked) return checked.refusal;
    const invalid = validate();
    if (invalid) return invalid;
    const log = (line: string) => this.cloud.log(`${request.method} ${request.path}: ${line}`);
    const { contentType, template } = requestTemplate(integration, request);
    try {
      const outcome = await this.cloud.functions.invoke(functionArn, lambdaIntegrationEvent(request, method.event, contentType, template));
      return lambdaIntegrationResponse(integration, outcome, method.event);
    } catch (error) {
      if (error instanceof TemplateOutputError) {
        log(error.message);
        return jsonMessage(500, 'Internal server error');
      }
      log(`invoke of ${functionArn} failed: ${(error as Error).message}`);
      return jsonMessage(isThrottle(error) ? 500 : 502, 'Internal server error');
    }
  }

  private async functionUrl(request: LocalRequest, target: Target): Promise<LocalResponse> {
    const url = this.cloud.resources('AWS::Lambda::Url').find(({ record }) => record.attributes.UrlId === target.id);
    if (!url) return jsonMessage(404, 'Not Found');
    let caller: Record<string, unknown> | undefined;
    if (url.record.properties.AuthType === 'AWS_IAM') {
      const signed = verifySigV4(request, this.cloud.credentials, 'lambda');
      if ('refused' in signed) return functionUrlForbidden();
      const account = this.cloud.accountId;
      caller = { accessKey: signed.accessKeyId, accountId: account, callerId: account, cognitoIdentity: null, principalOrgId: null, userArn: `arn:aws:iam::${account}:root`, userId: account };
    }
    const event = httpEventV2(request, {
      accountId: this.cloud.accountId,
      apiId: target.id,
      stage: '$default',
      routeKey: '$default',
      path: target.path,
      pathParameters: {},
      domainName: `${target.id}.lambda-url.${request.region}.on.aws`,
    });
    // An IAM-authorized function URL tells the function who signed.
    if (caller) (event.requestContext as Record<string, unknown>).authorizer = { iam: caller };
    return this.invoke(String(url.record.attributes.FunctionArn), event, '2.0');
  }
}

/**
 * The request id API Gateway answers with: REST APIs `x-amzn-RequestId` (and `x-amz-apigw-id`, the
 * extended id), HTTP APIs `apigw-requestid`; each the id the function saw in `requestContext`.
 */
function withRequestId(response: LocalResponse, name: 'x-amzn-requestid' | 'apigw-requestid', event: Record<string, unknown>): LocalResponse {
  const context = event.requestContext as { requestId: string; extendedRequestId?: string };
  const ids: Record<string, string> = name === 'apigw-requestid' ? { 'apigw-requestid': context.requestId } : { 'x-amzn-requestid': context.requestId, 'x-amz-apigw-id': context.extendedRequestId ?? '' };
  return { ...response, headers: { ...response.headers, ...ids } };
}
