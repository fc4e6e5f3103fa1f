import { Construct } from 'constructs';
import * as t from '../../config/typanion';
import { isIntrinsic } from './event-schema';
import * as naming from '../../synth/naming';
import { ConfigError, invalid } from '../../errors';
import { closest } from '../../synth/suggest';
import type { Json } from '../model';
import { CfnResource, join, ref } from '../resource';
import type { FunctionConstruct } from '../function';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'ANY', '*'];

interface Route {
  method: string;
  path: string;
  authorizer?: { name?: string; type?: string; scopes?: Json[]; id?: Json };
}

/** Parses `"GET /users/{id}"`, `"*"` or `{ method, path, authorizer }`. */
function parseRoute(config: unknown, path: string): Route {
  if (config === '*') return { method: '*', path: '*' };
  if (typeof config === 'string') {
    const match = /^(\S+)\s+(\/\S*)$/.exec(config.trim());
    if (!match || !METHODS.includes(match[1].toUpperCase())) {
      const method = closest((match?.[1] ?? '').toUpperCase(), METHODS);
      throw invalid(path, '"METHOD /path" (or "*")', config, match && method ? `${method} ${match[2]}` : undefined);
    }
    return { method: match[1].toUpperCase(), path: match[2] };
  }
  if (config === null || typeof config !== 'object' || Array.isArray(config)) throw invalid(path, '"METHOD /path" or { method, path }', config);
  const { method, path: routePath } = config as Record<string, unknown>;
  // v3 takes `authorizer: name` for `authorizer: { name }`, and an empty name (a placeholder) for none.
  const written = (config as Record<string, unknown>).authorizer;
  const authorizer = written === '' ? undefined : typeof written === 'string' ? { name: written } : written;
  if (typeof method !== 'string' || !METHODS.includes(method.toUpperCase())) {
    throw invalid(`${path}.method`, `one of ${METHODS.join(', ')}`, method, typeof method === 'string' ? closest(method.toUpperCase(), METHODS) : undefined);
  }
  if (routePath === undefined && method === '*') return { method: '*', path: '*', authorizer: authorizer as Route['authorizer'] };
  if (typeof routePath !== 'string' || !routePath.startsWith('/')) throw invalid(`${path}.path`, 'a path starting with "/"', routePath);
  return { method: method.toUpperCase(), path: routePath, authorizer: authorizer as Route['authorizer'] };
}

/**
 * What parseRoute accepts, for editors (`fw schema`) and the types of `defineConfig`;
 * parseRoute checks it with messages of its own.
 */
const schema = t.isOneOf([
  t.cascade(t.isString(), [t.matchesRegExp(/^\s*(\*|\S+\s+\/\S*)\s*$/)]),
  t.isObject({
    method: t.isString(),
    path: t.isOptional(t.isString()),
    authorizer: t.isOptional(t.isOneOf([t.isString(), t.isObject({
      name: t.isOptional(t.isString()),
      type: t.isOptional(t.isString()),
      scopes: t.isOptional(t.isArray(t.isString())),
      id: t.isOptional(t.isOneOf([t.isString(), isIntrinsic()])),
    })])),
  }),
]);

/**
 * `httpApi` event: one route on the service's HTTP API, pointing at the function's integration.
 */
export class HttpApiEvent extends Construct {
  static readonly type = 'httpApi';
  static readonly description = 'A route of the service HTTP API (API Gateway v2): "METHOD /path", "*" or { method, path, authorizer }';
  static readonly schema = schema;

  constructor(fn: FunctionConstruct, id: string, config: unknown, path: string) {
    super(fn, id);
    const route = parseRoute(config, path);
    const api = fn.service.httpApi();
    const routeKey = route.path === '*' ? '$default' : `${route.method === '*' ? 'ANY' : route.method} ${route.path}`;
    api.claimRoute(routeKey, path);
    const functionPayload = (fn.config.httpApi as { payload?: string } | undefined)?.payload;
    const integration = api.integrationFor(fn, functionPayload ?? api.defaultPayload);

    const properties: Record<string, Json> = {
      ApiId: api.apiId,
      RouteKey: routeKey,
      Target: join(['integrations', ref(integration)], '/'),
    };
    const authorizer = route.authorizer;
    if (authorizer !== undefined) {
      if (authorizer.type !== undefined && String(authorizer.type).toLowerCase() === 'aws_iam') {
        properties.AuthorizationType = 'AWS_IAM';
      } else if (authorizer.id !== undefined) {
        // As v3: an authorizer made elsewhere belongs to an API made elsewhere.
        if (api.externalId === undefined) {
          throw new ConfigError(
            `Invalid configuration in '${path}.authorizer.id': an external authorizer (${JSON.stringify(authorizer.id)}) needs an external API (provider.httpApi.id); this HTTP API is part of the stack`,
          );
        }
        properties.AuthorizationType = String(authorizer.type ?? 'jwt').toLowerCase() === 'request' ? 'CUSTOM' : 'JWT';
        properties.AuthorizerId = authorizer.id;
      } else {
        const name = authorizer.name;
        const logicalId = name === undefined ? undefined : api.authorizerLogicalId(name);
        if (logicalId === undefined) {
          throw new ConfigError(
            `Invalid configuration in '${path}.authorizer.name': no authorizer named ${JSON.stringify(name)} under provider.httpApi.authorizers`,
          );
        }
        const authorizerConfig = fn.service.provider.httpApi?.authorizers?.[name as string] ?? {};
        properties.AuthorizationType = String(authorizerConfig.type ?? 'jwt').toLowerCase() === 'request' ? 'CUSTOM' : 'JWT';
        properties.AuthorizerId = ref(logicalId);
      }
      if (authorizer.scopes !== undefined) properties.AuthorizationScopes = authorizer.scopes;
    }
    new CfnResource(this, 'Route', {
      logicalId: naming.httpApiRoute(route.path === '*' ? '*' : `${route.method} ${route.path}`),
      type: 'AWS::ApiGatewayV2::Route',
      properties: () => properties,
      dependsOn: () => integration,
    });
  }
}
