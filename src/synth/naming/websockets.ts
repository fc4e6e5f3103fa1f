/** Logical ids of the WebSockets API (API Gateway v2) and its `websocket` events. */
import { normalizeName } from './normalize';

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
