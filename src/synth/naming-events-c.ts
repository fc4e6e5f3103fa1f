/**
 * Logical ids and generated names for the cognitoUserPool, eventBridge, cloudFront and
 * websocket events, spelled as Serverless Framework v3 spells them. Pure functions only.
 */
import { createHash } from 'node:crypto';
import { normalizeName, normalizeNameToAlphaNumericOnly } from './naming';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** Names over `limit` characters keep their start and `suffix`, with an md5 of the whole name between. */
export function shortenName(name: string, suffix: string, limit = 64): string {
  const full = `${name}${suffix}`;
  if (full.length <= limit) return full;
  return `${full.slice(0, limit - 32 - suffix.length)}${md5(full)}${suffix}`;
}

// ---- Cognito user pools ----
export const cognitoUserPool = (pool: string) => `CognitoUserPool${normalizeNameToAlphaNumericOnly(pool)}`;
export const cognitoUserPoolPermission = (fn: string, pool: string, trigger: string) =>
  `${normalizeName(fn)}LambdaPermission${cognitoUserPool(pool)}TriggerSource${trigger}`;
/** `{Fn}CustomCognitoUserPool1`: the custom resource attaching a function's triggers to an existing pool. */
export const existingCognitoUserPool = (fn: string) => `${normalizeName(fn)}CustomCognitoUserPool1`;

// ---- EventBridge ----
export const eventBridgeEventBus = (bus: string) => `${normalizeName(bus)}EventBridgeEventBus`;
/** `app-dev-hello-rule-2`, shortened with a hash when it would pass EventBridge's 64 characters. */
export const eventBridgeRuleName = (functionName: string, position: number) => shortenName(functionName, `-rule-${position}`);
export const eventBridgeTargetId = (ruleName: string) => shortenName(ruleName, '-target');
export const eventBridgeRule = (functionName: string, position: number) =>
  `${normalizeNameToAlphaNumericOnly(`${functionName}-rule-${position}`)}EventBridgeRule`;
/** `{Fn}CustomEventBridge{n}`: the legacy (`useCloudFormation: false`) custom resource for one rule. */
export const eventBridgeCustomResource = (fn: string, position: number) => `${normalizeName(fn)}CustomEventBridge${position}`;
export const eventBridgePermission = (fn: string, position: number) => `${normalizeName(fn)}EventBridgeLambdaPermission${position}`;

// ---- CloudFront (Lambda@Edge) ----
export const cloudFrontDistribution = () => 'CloudFrontDistribution';
export const cloudFrontDistributionOutput = () => 'CloudFrontDistribution';
export const cloudFrontDistributionDomainNameOutput = () => 'CloudFrontDistributionDomainName';
export const cloudFrontCachePolicy = (name: string) => `CloudFrontCachePolicy${normalizeName(name)}`;
/** The deployed policy's name: `app-dev-myCachePolicy`. */
export const cloudFrontCachePolicyName = (service: string, stage: string, name: string) => `${service}-${stage}-${name}`;
export const lambdaAtEdgePermission = (fn: string) => `${normalizeName(fn)}LambdaFunctionInvokePermission`;

// ---- WebSockets API (API Gateway v2) ----
export const websocketsApi = () => 'WebsocketsApi';
export const websocketsIntegration = (fn: string) => `${normalizeName(fn)}WebsocketsIntegration`;
export const websocketsPermission = (fn: string) => `${normalizeName(fn)}LambdaPermissionWebsockets`;
/** `$connect` → `SconnectWebsocketsRoute`, `foo-bar` → `fooDashbarWebsocketsRoute`. */
export const websocketsRoute = (route: string) => `${normalizeWebsocketRoute(route)}WebsocketsRoute`;
export const websocketsRouteResponse = (route: string) => `${normalizeWebsocketRoute(route)}WebsocketsRouteResponse`;
export const websocketsDeployment = (instanceId: string) => `WebsocketsDeployment${instanceId}`;
export const websocketsStage = () => 'WebsocketsDeploymentStage';
export const websocketsAuthorizer = (name: string) => `${normalizeName(name)}WebsocketsAuthorizer`;
export const websocketsAuthorizerPermission = (name: string) => `${normalizeName(name)}LambdaPermissionWebsockets`;
export const websocketsLogGroup = () => 'WebsocketsLogGroup';
export const websocketsEndpointOutput = () => 'ServiceEndpointWebsocket';

/** The route key spelled out (`$` → `S`, `-` → `Dash`, `.` → `Period`, `_` → `Underscore`, `/` → `Slash`), first letter kept as is. */
export function normalizeWebsocketRoute(route: string): string {
  return route
    .replace(/\$/g, 'S')
    .replace(/-/g, 'Dash')
    .replace(/\./g, 'Period')
    .replace(/_/g, 'Underscore')
    .replace(/\//g, 'Slash');
}
