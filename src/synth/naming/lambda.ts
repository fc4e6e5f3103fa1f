/** Logical ids and physical names of a function and its own resources (log group, versions, URL, role). */
import { normalizeName, normalizeNameToAlphaNumericOnly } from './normalize';

export const functionName = (fn: string) => normalizeName(fn);
export const logGroup = (fn: string) => `${normalizeName(fn)}LogGroup`;
export const lambdaFunction = (fn: string) => `${normalizeName(fn)}LambdaFunction`;
export const lambdaVersion = (fn: string, hash: string) => `${normalizeName(fn)}LambdaVersion${hash}`;
export const lambdaQualifiedArnOutput = (fn: string) => `${normalizeName(fn)}LambdaFunctionQualifiedArn`;
/** The aliases a function with provisioned concurrency or SnapStart is invoked through. */
export const provisionedConcurrencyAlias = (fn: string) => `${normalizeName(fn)}ProvConcLambdaAlias`;
export const snapStartAlias = (fn: string) => `${normalizeName(fn)}SnapStartLambdaAlias`;
/** `layers.<key>`: the layer version, its permission per account, and its outputs. */
export const lambdaLayer = (layer: string) => `${normalizeName(layer)}LambdaLayer`;
/** `*` (every account) is spelled `Wild`; an account ARN keeps its letters and digits. */
export const lambdaLayerPermission = (layer: string, account: string) =>
  `${normalizeNameToAlphaNumericOnly(layer)}${account === '*' ? 'Wild' : account.replace(/[^0-9A-Za-z]/g, '')}LambdaLayerPermission`;
export const lambdaLayerQualifiedArnOutput = (layer: string) => `${normalizeName(layer)}LambdaLayerQualifiedArn`;
export const lambdaLayerHashOutput = (layer: string) => `${normalizeName(layer)}LambdaLayerHash`;
export const lambdaLayerS3KeyOutput = (layer: string) => `${normalizeName(layer)}LambdaLayerS3Key`;
export const lambdaUrl = (fn: string) => `${normalizeName(fn)}LambdaFunctionUrl`;
export const lambdaUrlPermission = (fn: string) => `${normalizeName(fn)}LambdaPermissionFnUrl`;
export const lambdaEventConfig = (fn: string) => `${normalizeName(fn)}LambdaEvConf`;
export const logGroupName = (physicalFunctionName: string) => `/aws/lambda/${physicalFunctionName}`;
export const roleLambdaExecution = () => 'IamRoleLambdaExecution';
export const defaultFunctionName = (service: string, stage: string, fn: string) => `${service}-${stage}-${fn}`;
