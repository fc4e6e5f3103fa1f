/** The custom-resource functions fw adds (one shared role, one function per kind: existing S3 buckets, Cognito pools, EventBridge…). */
import { normalizeName } from './normalize';

export const customResourcesRole = () => 'IamRoleCustomResourcesLambdaExecution';
/** `existing-s3` → `CustomDashresourceDashexistingDashs3LambdaFunction` */
export const customResourceFunction = (kind: string) => `${normalizeName(`custom-resource-${kind}`)}LambdaFunction`;
export const customResourceFunctionName = (service: string, stage: string, kind: string) => `${service}-${stage}-custom-resource-${kind}`;
export const customResourcesArtifact = () => 'custom-resources.zip';
