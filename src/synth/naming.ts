/**
 * Every logical id and generated name, as Serverless Framework v3 spells them,
 * so existing `resources` overrides, extensions, `Ref`s and `Fn::GetAtt`s keep working.
 * Pure functions only.
 */

/** `upload-file_x` → `UploadDashfileUnderscorex` */
export function normalizeName(name: string): string {
  const spelled = name.replace(/-/g, 'Dash').replace(/_/g, 'Underscore');
  return spelled.charAt(0).toUpperCase() + spelled.slice(1);
}

/** Keeps letters and digits only, first letter upper-cased: `my-bucket.v2` → `Mybucketv2`. */
export function normalizeNameToAlphaNumericOnly(name: string): string {
  return normalizeName(name.replace(/[^0-9A-Za-z]/g, ''));
}

export const functionName = (fn: string) => normalizeName(fn);
export const logGroup = (fn: string) => `${normalizeName(fn)}LogGroup`;
export const lambdaFunction = (fn: string) => `${normalizeName(fn)}LambdaFunction`;
export const lambdaVersion = (fn: string, hash: string) => `${normalizeName(fn)}LambdaVersion${hash}`;
export const lambdaQualifiedArnOutput = (fn: string) => `${normalizeName(fn)}LambdaFunctionQualifiedArn`;
export const lambdaUrl = (fn: string) => `${normalizeName(fn)}LambdaFunctionUrl`;
export const lambdaUrlPermission = (fn: string) => `${normalizeName(fn)}LambdaPermissionFnUrl`;
export const lambdaEventConfig = (fn: string) => `${normalizeName(fn)}LambdaEvConf`;
export const logGroupName = (physicalFunctionName: string) => `/aws/lambda/${physicalFunctionName}`;

export const deploymentBucket = () => 'ServerlessDeploymentBucket';
export const deploymentBucketPolicy = () => 'ServerlessDeploymentBucketPolicy';
export const deploymentBucketOutput = () => 'ServerlessDeploymentBucketName';
export const roleLambdaExecution = () => 'IamRoleLambdaExecution';

/** Physical names. */
export const stackName = (service: string, stage: string) => `${service}-${stage}`;
export const defaultFunctionName = (service: string, stage: string, fn: string) => `${service}-${stage}-${fn}`;
export const exportName = (service: string, stage: string, outputKey: string) => `sls-${service}-${stage}-${outputKey}`;

// ---- HTTP API (API Gateway v2) ----
export const httpApi = () => 'HttpApi';
export const httpApiStage = () => 'HttpApiStage';
export const httpApiIntegration = (fn: string) => `HttpApiIntegration${normalizeName(fn)}`;
export const httpApiPermission = (fn: string) => `${normalizeName(fn)}LambdaPermissionHttpApi`;
export const httpApiAuthorizer = (name: string) => `HttpApiAuthorizer${normalizeNameToAlphaNumericOnly(name)}`;
export const httpApiAuthorizerPermission = (name: string) => `${normalizeNameToAlphaNumericOnly(name)}LambdaAuthorizerPermissionHttpApi`;
export const httpApiLogGroup = () => 'HttpApiLogGroup';

/** `GET /users/{id}` → `HttpApiRouteGetUsersIdVar`; `*` → `HttpApiRouteDefault`. */
export function httpApiRoute(routeKey: string): string {
  if (routeKey === '*') return 'HttpApiRouteDefault';
  const [method, path] = routeKey.split(' ');
  const methodPart = method === '*' ? 'Any' : normalizeName(method.toLowerCase());
  return `HttpApiRoute${methodPart}${pathToLogicalPart(path)}`;
}

/** `/users/{id}/{proxy+}` → `UsersIdVarProxyVar` (empty for the root path). */
export function pathToLogicalPart(path: string): string {
  return path
    .split('/')
    .filter(Boolean)
    .map(segment => {
      // Lower-cased first: `my-path` → `MyDashpath`, `{postId}` → `PostidVar`, `sub.json` → `Subjson`
      const lower = segment.toLowerCase();
      const variable = /^\{(.+?)\+?\}$/.exec(lower);
      const name = normalizeNameToAlphaNumericOnly((variable ? variable[1] : lower).replace(/-/g, 'Dash'));
      return variable ? `${name}Var` : name;
    })
    .join('');
}

// ---- REST API (API Gateway v1) ----
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
