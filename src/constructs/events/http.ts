import { Construct } from 'constructs';
import * as t from '../../config/typanion';
import { isIntrinsic, isJsonObject } from './event-schema';
import * as naming from '../../synth/naming';
import { ConfigError, invalid } from '../../errors';
import { closest } from '../../synth/suggest';
import type { Json } from '../model';
import { CfnResource, lambdaInvocationUri } from '../resource';
import type { FunctionConstruct } from '../function';
import type { RestApi } from '../rest-api';
import { parseCors } from '../rest-api-cors';
import { lambdaIntegration, restIntegrationUri } from '../rest-api-lambda-integration';
import { requestValidation } from '../rest-api-request-validation';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'ANY'];

interface HttpEventConfig {
  path: string;
  method: string;
  cors?: unknown;
  private?: boolean;
  authorizer?: unknown;
  integration?: string;
  [key: string]: unknown;
}

/** `"GET users/{id}"` or `{ path, method, … }` → a normalized config with the path trimmed of slashes. */
function parseEvent(config: unknown, path: string): HttpEventConfig {
  let parsed: HttpEventConfig;
  if (typeof config === 'string') {
    const match = /^(\S+)\s+(\S+)$/.exec(config.trim());
    if (!match) throw invalid(path, '"METHOD path" or { path, method }', config);
    parsed = { method: match[1], path: match[2] };
  } else if (config !== null && typeof config === 'object' && !Array.isArray(config)) {
    parsed = { ...(config as HttpEventConfig) };
    if (typeof parsed.path !== 'string') throw invalid(`${path}.path`, 'a path like "users/{id}"', parsed.path);
    if (typeof parsed.method !== 'string') throw invalid(`${path}.method`, `one of ${METHODS.join(', ')}`, parsed.method);
  } else {
    throw invalid(path, '"METHOD path" or { path, method }', config);
  }
  if (!METHODS.includes(parsed.method.toUpperCase())) throw invalid(`${path}.method`, `one of ${METHODS.join(', ')}`, parsed.method, closest(parsed.method.toUpperCase(), METHODS));
  parsed.method = parsed.method.toUpperCase();
  parsed.path = parsed.path.replace(/^\/+|\/+$/g, '');
  return parsed;
}

/**
 * What parseEvent accepts, for editors (`fw schema`) and the types of `defineConfig`;
 * parseEvent and the REST API constructs check it with messages of their own.
 */
const schema = t.isOneOf([
  t.cascade(t.isString(), [t.matchesRegExp(/^\s*\S+\s+\S+\s*$/)]),
  t.isObject({
    path: t.isString(),
    method: t.isString(),
    cors: t.isOptional(t.isOneOf([t.isBoolean(), isJsonObject()])),
    private: t.isOptional(t.isBoolean()),
    authorizer: t.isOptional(t.isOneOf([t.isString(), isJsonObject()])),
    integration: t.isOptional(t.isString()),
    request: t.isOptional(isJsonObject()),
    response: t.isOptional(isJsonObject()),
    async: t.isOptional(t.isBoolean()),
    operationId: t.isOptional(t.isString()),
    connectionType: t.isOptional(t.isString()),
    connectionId: t.isOptional(t.isOneOf([t.isString(), isIntrinsic()])),
  }),
]);

interface Authorization {
  type: 'NONE' | 'AWS_IAM' | 'CUSTOM' | 'COGNITO_USER_POOLS';
  authorizerId?: string;
  /** An authorizer made elsewhere (`authorizerId`: an id or an intrinsic), written as given. */
  externalAuthorizerId?: Json;
  scopes?: Json;
}

/**
 * `http` event: one method on the service's REST API, proxying to the function
 * (`integration: lambda` for the older non-proxy form, `mock` for API Gateway's own answer), with CORS and authorizers.
 */
export class HttpEvent extends Construct {
  static readonly type = 'http';
  static readonly description = 'A method of the service REST API (API Gateway v1): "METHOD path" or { path, method, cors, authorizer, … }';
  static readonly schema = schema;

  constructor(fn: FunctionConstruct, id: string, config: unknown, path: string) {
    super(fn, id);
    const event = parseEvent(config, path);
    const api = fn.service.restApi();
    const resourceId = api.resourceId(event.path, path);
    const logicalId = naming.restApiMethod(event.path, event.method);
    api.addMethod(logicalId, `${event.method} /${event.path}`, path);
    const cors = parseCors(event.cors);
    if (cors) api.addCors(event.path, event.method, cors);

    const validation = requestValidation(api, event, path);
    const permission = api.permissionFor(fn);
    const authorization = authorize(fn, api, event.authorizer, `${path}.authorizer`);
    // `async: true` invokes the function without waiting, which only the non-proxy integration can do.
    const integrationType = event.async ? 'AWS' : String(event.integration ?? 'AWS_PROXY').toUpperCase().replace(/-/g, '_');
    const isProxy = integrationType === 'AWS_PROXY' || integrationType === 'LAMBDA_PROXY';
    const isMock = integrationType === 'MOCK';
    const isHttp = integrationType === 'HTTP' || integrationType === 'HTTP_PROXY';
    if (!isProxy && !isMock && !isHttp && integrationType !== 'AWS' && integrationType !== 'LAMBDA') {
      throw invalid(`${path}.integration`, '"lambda-proxy" (the default), "lambda", "http", "http-proxy" or "mock"', event.integration);
    }
    const request = (event.request ?? {}) as { uri?: Json };
    if (isHttp && request.uri === undefined) {
      throw new ConfigError(`Invalid configuration in '${path}.request.uri': integration: ${event.integration} needs the URL to call, got nothing`);
    }
    // v3 fails with a TypeError here ("Cannot convert undefined or null to object").
    if (integrationType === 'HTTP' && !isJsonMap((event.response as { statusCodes?: unknown } | undefined)?.statusCodes)) {
      throw new ConfigError(`Invalid configuration in '${path}.response.statusCodes': integration: http needs the status codes to map the endpoint's answers to, got nothing`);
    }

    new CfnResource(this, 'Method', {
      logicalId,
      type: 'AWS::ApiGateway::Method',
      properties: () => {
        const properties: Record<string, Json> = {
          HttpMethod: event.method,
          RequestParameters: validation.parameters,
          ResourceId: resourceId,
          RestApiId: api.apiId,
        };
        if (event.operationId !== undefined) properties.OperationName = event.operationId;
        Object.assign(properties, {
          ApiKeyRequired: Boolean(event.private),
          AuthorizationType: authorization.type,
        });
        if (authorization.authorizerId) properties.AuthorizerId = { Ref: authorization.authorizerId };
        else if (authorization.externalAuthorizerId !== undefined) properties.AuthorizerId = authorization.externalAuthorizerId;
        if (authorization.scopes !== undefined) properties.AuthorizationScopes = authorization.scopes;
        if (isProxy) {
          properties.Integration = { IntegrationHttpMethod: 'POST', Type: 'AWS_PROXY', Uri: restIntegrationUri(fn) };
          properties.MethodResponses = [];
        } else if (integrationType === 'HTTP_PROXY') {
          properties.Integration = { IntegrationHttpMethod: event.method, Type: 'HTTP_PROXY', Uri: request.uri!, ...httpIntegrationExtras(event, validation.parameters) };
          properties.MethodResponses = [];
        } else {
          const { integration, methodResponses } = lambdaIntegration(fn, event, cors, { kind: isMock ? 'mock' : isHttp ? 'http' : 'lambda' });
          if (isHttp) Object.assign(integration, httpIntegrationExtras(event, validation.parameters));
          if (event.async) integration.RequestParameters = { 'integration.request.header.X-Amz-Invocation-Type': "'Event'" };
          properties.Integration = integration;
          properties.MethodResponses = methodResponses;
        }
        if (validation.validatorId !== undefined) properties.RequestValidatorId = { Ref: validation.validatorId };
        if (validation.models !== undefined) properties.RequestModels = validation.models;
        return properties;
      },
      dependsOn: () => fn.dependsOnTarget([authorization.authorizerId ?? permission]),
    });
  }
}

/**
 * What an `http` / `http-proxy` integration adds: the VPC link it goes through, and each method
 * request parameter passed on under the same name (`integration.request.path.id` ← `method.request.path.id`).
 */
function httpIntegrationExtras(event: HttpEventConfig, parameters: Record<string, Json>): Record<string, Json> {
  const extras: Record<string, Json> = {};
  if (typeof event.connectionType === 'string') extras.ConnectionType = event.connectionType.toUpperCase().replace(/-/g, '_');
  if (event.connectionId !== undefined) extras.ConnectionId = event.connectionId as Json;
  const names = Object.keys(parameters);
  if (names.length > 0) extras.RequestParameters = Object.fromEntries(names.map((name) => [name.replace(/^method\./, 'integration.'), name]));
  return extras;
}

const isJsonMap = (value: unknown): boolean => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The last `-` separated part of an ARN's name: the reference names ARN-given authorizers after it. */
function nameFromArn(arn: string): string {
  return arn.split(':').pop()!.split('-').pop()!;
}

function authorize(fn: FunctionConstruct, api: RestApi, raw: unknown, path: string): Authorization {
  // An empty string is a placeholder: v3 writes no authorizer.
  if (raw === undefined || raw === null || raw === '') return { type: 'NONE' };
  const config: Record<string, Json> = typeof raw === 'string' ? (raw.includes(':') ? { arn: raw } : { name: raw }) : { ...(raw as Record<string, Json>) };
  if (typeof raw === 'string' && raw.toLowerCase() === 'aws_iam') return { type: 'AWS_IAM' };
  const declaredType = typeof config.type === 'string' ? config.type : undefined;
  if (declaredType?.toLowerCase() === 'aws_iam') return { type: 'AWS_IAM' };
  // `{ type, authorizerId }`: an authorizer of the API made elsewhere (in `resources` or another stack).
  if (config.authorizerId !== undefined && declaredType !== undefined) {
    const type = declaredType.toUpperCase() === 'COGNITO_USER_POOLS' ? 'COGNITO_USER_POOLS' : 'CUSTOM';
    return { type, externalAuthorizerId: config.authorizerId, scopes: config.scopes };
  }

  const arn = config.arn;
  const isCognito = declaredType?.toUpperCase() === 'COGNITO_USER_POOLS' || (typeof arn === 'string' && arn.includes(':cognito-idp:'));
  let name = config.name as string | undefined;
  if (name === undefined) {
    if (typeof arn !== 'string') throw invalid(path, 'a function name, an ARN, { name | arn, … } or { type, authorizerId }', raw);
    name = nameFromArn(arn);
  }
  const authorizerFunction = arn === undefined ? fn.service.function(name) : undefined;
  if (arn === undefined && !authorizerFunction) {
    throw new ConfigError(`Invalid configuration in '${path}': no function named ${JSON.stringify(name)} in this service to use as authorizer`);
  }

  const definition: Record<string, Json> = {};
  // The reference writes the cache time for the object form only (300 s unless given).
  if (typeof raw !== 'string') definition.AuthorizerResultTtlInSeconds = config.resultTtlInSeconds ?? 300;
  Object.assign(definition, { IdentitySource: config.identitySource ?? 'method.request.header.Authorization', Name: name, RestApiId: api.apiId });
  const logicalId = naming.restApiAuthorizer(name);
  if (isCognito) {
    definition.Type = 'COGNITO_USER_POOLS';
    definition.ProviderARNs = [arn];
  } else {
    definition.AuthorizerUri = lambdaInvocationUri(authorizerFunction ? authorizerFunction.targetArn : arn);
    definition.Type = declaredType?.toLowerCase() === 'request' ? 'REQUEST' : 'TOKEN';
  }
  if (config.identityValidationExpression !== undefined) definition.IdentityValidationExpression = config.identityValidationExpression;

  api.authorizer(logicalId, definition, path, () => {
    if (authorizerFunction) api.permissionFor(authorizerFunction, { forAuthorizer: true });
    else if (!isCognito && !config.managedExternally) {
      new CfnResource(api, `AuthorizerPermission${logicalId}`, {
        logicalId: naming.restApiPermission(name!),
        type: 'AWS::Lambda::Permission',
        properties: () => ({
          FunctionName: arn,
          Action: 'lambda:InvokeFunction',
          Principal: 'apigateway.amazonaws.com',
          SourceArn: api.executeApiArn(),
        }),
      });
    }
  }, () => authorizerFunction?.targetAlias);
  return { type: isCognito ? 'COGNITO_USER_POOLS' : 'CUSTOM', authorizerId: logicalId, scopes: config.scopes };
}

