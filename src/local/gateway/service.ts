import { AwsError } from '../protocol/errors';
import type { ResourceRecord } from '../cloudformation/model';
import { jsonResponse, type LocalRequest, type LocalResponse } from '../http';

/**
 * The part of API Gateway's management API (REST JSON, credential scope
 * `apigateway`) that reads API keys: GetApiKey (`GET /apikeys/{id}`) and
 * GetApiKeys (`GET /apikeys`), over the keys the live stacks made. Values are
 * returned only with `includeValue(s)=true`, as API Gateway does. `fw info`
 * lists a stack's keys through it, the same call it makes to AWS.
 */
export function apiGatewayApi(keys: () => ResourceRecord[], request: LocalRequest): LocalResponse | undefined {
  if (request.method !== 'GET') return undefined;
  if (request.path === '/apikeys') {
    const withValues = request.search.get('includeValues') === 'true';
    const nameQuery = request.search.get('name') ?? '';
    const items = keys()
      .filter((record) => keyName(record).startsWith(nameQuery))
      .map((record) => apiKey(record, withValues));
    return jsonResponse({ item: items });
  }
  const single = /^\/apikeys\/([^/]+)$/.exec(request.path);
  if (!single) return undefined;
  const id = decodeURIComponent(single[1]);
  const record = keys().find((candidate) => candidate.physicalId === id);
  if (!record) throw new AwsError('NotFoundException', 'Invalid API Key identifier specified', 404);
  return jsonResponse(apiKey(record, request.search.get('includeValue') === 'true'));
}

/** An API key's name: its `Name`, else its id, as API Gateway names a key made without one. */
export const keyName = (record: ResourceRecord) => String(record.properties.Name ?? record.physicalId);

/** An ApiKey as API Gateway's JSON represents it (dates in epoch seconds). */
function apiKey(record: ResourceRecord, withValue: boolean): Record<string, unknown> {
  const created = Math.floor(new Date(record.timestamp).getTime() / 1000);
  const properties = record.properties;
  return {
    id: record.physicalId,
    ...(withValue ? { value: String(record.attributes.Value) } : {}),
    name: keyName(record),
    ...(properties.CustomerId !== undefined ? { customerId: String(properties.CustomerId) } : {}),
    ...(properties.Description !== undefined ? { description: String(properties.Description) } : {}),
    enabled: properties.Enabled !== false && properties.Enabled !== 'false',
    createdDate: created,
    lastUpdatedDate: created,
    stageKeys: ((properties.StageKeys as { RestApiId?: unknown; StageName?: unknown }[] | undefined) ?? []).map((key) => `${String(key.RestApiId)}/${String(key.StageName)}`),
  };
}
