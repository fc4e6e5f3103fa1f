/**
 * ListFunctionUrlConfigs (a function's URL, from its stack's `AWS::Lambda::Url`) and the code
 * signing reads a deploy tool makes: ListCodeSigningConfigs (none exist locally) and
 * GetFunctionCodeSigningConfig (no function has one).
 */
import { AwsError } from '../protocol/errors';
import type { LocalServices } from '../service-interfaces';
import { jsonResponse, type LocalRequest, type LocalResponse } from '../http';
import { localizeEndpoints } from '../gateway/endpoints';

function urlConfigs(cloud: LocalServices, functionArn: string): Record<string, unknown>[] {
  return cloud
    .resources('AWS::Lambda::Url')
    // The URL's target may be qualified (`…:function:name:alias`).
    .filter(({ record }) => record.attributes.FunctionArn === functionArn || String(record.attributes.FunctionArn).startsWith(`${functionArn}:`))
    .map(({ record }) => {
      const properties = record.properties;
      const qualifier = typeof properties.Qualifier === 'string' ? `:${properties.Qualifier}` : '';
      return {
        FunctionUrl: localizeEndpoints(String(record.attributes.FunctionUrl), cloud.baseUrl),
        FunctionArn: `${functionArn}${qualifier}`,
        AuthType: properties.AuthType ?? 'NONE',
        ...(properties.Cors !== undefined ? { Cors: properties.Cors } : {}),
        CreationTime: record.timestamp,
        LastModifiedTime: record.timestamp,
        InvokeMode: properties.InvokeMode ?? 'BUFFERED',
      };
    });
}

export function functionUrlsApi(cloud: LocalServices, request: LocalRequest): LocalResponse | undefined {
  if (request.method !== 'GET') return undefined;
  if (/^\/2020-04-22\/code-signing-configs\/?$/.test(request.path)) return jsonResponse({ CodeSigningConfigs: [] });
  const signing = /^\/2020-06-30\/functions\/([^/]+)\/code-signing-config\/?$/.exec(request.path);
  if (signing) {
    const record = cloud.functions.record(decodeURIComponent(signing[1]));
    return jsonResponse({ CodeSigningConfigArn: '', FunctionName: record.physicalId });
  }
  const urls = /^\/2021-10-31\/functions\/([^/]+)\/urls\/?$/.exec(request.path);
  if (!urls) return undefined;
  const record = cloud.functions.record(decodeURIComponent(urls[1]));
  const configs = urlConfigs(cloud, String(record.attributes.Arn));
  const max = Number(request.search.get('MaxItems') ?? 50);
  if (!Number.isInteger(max) || max < 1 || max > 50) throw new AwsError('InvalidParameterValueException', `1 validation error detected: Value '${request.search.get('MaxItems')}' at 'maxItems' failed to satisfy constraint: Member must have value less than or equal to 50`);
  const start = Number(request.search.get('Marker') ?? 0) || 0;
  const end = start + max;
  return jsonResponse({ FunctionUrlConfigs: configs.slice(start, end), ...(end < configs.length ? { NextMarker: String(end) } : {}) });
}
