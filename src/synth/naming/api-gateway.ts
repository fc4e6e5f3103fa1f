/** Logical ids of the REST API (API Gateway v1) and its `http` events. */
import { normalizeName, normalizeNameToAlphaNumericOnly, pathToLogicalPart } from './normalize';

export const restApi = () => 'ApiGatewayRestApi';
export const restApiResource = (path: string) => `ApiGatewayResource${pathToLogicalPart(path)}`;
export const restApiMethod = (path: string, method: string) =>
  `ApiGatewayMethod${pathToLogicalPart(path)}${normalizeName(method.toLowerCase())}`;
export const restApiDeployment = (instanceId: string) => `ApiGatewayDeployment${instanceId}`;
export const restApiPermission = (fn: string) => `${normalizeName(fn)}LambdaPermissionApiGateway`;
export const restApiAuthorizer = (name: string) => `${normalizeName(name)}ApiGatewayAuthorizer`;
export const restApiKey = (index: number, usagePlan?: string) =>
  `ApiGatewayApiKey${usagePlan ? normalizeNameToAlphaNumericOnly(usagePlan) : ''}${index}`;
export const restUsagePlan = (usagePlan?: string) =>
  `ApiGatewayUsagePlan${usagePlan ? normalizeNameToAlphaNumericOnly(usagePlan) : ''}`;
export const restUsagePlanKey = (index: number, usagePlan?: string) =>
  `ApiGatewayUsagePlanKey${usagePlan ? normalizeNameToAlphaNumericOnly(usagePlan) : ''}${index}`;
export const restApiLogGroup = () => 'ApiGatewayLogGroup';
export const serviceEndpointOutput = () => 'ServiceEndpoint';

/** v3 names models after the words of a key or content type: `post-create-model` → `PostCreateModel`, `application/json` → `ApplicationJson`. */
export function pascalWords(text: string): string {
  const words = text.match(/[A-Z]{2,}(?=[A-Z][a-z]|[0-9]|[^A-Za-z0-9]|$)|[A-Z]?[a-z]+|[A-Z]+|[0-9]+/g) ?? [];
  return words.map(word => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase()).join('');
}
/** The one request validator of a service's REST API: `my-svc` → `ApiGatewayMysvcRequestValidator`. */
export const restApiRequestValidator = (service: string) => `ApiGateway${normalizeNameToAlphaNumericOnly(service)}RequestValidator`;
/** A model of `provider.apiGateway.request.schemas`, by its key. */
export const restApiModel = (key: string) => `ApiGateway${pascalWords(key)}Model`;
/** A model an `http` event declares inline for one content type. */
export const restApiMethodModel = (path: string, method: string, contentType: string) =>
  `${restApiMethod(path, method)}${pascalWords(contentType)}Model`;
