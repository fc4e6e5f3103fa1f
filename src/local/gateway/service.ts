import { AwsError } from '../protocol/errors';
import type { ResourceRecord } from '../cloudformation/model';
import { jsonResponse, type LocalRequest, type LocalResponse } from '../http';
import { tagMap } from '../state/resource-tags';

/**
 * The part of API Gateway's management API (REST JSON, credential scope
 * `apigateway`) that reads API keys: GetApiKey (`GET /apikeys/{id}`) and
 * GetApiKeys (`GET /apikeys`), over the keys the live stacks made. Values are
 * returned only with `includeValue(s)=true`, as API Gateway does. `fw info`
 * lists a stack's keys through it, the same call it makes to AWS. Also the
 * stacks' usage plans and their keys, custom domain names, and the account.
 */
export function apiGatewayApi(records: (type: string) => ResourceRecord[], request: LocalRequest): LocalResponse | undefined {
  if (request.method !== 'GET') return undefined;
  const keys = () => records('AWS::ApiGateway::ApiKey');
  const other = usagePlansAndDomains(records, request);
  if (other) return other;
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

/** GetAccount's answer: API Gateway's default account-level throttle. */
const ACCOUNT = { throttleSettings: { burstLimit: 5000, rateLimit: 10000 }, features: ['UsagePlans'], apiKeyVersion: '4' };

function usagePlansAndDomains(records: (type: string) => ResourceRecord[], request: LocalRequest): LocalResponse | undefined {
  if (request.path === '/account') return jsonResponse(ACCOUNT);
  if (/^\/usageplans\/?$/.test(request.path)) {
    const keyId = request.search.get('keyId');
    const planIds = keyId === null ? undefined : new Set(records('AWS::ApiGateway::UsagePlanKey').filter((record) => String(record.properties.KeyId) === keyId).map((record) => String(record.properties.UsagePlanId)));
    return jsonResponse({ item: records('AWS::ApiGateway::UsagePlan').filter((record) => !planIds || planIds.has(record.physicalId)).map(usagePlan) });
  }
  const plan = /^\/usageplans\/([^/]+)(\/keys)?\/?$/.exec(request.path);
  if (plan) {
    const id = decodeURIComponent(plan[1]);
    const found = records('AWS::ApiGateway::UsagePlan').find((record) => record.physicalId === id);
    if (!found) throw new AwsError('NotFoundException', 'Invalid Usage Plan ID specified', 404);
    if (!plan[2]) return jsonResponse(usagePlan(found));
    const keys = records('AWS::ApiGateway::ApiKey');
    const item = records('AWS::ApiGateway::UsagePlanKey')
      .filter((record) => String(record.properties.UsagePlanId) === id)
      .map((record) => {
        const key = keys.find((candidate) => candidate.physicalId === String(record.properties.KeyId));
        return { id: String(record.properties.KeyId), type: String(record.properties.KeyType ?? 'API_KEY'), ...(key ? { name: keyName(key), value: String(key.attributes.Value) } : {}) };
      });
    return jsonResponse({ item });
  }
  if (/^\/domainnames\/?$/.test(request.path)) return jsonResponse({ item: records('AWS::ApiGateway::DomainName').map(domainName) });
  const domain = /^\/domainnames\/([^/]+)\/?$/.exec(request.path);
  if (domain) {
    const name = decodeURIComponent(domain[1]);
    const found = records('AWS::ApiGateway::DomainName').find((record) => String(record.properties.DomainName ?? record.physicalId) === name);
    if (!found) throw new AwsError('NotFoundException', 'Invalid domain name identifier specified', 404);
    return jsonResponse(domainName(found));
  }
  return undefined;
}

function usagePlan(record: ResourceRecord): Record<string, unknown> {
  const properties = record.properties as {
    UsagePlanName?: string;
    Description?: string;
    ApiStages?: { ApiId?: unknown; Stage?: unknown; Throttle?: Record<string, { BurstLimit?: number; RateLimit?: number }> }[];
    Throttle?: { BurstLimit?: number; RateLimit?: number };
    Quota?: { Limit?: number; Offset?: number; Period?: string };
    Tags?: unknown;
  };
  const throttle = (settings: { BurstLimit?: number; RateLimit?: number }) => ({
    ...(settings.BurstLimit !== undefined ? { burstLimit: Number(settings.BurstLimit) } : {}),
    ...(settings.RateLimit !== undefined ? { rateLimit: Number(settings.RateLimit) } : {}),
  });
  return {
    id: record.physicalId,
    name: String(properties.UsagePlanName ?? record.physicalId),
    ...(properties.Description !== undefined ? { description: String(properties.Description) } : {}),
    apiStages: (properties.ApiStages ?? []).map((stage) => ({
      apiId: String(stage.ApiId),
      stage: String(stage.Stage),
      ...(stage.Throttle ? { throttle: Object.fromEntries(Object.entries(stage.Throttle).map(([path, settings]) => [path, throttle(settings)])) } : {}),
    })),
    ...(properties.Throttle ? { throttle: throttle(properties.Throttle) } : {}),
    ...(properties.Quota ? { quota: { limit: Number(properties.Quota.Limit), offset: Number(properties.Quota.Offset ?? 0), period: String(properties.Quota.Period) } } : {}),
    tags: tagMap(properties.Tags),
  };
}

function domainName(record: ResourceRecord): Record<string, unknown> {
  const properties = record.properties;
  const types = (properties.EndpointConfiguration as { Types?: string[] } | undefined)?.Types ?? ['EDGE'];
  return {
    domainName: String(properties.DomainName ?? record.physicalId),
    ...(properties.CertificateArn !== undefined ? { certificateArn: String(properties.CertificateArn) } : {}),
    ...(properties.RegionalCertificateArn !== undefined ? { regionalCertificateArn: String(properties.RegionalCertificateArn) } : {}),
    endpointConfiguration: { types },
    securityPolicy: String(properties.SecurityPolicy ?? 'TLS_1_2'),
    domainNameStatus: 'AVAILABLE',
    tags: tagMap(properties.Tags),
  };
}
