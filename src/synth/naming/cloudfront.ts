/** Logical ids and names of the CloudFront distribution, cache policies and Lambda@Edge permissions of `cloudFront` events. */
import { normalizeName } from './normalize';

export const cloudFrontDistribution = () => 'CloudFrontDistribution';
export const cloudFrontDistributionOutput = () => 'CloudFrontDistribution';
export const cloudFrontDistributionDomainNameOutput = () => 'CloudFrontDistributionDomainName';
export const cloudFrontCachePolicy = (name: string) => `CloudFrontCachePolicy${normalizeName(name)}`;
/** The deployed policy's name: `app-dev-myCachePolicy`. */
export const cloudFrontCachePolicyName = (service: string, stage: string, name: string) => `${service}-${stage}-${name}`;
export const lambdaAtEdgePermission = (fn: string) => `${normalizeName(fn)}LambdaFunctionInvokePermission`;
