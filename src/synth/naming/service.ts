/** Logical ids and physical names of the stack itself: its name, exports and deployment bucket. */

export const deploymentBucket = () => 'ServerlessDeploymentBucket';
export const deploymentBucketPolicy = () => 'ServerlessDeploymentBucketPolicy';
export const deploymentBucketOutput = () => 'ServerlessDeploymentBucketName';
export const stackName = (service: string, stage: string) => `${service}-${stage}`;
export const exportName = (service: string, stage: string, outputKey: string) => `sls-${service}-${stage}-${outputKey}`;
