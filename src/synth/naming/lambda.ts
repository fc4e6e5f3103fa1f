/** Logical ids and physical names of a function and its own resources (log group, versions, URL, role). */
import { normalizeName } from './normalize';

export const functionName = (fn: string) => normalizeName(fn);
export const logGroup = (fn: string) => `${normalizeName(fn)}LogGroup`;
export const lambdaFunction = (fn: string) => `${normalizeName(fn)}LambdaFunction`;
export const lambdaVersion = (fn: string, hash: string) => `${normalizeName(fn)}LambdaVersion${hash}`;
export const lambdaQualifiedArnOutput = (fn: string) => `${normalizeName(fn)}LambdaFunctionQualifiedArn`;
export const lambdaUrl = (fn: string) => `${normalizeName(fn)}LambdaFunctionUrl`;
export const lambdaUrlPermission = (fn: string) => `${normalizeName(fn)}LambdaPermissionFnUrl`;
export const lambdaEventConfig = (fn: string) => `${normalizeName(fn)}LambdaEvConf`;
export const logGroupName = (physicalFunctionName: string) => `/aws/lambda/${physicalFunctionName}`;
export const roleLambdaExecution = () => 'IamRoleLambdaExecution';
export const defaultFunctionName = (service: string, stage: string, fn: string) => `${service}-${stage}-${fn}`;
