import { AwsError } from '../protocol/errors';
import { lowerCamel, renameMembers } from '../protocol/member-names';
import type { ResourceRecord } from '../cloudformation/model';
import { jsonResponse, type LocalRequest, type LocalResponse } from '../http';

/**
 * HTTP and WebSocket APIs through API Gateway v2's management API, read-only, from what stacks made
 * (AWS::ApiGatewayV2::Api, Route, Integration, Stage): GetApis, GetApi, GetRoutes, GetRoute,
 * GetIntegrations, GetIntegration, GetStages, GetStage. What a test or script calls to find an API
 * by name and its endpoint. API Gateway v2 speaks JSON with lower-camel-case member names; dates are
 * ISO 8601. Anything else under /v2/ stays "not emulated".
 */
export function httpApisApi(records: (type: string) => ResourceRecord[], request: LocalRequest): LocalResponse | undefined {
  if (request.method !== 'GET' || !request.path.startsWith('/v2/apis')) return undefined;
  const parts = request.path.replace(/\/+$/, '').split('/').slice(3).map(decodeURIComponent);
  if (parts.length === 0) return jsonResponse({ items: records('AWS::ApiGatewayV2::Api').map(api) });
  const [apiId, collection, childId] = parts;
  const found = records('AWS::ApiGatewayV2::Api').find((record) => record.physicalId === apiId);
  if (!found) throw new AwsError('NotFoundException', `Invalid API identifier specified ${apiId}`, 404);
  if (collection === undefined) return jsonResponse(api(found));
  const child = CHILDREN[collection];
  if (!child || parts.length > 3) return undefined;
  const items = records(child.type)
    .filter((record) => String(record.properties.ApiId) === apiId)
    .map((record) => child.shape(record, found));
  if (childId === undefined) return jsonResponse({ items });
  const item = items.find((candidate) => candidate[child.id] === childId);
  if (!item) throw new AwsError('NotFoundException', `Invalid ${child.noun} identifier specified ${childId}`, 404);
  return jsonResponse(item);
}

type Shape = (record: ResourceRecord, api: ResourceRecord) => Record<string, unknown>;

const CHILDREN: Record<string, { type: string; id: string; noun: string; shape: Shape }> = {
  routes: { type: 'AWS::ApiGatewayV2::Route', id: 'routeId', noun: 'Route', shape: route },
  integrations: { type: 'AWS::ApiGatewayV2::Integration', id: 'integrationId', noun: 'Integration', shape: integration },
  stages: { type: 'AWS::ApiGatewayV2::Stage', id: 'stageName', noun: 'Stage', shape: stage },
};

const created = (record: ResourceRecord) => new Date(record.timestamp).toISOString();

/** Maps whose keys are the user's (variables, parameters): kept as they are. */
const USER_KEYED = new Set(['StageVariables', 'RequestParameters']);

/** The properties named, when the template gave them, under API Gateway's lower-camel-case names. */
function given(properties: Record<string, unknown>, names: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    if (properties[name] !== undefined) out[lowerCamel(name)] = USER_KEYED.has(name) ? properties[name] : renameMembers(properties[name], lowerCamel);
  }
  return out;
}

function api(record: ResourceRecord): Record<string, unknown> {
  const properties = record.properties;
  const protocol = String(properties.ProtocolType ?? 'HTTP');
  return {
    apiId: record.physicalId,
    name: String(properties.Name ?? record.physicalId),
    protocolType: protocol,
    apiEndpoint: String(record.attributes.ApiEndpoint ?? ''),
    apiKeySelectionExpression: String(properties.ApiKeySelectionExpression ?? '$request.header.x-api-key'),
    routeSelectionExpression: String(properties.RouteSelectionExpression ?? '$request.method $request.path'),
    createdDate: created(record),
    disableExecuteApiEndpoint: properties.DisableExecuteApiEndpoint === true,
    tags: (properties.Tags as Record<string, string> | undefined) ?? {},
    ...given(properties, ['Description', 'Version', 'CorsConfiguration', 'DisableSchemaValidation']),
  };
}

function route(record: ResourceRecord): Record<string, unknown> {
  const properties = record.properties;
  return {
    routeId: record.physicalId,
    routeKey: String(properties.RouteKey ?? ''),
    apiKeyRequired: properties.ApiKeyRequired === true,
    authorizationType: String(properties.AuthorizationType ?? 'NONE'),
    ...given(properties, ['Target', 'AuthorizerId', 'AuthorizationScopes', 'OperationName', 'RouteResponseSelectionExpression']),
  };
}

function integration(record: ResourceRecord): Record<string, unknown> {
  const properties = record.properties;
  return {
    integrationId: record.physicalId,
    integrationType: String(properties.IntegrationType ?? ''),
    ...given(properties, ['IntegrationUri', 'IntegrationMethod', 'PayloadFormatVersion', 'TimeoutInMillis', 'ConnectionType', 'Description', 'RequestParameters']),
  };
}

function stage(record: ResourceRecord): Record<string, unknown> {
  const properties = record.properties;
  return {
    stageName: String(properties.StageName ?? ''),
    autoDeploy: properties.AutoDeploy === true,
    createdDate: created(record),
    lastUpdatedDate: created(record),
    tags: (properties.Tags as Record<string, string> | undefined) ?? {},
    ...given(properties, ['DeploymentId', 'Description', 'StageVariables', 'DefaultRouteSettings', 'AccessLogSettings']),
  };
}
