/** Logical ids of the HTTP API (API Gateway v2) and its `httpApi` events. */
import { normalizeName, normalizeNameToAlphaNumericOnly, pathToLogicalPart } from './normalize';

export const httpApi = () => 'HttpApi';
export const httpApiStage = () => 'HttpApiStage';
export const httpApiIntegration = (fn: string) => `HttpApiIntegration${normalizeName(fn)}`;
export const httpApiPermission = (fn: string) => `${normalizeName(fn)}LambdaPermissionHttpApi`;
export const httpApiAuthorizer = (name: string) => `HttpApiAuthorizer${normalizeName(name)}`;
export const httpApiAuthorizerPermission = (name: string) => `${normalizeNameToAlphaNumericOnly(name)}LambdaAuthorizerPermissionHttpApi`;
export const httpApiLogGroup = () => 'HttpApiLogGroup';

/** `GET /users/{id}` → `HttpApiRouteGetUsersIdVar`; `*` → `HttpApiRouteDefault`. */
export function httpApiRoute(routeKey: string): string {
  if (routeKey === '*') return 'HttpApiRouteDefault';
  const [method, path] = routeKey.split(' ');
  const methodPart = method === '*' ? 'Any' : normalizeName(method.toLowerCase());
  return `HttpApiRoute${methodPart}${pathToLogicalPart(path)}`;
}
