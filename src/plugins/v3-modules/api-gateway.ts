import { corsPreflightProperties } from '../../constructs/rest-api-cors';
import { predefinedResourceId, restApiProperties } from '../../constructs/rest-api';
import type { Json } from '../../constructs/model';
import type { Service } from '../../constructs/service';
import * as naming from '../../synth/naming';
import type { Template } from '../../synth/template';

/**
 * What Serverless v3's REST API compile steps (`…/compile/events/api-gateway/lib/{rest-api,
 * resources,cors,deployment}`) give a plugin that mixes them into itself, as
 * serverless-apigateway-service-proxy does: the same resources, written by fw's own naming and
 * constructs' properties into the template the plugin sees. Each works on `this` (the plugin), as
 * v3's do: `this.validated` (`events` with `http.path`/`http.method`, `corsPreflight` per path),
 * `this.apiGatewayMethodLogicalIds`.
 */

interface HttpEvent {
  http: { path: string; method: string };
}

interface PreflightConfig {
  headers: string[];
  methods: string[];
  origins?: string[];
  origin?: string;
  allowCredentials?: boolean;
  maxAge?: number;
  cacheControl?: string;
}

type Provider = Service['provider'] & { stage: string; compiledCloudFormationTemplate: Template };

interface CompilingPlugin {
  serverless: { service: { service: string; provider: Provider }; instanceId: string };
  validated?: { events?: HttpEvent[]; corsPreflight?: Record<string, PreflightConfig> };
  apiGatewayMethodLogicalIds?: string[];
  apiGatewayRestApiLogicalId?: string;
  apiGatewayResources?: Record<string, { path: string; name: string; logicalId?: string; resourceId: Json }>;
}

const trimSlashes = (path: string) => path.replace(/^\/+|\/+$/g, '');

function templateOf(plugin: CompilingPlugin): Template {
  return plugin.serverless.service.provider.compiledCloudFormationTemplate;
}

function apiGatewayOf(plugin: CompilingPlugin) {
  return plugin.serverless.service.provider.apiGateway ?? {};
}

function restApiId(plugin: CompilingPlugin): Json {
  return apiGatewayOf(plugin).restApiId ?? { Ref: naming.restApi() };
}

export const restApi = {
  /** `ApiGatewayRestApi`, unless `provider.apiGateway.restApiId` names an existing API. */
  compileRestApi(this: CompilingPlugin): void {
    const { service, provider } = { service: this.serverless.service.service, provider: this.serverless.service.provider };
    if (apiGatewayOf(this).restApiId !== undefined) return;
    this.apiGatewayRestApiLogicalId = naming.restApi();
    const resources = templateOf(this).Resources;
    const existing = (resources[naming.restApi()] ?? {}) as { Properties?: Record<string, Json> };
    resources[naming.restApi()] = {
      ...existing,
      Type: 'AWS::ApiGateway::RestApi',
      Properties: { ...existing.Properties, ...restApiProperties(service, provider.stage, provider) },
    };
  },
};

export const resources = {
  /** One `ApiGatewayResource…` per path segment of `this.validated.events`, parents first; existing ones (`restApiResources`) are not created. */
  compileResources(this: CompilingPlugin): void {
    this.apiGatewayResources = {};
    const template = templateOf(this).Resources;
    for (const event of this.validated?.events ?? []) {
      const segments = trimSlashes(event.http.path).split('/').filter(Boolean);
      segments.forEach((segment, index) => {
        const path = segments.slice(0, index + 1).join('/');
        if (this.apiGatewayResources![path]) return;
        const predefined = predefinedResource(this, path);
        const logicalId = predefined === undefined ? naming.restApiResource(path) : undefined;
        this.apiGatewayResources![path] = { path, name: naming.pathToLogicalPart(path), logicalId, resourceId: predefined ?? { Ref: logicalId! } };
        if (logicalId === undefined) return;
        template[logicalId] = {
          Type: 'AWS::ApiGateway::Resource',
          Properties: { ParentId: resources.getResourceId.call(this, segments.slice(0, index).join('/')), PathPart: segment, RestApiId: restApiId(this) },
        };
      });
    }
  },

  /** The id of a path's resource: the API's root for `''`, an existing resource's id, or a `Ref` to the one created. */
  getResourceId(this: CompilingPlugin, path: string): Json {
    const trimmed = trimSlashes(path);
    if (trimmed === '') return apiGatewayOf(this).restApiRootResourceId ?? { 'Fn::GetAtt': [naming.restApi(), 'RootResourceId'] };
    return predefinedResource(this, trimmed) ?? { Ref: naming.restApiResource(trimmed) };
  },

  /** The path's part of logical ids (`users/{id}` → `UsersIdVar`; the root: `''`). */
  getResourceName(this: CompilingPlugin, path: string): string {
    return naming.pathToLogicalPart(trimSlashes(path));
  },
};

function predefinedResource(plugin: CompilingPlugin, path: string): Json | undefined {
  return predefinedResourceId(apiGatewayOf(plugin).restApiResources, path);
}

export const cors = {
  /** An OPTIONS method per path of `this.validated.corsPreflight`, counted among the methods the deployment waits for. */
  compileCors(this: CompilingPlugin): void {
    const template = templateOf(this).Resources;
    for (const [path, config] of Object.entries(this.validated?.corsPreflight ?? {})) {
      const origins = config.origins ?? [];
      const logicalId = naming.restApiMethod(trimSlashes(path), 'options');
      const properties = corsPreflightProperties(
        {
          origins: origins.length > 0 ? origins : [config.origin ?? '*'],
          headers: config.headers,
          allowCredentials: Boolean(config.allowCredentials),
          maxAge: config.maxAge,
          cacheControl: config.cacheControl,
        },
        config.methods,
        resources.getResourceId.call(this, path),
        restApiId(this),
        origins.length > 0,
      );
      template[logicalId] = { Type: 'AWS::ApiGateway::Method', Properties: properties };
      (this.apiGatewayMethodLogicalIds ??= []).push(logicalId);
    }
  },
};

export const deployment = {
  /** `ApiGatewayDeployment<instance id>` after every method, and the `ServiceEndpoint` output. */
  compileDeployment(this: CompilingPlugin): void {
    const provider = this.serverless.service.provider;
    const config = apiGatewayOf(this);
    const stage = typeof config.stage === 'string' ? config.stage : provider.stage;
    const properties: Record<string, Json> = { RestApiId: restApiId(this), StageName: stage };
    if (config.description !== undefined) properties.Description = config.description;
    const template = templateOf(this);
    template.Resources[naming.restApiDeployment(this.serverless.instanceId)] = {
      Type: 'AWS::ApiGateway::Deployment',
      Properties: properties,
      DependsOn: [...(this.apiGatewayMethodLogicalIds ?? [])],
    };
    (template.Outputs ??= {})[naming.serviceEndpointOutput()] = {
      Description: 'URL of the service endpoint',
      Value: { 'Fn::Join': ['', ['https://', restApiId(this), '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }, `/${provider.stage}`]] },
    };
  },
};
