import * as t from '../config/typanion';
import { ConfigError, invalid } from '../errors';
import type { Json } from './model';
import { expecting, isEventObject, isIntrinsic, validateEvent } from './events/event-schema';

/**
 * `provider.alb`: the target group name prefix and the Cognito / OIDC authorizers that
 * `alb` events name, turned into listener rule `authenticate-*` actions.
 */

const stringLike = expecting('a string or a CloudFormation intrinsic', t.isOneOf([t.isString(), isIntrinsic()]));

const commonFields = {
  onUnauthenticatedRequest: t.isOptional(t.isEnum(['allow', 'authenticate', 'deny'])),
  requestExtraParams: t.isOptional(t.isRecord(expecting('a string', t.isOneOf([t.isString(), t.isNumber(), t.isBoolean()])))),
  scope: t.isOptional(t.isString()),
  sessionCookieName: t.isOptional(t.isString()),
  sessionTimeout: t.isOptional(expecting('a whole number of seconds', t.cascade(t.isNumber(), [t.isInteger(), t.isAtLeast(0)]))),
};

const cognitoSchema = isEventObject({
  type: t.isLiteral('cognito'),
  userPoolArn: stringLike,
  userPoolClientId: stringLike,
  userPoolDomain: stringLike,
  ...commonFields,
});

const oidcSchema = isEventObject({
  type: t.isLiteral('oidc'),
  authorizationEndpoint: t.isString(),
  clientId: t.isString(),
  clientSecret: t.isOptional(stringLike),
  useExistingClientSecret: t.isOptional(t.isBoolean()),
  issuer: t.isString(),
  tokenEndpoint: t.isString(),
  userInfoEndpoint: t.isString(),
  ...commonFields,
});

const providerAlbSchema = isEventObject({
  targetGroupPrefix: t.isOptional(expecting('a prefix of at most 16 characters', t.cascade(t.isString(), [t.hasMaxLength(16)]))),
  authorizers: t.isOptional(t.isRecord(t.isUnknown())),
});

export interface AlbProviderSettings {
  targetGroupPrefix?: string;
  /** The listener rule action of each authorizer, by name, at a position among the rule's actions. */
  authorizers: Map<string, (order: number) => Record<string, Json>>;
}

/** Reads and checks `provider.alb` (absent: no prefix, no authorizers). */
export function parseProviderAlb(raw: unknown): AlbProviderSettings {
  if (raw === undefined || raw === null) return { authorizers: new Map() };
  const alb = validateEvent(providerAlbSchema, raw, 'provider.alb');
  const authorizers = new Map<string, (order: number) => Record<string, Json>>();
  for (const [name, config] of Object.entries(alb.authorizers ?? {})) {
    authorizers.set(name, authorizerAction(config, `provider.alb.authorizers.${name}`));
  }
  return { targetGroupPrefix: alb.targetGroupPrefix, authorizers };
}

function authorizerAction(config: unknown, path: string): (order: number) => Record<string, Json> {
  const type = (config as { type?: unknown } | null)?.type;
  if (type === 'cognito') {
    const auth = validateEvent(cognitoSchema, config, path);
    const settings: Record<string, Json> = {
      UserPoolArn: auth.userPoolArn,
      UserPoolClientId: auth.userPoolClientId,
      UserPoolDomain: auth.userPoolDomain,
      ...commonSettings(auth),
    };
    return order => ({ Type: 'authenticate-cognito', Order: order, AuthenticateCognitoConfig: settings });
  }
  if (type === 'oidc') {
    const auth = validateEvent(oidcSchema, config, path);
    const settings: Record<string, Json> = {
      AuthorizationEndpoint: auth.authorizationEndpoint,
      ClientId: auth.clientId,
      Issuer: auth.issuer,
      TokenEndpoint: auth.tokenEndpoint,
      UserInfoEndpoint: auth.userInfoEndpoint,
      ...commonSettings(auth),
    };
    if (auth.clientSecret !== undefined) settings.ClientSecret = auth.clientSecret;
    if (auth.useExistingClientSecret !== undefined) settings.UseExistingClientSecret = auth.useExistingClientSecret;
    if (auth.clientSecret === undefined && auth.useExistingClientSecret !== true) {
      throw new ConfigError(`Invalid configuration in '${path}.clientSecret': expected the client secret (or useExistingClientSecret: true), got nothing`);
    }
    return order => ({ Type: 'authenticate-oidc', Order: order, AuthenticateOidcConfig: settings });
  }
  throw invalid(`${path}.type`, '"cognito" or "oidc"', type);
}

function commonSettings(auth: t.InferType<typeof cognitoSchema> | t.InferType<typeof oidcSchema>): Record<string, Json> {
  const settings: Record<string, Json> = { OnUnauthenticatedRequest: auth.onUnauthenticatedRequest ?? 'deny' };
  if (auth.requestExtraParams !== undefined) {
    settings.AuthenticationRequestExtraParams = Object.fromEntries(Object.entries(auth.requestExtraParams).map(([key, value]) => [key, String(value)]));
  }
  if (auth.scope !== undefined) settings.Scope = auth.scope;
  if (auth.sessionCookieName !== undefined) settings.SessionCookieName = auth.sessionCookieName;
  if (auth.sessionTimeout !== undefined) settings.SessionTimeout = auth.sessionTimeout;
  return settings;
}
