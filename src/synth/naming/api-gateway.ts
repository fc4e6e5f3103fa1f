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
