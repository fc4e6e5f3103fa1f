import { Construct } from 'constructs';
import * as t from '../../config/typanion';
import { ConfigError } from '../../errors';
import type { FunctionConstruct } from '../function';
import { WebsocketsApi, type WebsocketsAuthorizer } from '../websockets-api';
import { inDepth, isEither, isStringLike, validateEvent } from './event-schema';

const isAuthorizerObject = t.isObject({
  name: t.isOptional(t.isString()),
  arn: t.isOptional(isStringLike()),
  identitySource: t.isOptional(isIdentitySource()),
});
const isAuthorizer = isEither<string | t.InferType<typeof isAuthorizerObject>>('a function name, an ARN, or { name | arn, identitySource }', [
  inDepth('string', t.isString()),
  inDepth('object', isAuthorizerObject),
]);

const isRouteObject = t.isObject({
  route: t.isString(),
  routeResponseSelectionExpression: t.isOptional(t.isString()),
  authorizer: t.isOptional(isAuthorizer),
});
const schema = isEither<string | t.InferType<typeof isRouteObject>>('a route like "$connect" or { route, routeResponseSelectionExpression, authorizer }', [
  inDepth('string', t.isString()),
  inDepth('object', isRouteObject),
]);

function isIdentitySource() {
  return isEither<string | string[]>('an identity source or a list of them', [t.isString(), t.isArray(t.isString())]);
}

export type WebsocketConfig = t.InferType<typeof schema>;

/** Characters a route key may hold; they are all spelled out in the route's logical id. */
const ROUTE_KEY = /^[A-Za-z0-9$_./-]+$/;
const DEFAULT_IDENTITY_SOURCE = 'route.request.header.Auth';

/**
 * `websocket` event: a route of the service's WebSocket API (`$connect`, `$disconnect`,
 * `$default` or a custom one) handled by the function, optionally behind a Lambda authorizer.
 */
export class WebsocketEvent extends Construct {
  static readonly type = 'websocket';
  static readonly description = 'A route of the service WebSocket API ($connect, $disconnect, $default or a custom route key)';
  static readonly schema = schema;

  constructor(fn: FunctionConstruct, id: string, raw: unknown, path: string) {
    super(fn, id);
    const config = validateEvent(schema, raw, path);
    const event = typeof config === 'string' ? { route: config } : config;
    const routePath = typeof config === 'string' ? path : `${path}.route`;
    if (!ROUTE_KEY.test(event.route)) {
      // The reference builds the route's logical id from the key and emits an invalid one for other characters.
      throw new ConfigError(
        `Invalid configuration in '${routePath}': expected a route key of letters, digits and "$_./-" (it names the route's logical id), got ${JSON.stringify(event.route)}`,
      );
    }
    const authorizer = 'authorizer' in event && event.authorizer !== undefined ? resolveAuthorizer(fn, event.authorizer, `${path}.authorizer`) : undefined;
    if (authorizer && event.route !== '$connect') {
      // API Gateway refuses authorizers on any other route; the reference only finds out at deploy time.
      throw new ConfigError(`Invalid configuration in '${path}.authorizer': API Gateway allows an authorizer on the $connect route only, got route ${JSON.stringify(event.route)}`);
    }
    WebsocketsApi.of(fn.service).addRoute(
      fn,
      {
        routeKey: event.route,
        routeResponseSelectionExpression: 'routeResponseSelectionExpression' in event ? event.routeResponseSelectionExpression : undefined,
        authorizer,
      },
      routePath,
    );
  }
}

type AuthorizerConfig = Exclude<NonNullable<Extract<WebsocketConfig, { route: string }>['authorizer']>, undefined>;

/** `auth` (a function of this service), an ARN, or `{ name | arn, identitySource }`. */
function resolveAuthorizer(fn: FunctionConstruct, config: AuthorizerConfig, path: string): WebsocketsAuthorizer {
  const settings = typeof config === 'string' ? (config.startsWith('arn:') ? { arn: config } : { name: config }) : config;
  const identitySource = settings.identitySource === undefined ? [DEFAULT_IDENTITY_SOURCE] : [settings.identitySource].flat();
  if (settings.arn !== undefined) {
    const name = settings.name ?? (typeof settings.arn === 'string' ? settings.arn.split(':').pop() : undefined);
    if (!name) throw new ConfigError(`Invalid configuration in '${path}.name': an authorizer given by an intrinsic ARN needs a "name"`);
    return { name, arn: settings.arn, identitySource };
  }
  if (settings.name === undefined) throw new ConfigError(`Invalid configuration in '${path}': expected a function name, an ARN, or { name | arn, identitySource }`);
  // Looked up in the config: the authorizer's function may be declared after this one.
  if (fn.service.config.functions?.[settings.name] === undefined) {
    throw new ConfigError(`Invalid configuration in '${typeof config === 'string' ? path : `${path}.name`}': no function named ${JSON.stringify(settings.name)} in this service to use as authorizer`);
  }
  return { name: settings.name, functionKey: settings.name, identitySource };
}
