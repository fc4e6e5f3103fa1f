import { ConfigError } from '../errors';
import * as naming from '../synth/naming';
import type { Json } from './model';
import { CfnResource } from './resource';
import type { RestApi } from './rest-api';

/**
 * An `http` event's `request.parameters` and `request.schemas`, as v3 writes them: the method's
 * `RequestParameters` (each `true` when required), and, once a parameter is required or a schema
 * given, the API's one request validator (body and parameters) and a model per content type.
 */
export interface RequestValidation {
  parameters: Record<string, Json>;
  validatorId?: string;
  models?: Record<string, Json>;
}

const LOCATIONS: Record<string, string> = { querystrings: 'querystring', paths: 'path', headers: 'header' };

const isObject = (value: unknown): value is Record<string, Json> => value !== null && typeof value === 'object' && !Array.isArray(value);

export function requestValidation(api: RestApi, event: { path: string; method: string; request?: unknown }, path: string): RequestValidation {
  const request = isObject(event.request) ? event.request : {};
  const parameters: Record<string, Json> = {};
  let required = false;
  // v3 writes query strings, then paths, then headers, whatever the order given.
  const given = isObject(request.parameters) ? request.parameters : {};
  for (const location of ['querystrings', 'paths', 'headers', ...Object.keys(given).filter(key => !(key in LOCATIONS))]) {
    const params = given[location];
    if (!isObject(params)) continue;
    const where = LOCATIONS[location] ?? location;
    for (const [name, setting] of Object.entries(params)) {
      const isRequired = isObject(setting) ? Boolean(setting.required) : setting;
      parameters[`method.request.${where}.${name}`] = isRequired;
      if (isRequired === true) required = true;
    }
  }
  const schemas = isObject(request.schemas) ? request.schemas : {};
  const models: Record<string, Json> = {};
  for (const [contentType, schema] of Object.entries(schemas)) {
    models[contentType] = { Ref: modelFor(api, event, contentType, schema, `${path}.request.schemas.${contentType}`) };
  }
  const hasModels = Object.keys(models).length > 0;
  if (!required && !hasModels) return { parameters };
  return { parameters, validatorId: api.requestValidator(), models: hasModels ? models : undefined };
}

/** The logical id of the model for one content type: a provider schema by its key, or one of the method's own. */
function modelFor(api: RestApi, event: { path: string; method: string }, contentType: string, schema: Json, path: string): string {
  if (typeof schema === 'string') {
    const shared = providerSchemas(api)[schema];
    if (shared !== undefined) return api.model(naming.restApiModel(schema), () => modelProperties(api, shared, 'application/json', true));
    if (!isJsonText(schema)) {
      throw new ConfigError(
        `Invalid configuration in '${path}': ${JSON.stringify(schema)} is neither a schema of provider.apiGateway.request.schemas nor a JSON schema`,
      );
    }
  }
  return api.model(naming.restApiMethodModel(event.path, event.method, contentType), () => modelProperties(api, schema, contentType, false));
}

function providerSchemas(api: RestApi): Record<string, Json> {
  const request = api.config.request;
  return isObject(request) && isObject(request.schemas) ? request.schemas : {};
}

function isJsonText(text: string): boolean {
  try {
    return isObject(JSON.parse(text));
  } catch {
    return false;
  }
}

/** `{ schema, name, description }` or the schema itself; v3 orders a shared model's keys as it does. */
function modelProperties(api: RestApi, config: Json, contentType: string, shared: boolean): Record<string, Json> {
  const withSettings = isObject(config) && 'schema' in config;
  const schema = withSettings ? config.schema : config;
  const properties: Record<string, Json> = shared
    ? { RestApiId: api.apiId, Schema: schema, ContentType: contentType }
    : { RestApiId: api.apiId, ContentType: contentType, Schema: schema };
  if (withSettings && config.name !== undefined) properties.Name = config.name;
  if (withSettings && config.description !== undefined) properties.Description = config.description;
  return properties;
}

/** `ApiGateway{Service}RequestValidator`: checks both body and parameters, as v3's only validator does. */
export function requestValidatorResource(api: RestApi, logicalId: string): CfnResource {
  return new CfnResource(api, 'RequestValidator', {
    logicalId,
    type: 'AWS::ApiGateway::RequestValidator',
    properties: () => ({
      RestApiId: api.apiId,
      ValidateRequestBody: true,
      ValidateRequestParameters: true,
      Name: `${api.service.name}-${api.service.stage} | Validate request body and querystring parameters`,
    }),
  });
}
