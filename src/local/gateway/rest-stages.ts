import { join } from 'node:path';
import { AwsError } from '../protocol/errors';
import type { ResourceRecord } from '../cloudformation/model';
import { jsonResponse, type LocalRequest, type LocalResponse } from '../http';
import { readJson, writeJsonAtomic } from '../state/files';

/**
 * REST APIs and their stages through API Gateway's management API: GetRestApis (`GET /restapis`), GetDeployments, GetStage (`GET /restapis/{id}/stages/{name}`),
 * UpdateStage (`PATCH`, JSON patch operations), and a stage's tags: GetTags, TagResource and
 * UntagResource (`/tags/{arn}`). A stage exists when a live stack made it, with an
 * AWS::ApiGateway::Stage or the StageName of an AWS::ApiGateway::Deployment (how Serverless
 * writes it); what UpdateStage and the tag calls set is kept in `state/rest-stages.json`, so
 * `aws apigateway get-stage` shows it, as it would on AWS.
 */

interface StageSettings {
  tracingEnabled?: boolean;
  accessLogSettings?: { destinationArn?: string; format?: string };
  methodSettings?: Record<string, Record<string, unknown>>;
  variables?: Record<string, string>;
  description?: string;
  tags?: Record<string, string>;
  lastUpdatedDate?: number;
}

/** A stage a stack made: its API, name, deployment and the properties the template gave it. */
interface DeployedStage {
  restApiId: string;
  stageName: string;
  deploymentId?: string;
  created: string;
  properties: Record<string, unknown>;
}

/** `/{resource}/{method}/<group>/<setting>` of an UpdateStage path, as GetStage names it in methodSettings. */
const METHOD_SETTINGS: Record<string, [string, 'boolean' | 'number' | 'string']> = {
  'metrics/enabled': ['metricsEnabled', 'boolean'],
  'logging/loglevel': ['loggingLevel', 'string'],
  'logging/dataTrace': ['dataTraceEnabled', 'boolean'],
  'throttling/burstLimit': ['throttlingBurstLimit', 'number'],
  'throttling/rateLimit': ['throttlingRateLimit', 'number'],
  'caching/enabled': ['cachingEnabled', 'boolean'],
  'caching/ttlInSeconds': ['cacheTtlInSeconds', 'number'],
  'caching/dataEncrypted': ['cacheDataEncrypted', 'boolean'],
  'caching/requireAuthorizationForCacheControl': ['requireAuthorizationForCacheControl', 'boolean'],
  'caching/unauthorizedCacheControlHeaderStrategy': ['unauthorizedCacheControlHeaderStrategy', 'string'],
};

export class RestStages {
  private readonly file: string;
  private readonly settings: Record<string, StageSettings>;

  constructor(dataDir: string, private readonly records: (type: string) => ResourceRecord[]) {
    this.file = join(dataDir, 'state', 'rest-stages.json');
    this.settings = readJson<Record<string, StageSettings>>(this.file, {});
  }

  handle(request: LocalRequest): LocalResponse | undefined {
    if (request.method === 'GET' && /^\/restapis\/?$/.test(request.path)) return jsonResponse({ item: this.records('AWS::ApiGateway::RestApi').map(restApi) });
    const deployments = /^\/restapis\/([^/]+)\/deployments\/?$/.exec(request.path);
    if (deployments && request.method === 'GET') {
      const restApiId = decodeURIComponent(deployments[1]);
      const items = this.records('AWS::ApiGateway::Deployment').filter(record => String(record.properties.RestApiId) === restApiId);
      return jsonResponse({
        item: items.map(record => ({
          id: record.physicalId,
          ...(record.properties.Description !== undefined ? { description: String(record.properties.Description) } : {}),
          createdDate: Math.floor(new Date(record.timestamp).getTime() / 1000),
        })),
      });
    }
    const stage = /^\/restapis\/([^/]+)\/stages\/([^/]+)$/.exec(request.path);
    if (stage && request.method === 'GET') return jsonResponse(this.describe(this.find(decodeURIComponent(stage[1]), decodeURIComponent(stage[2]))));
    if (stage && request.method === 'PATCH') return jsonResponse(this.update(this.find(decodeURIComponent(stage[1]), decodeURIComponent(stage[2])), request));
    const tagged = /^\/tags\/(.+)$/.exec(request.path);
    if (!tagged) return undefined;
    const found = this.fromArn(decodeURIComponent(tagged[1]));
    if (!found) return undefined;
    const settings = this.settingsOf(found);
    if (request.method === 'GET') return jsonResponse({ tags: { ...this.templateTags(found), ...settings.tags } });
    if (request.method === 'PUT') {
      const body = parse(request);
      settings.tags = { ...settings.tags, ...(body.tags as Record<string, string> | undefined) };
    } else if (request.method === 'DELETE') {
      const keys = request.search.getAll('tagKeys').flatMap(keys => keys.split(','));
      const tags = { ...this.templateTags(found), ...settings.tags };
      for (const key of keys) delete tags[key];
      settings.tags = tags;
    } else return undefined;
    this.save();
    return { status: 204, headers: {}, body: Buffer.alloc(0) };
  }

  private save(): void {
    writeJsonAtomic(this.file, this.settings);
  }

  private deployed(): DeployedStage[] {
    const stages: DeployedStage[] = [];
    for (const record of this.records('AWS::ApiGateway::Deployment')) {
      if (typeof record.properties.StageName !== 'string') continue;
      stages.push({ restApiId: String(record.properties.RestApiId), stageName: record.properties.StageName, deploymentId: record.physicalId, created: record.timestamp, properties: {} });
    }
    for (const record of this.records('AWS::ApiGateway::Stage')) {
      stages.push({
        restApiId: String(record.properties.RestApiId),
        stageName: String(record.properties.StageName),
        deploymentId: record.properties.DeploymentId === undefined ? undefined : String(record.properties.DeploymentId),
        created: record.timestamp,
        properties: record.properties,
      });
    }
    return stages;
  }

  private find(restApiId: string, stageName: string): DeployedStage {
    const found = this.deployed().find(stage => stage.restApiId === restApiId && stage.stageName === stageName);
    if (!found) throw new AwsError('NotFoundException', 'Invalid Stage identifier specified', 404);
    return found;
  }

  private fromArn(arn: string): DeployedStage | undefined {
    const match = /^arn:[^:]+:apigateway:[^:]*::\/restapis\/([^/]+)\/stages\/([^/]+)$/.exec(arn);
    return match ? this.find(match[1], match[2]) : undefined;
  }

  private settingsOf(stage: DeployedStage): StageSettings {
    const key = `${stage.restApiId}/${stage.stageName}`;
    return (this.settings[key] ??= {});
  }

  private templateTags(stage: DeployedStage): Record<string, string> {
    const tags = (stage.properties.Tags as Array<{ Key: string; Value: string }> | undefined) ?? [];
    return Object.fromEntries(tags.map(tag => [String(tag.Key), String(tag.Value)]));
  }

  /** A Stage as API Gateway's JSON represents it (dates in epoch seconds). */
  private describe(stage: DeployedStage): Record<string, unknown> {
    const settings = this.settingsOf(stage);
    const created = Math.floor(new Date(stage.created).getTime() / 1000);
    const properties = stage.properties;
    const tags = { ...this.templateTags(stage), ...settings.tags };
    const accessLog = settings.accessLogSettings ?? (properties.AccessLogSetting as { DestinationArn?: string; Format?: string } | undefined);
    return {
      stageName: stage.stageName,
      ...(stage.deploymentId ? { deploymentId: stage.deploymentId } : {}),
      ...(settings.description ?? properties.Description ? { description: settings.description ?? properties.Description } : {}),
      cacheClusterEnabled: false,
      cacheClusterStatus: 'NOT_AVAILABLE',
      methodSettings: settings.methodSettings ?? {},
      ...(settings.accessLogSettings
        ? { accessLogSettings: settings.accessLogSettings }
        : accessLog && 'DestinationArn' in accessLog
          ? { accessLogSettings: { destinationArn: accessLog.DestinationArn, format: accessLog.Format } }
          : {}),
      tracingEnabled: settings.tracingEnabled ?? properties.TracingEnabled === true,
      ...(Object.keys(tags).length > 0 ? { tags } : {}),
      ...(settings.variables ?? properties.Variables ? { variables: settings.variables ?? properties.Variables } : {}),
      createdDate: created,
      lastUpdatedDate: settings.lastUpdatedDate ?? created,
    };
  }

  private update(stage: DeployedStage, request: LocalRequest): Record<string, unknown> {
    const operations = (parse(request).patchOperations as Array<{ op: string; path: string; value?: string }> | undefined) ?? [];
    const settings = this.settingsOf(stage);
    for (const { op, path, value } of operations) {
      if (op !== 'replace' && op !== 'remove' && op !== 'add') throw new AwsError('BadRequestException', `Invalid patch operation specified. Must be 'add'|'remove'|'replace'`, 400);
      if (path === '/tracingEnabled') settings.tracingEnabled = op !== 'remove' && value === 'true';
      else if (path === '/description') settings.description = op === 'remove' ? undefined : value;
      else if (path === '/accessLogSettings') {
        if (op !== 'remove') throw new AwsError('BadRequestException', `Invalid patch path ${path}`, 400);
        settings.accessLogSettings = undefined;
      } else if (path === '/accessLogSettings/destinationArn' || path === '/accessLogSettings/format') {
        const field = path.endsWith('format') ? 'format' : 'destinationArn';
        settings.accessLogSettings = { ...settings.accessLogSettings, [field]: op === 'remove' ? undefined : value };
      } else if (path.startsWith('/variables/')) {
        const name = path.slice('/variables/'.length);
        settings.variables = { ...settings.variables };
        if (op === 'remove') delete settings.variables[name];
        else settings.variables[name] = String(value);
      } else {
        const method = /^\/(.+)\/([^/]+)\/([a-zA-Z]+\/[a-zA-Z]+)$/.exec(path);
        const setting = method ? METHOD_SETTINGS[method[3]] : undefined;
        if (!method || !setting) throw new AwsError('BadRequestException', `Invalid patch path ${path}`, 400);
        const key = `${method[1].replace(/~1/g, '/')}/${method[2]}`;
        const [name, type] = setting;
        const methodSettings = (settings.methodSettings ??= {});
        const entry = (methodSettings[key] ??= {});
        if (op === 'remove') delete entry[name];
        else entry[name] = type === 'boolean' ? value === 'true' : type === 'number' ? Number(value) : value;
      }
    }
    settings.lastUpdatedDate = Math.floor(Date.now() / 1000);
    this.save();
    return this.describe(stage);
  }
}

/** A RestApi as GetRestApis lists it (dates in epoch seconds). */
function restApi(record: ResourceRecord): Record<string, unknown> {
  const properties = record.properties;
  const types = (properties.EndpointConfiguration as { Types?: string[] } | undefined)?.Types ?? ['EDGE'];
  return {
    id: record.physicalId,
    name: String(properties.Name ?? record.physicalId),
    ...(properties.Description !== undefined ? { description: String(properties.Description) } : {}),
    createdDate: Math.floor(new Date(record.timestamp).getTime() / 1000),
    apiKeySource: String(properties.ApiKeySourceType ?? 'HEADER'),
    endpointConfiguration: { types },
    disableExecuteApiEndpoint: properties.DisableExecuteApiEndpoint === true,
    rootResourceId: String(record.attributes.RootResourceId ?? ''),
  };
}

function parse(request: LocalRequest): Record<string, unknown> {
  try {
    return JSON.parse(request.body.toString('utf8') || '{}') as Record<string, unknown>;
  } catch {
    throw new AwsError('SerializationException', 'The request body is not valid JSON', 400);
  }
}
