import { Construct } from 'constructs';
import * as naming from '../synth/naming';
import { CfnOutput, CfnResource, join, partition, ref } from './resource';

/**
 * `ServerlessDeploymentBucket`, where artifacts and templates are uploaded,
 * with a policy that refuses any request not made over TLS. `accelerate` (`deploy --aws-s3-accelerate`)
 * turns S3 Transfer Acceleration on (and says so in an output) or, false, suspends it.
 */
export class DeploymentBucket extends Construct {
  constructor(scope: Construct, id: string, accelerate?: boolean) {
    super(scope, id);
    const bucket = naming.deploymentBucket();
    new CfnResource(this, 'Bucket', {
      logicalId: bucket,
      type: 'AWS::S3::Bucket',
      properties: () => ({
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
        },
        ...(accelerate === undefined ? {} : { AccelerateConfiguration: { AccelerationStatus: accelerate ? 'Enabled' : 'Suspended' } }),
      }),
    });
    new CfnResource(this, 'Policy', {
      logicalId: naming.deploymentBucketPolicy(),
      type: 'AWS::S3::BucketPolicy',
      properties: () => ({
        Bucket: ref(bucket),
        PolicyDocument: {
          Statement: [
            {
              Action: 's3:*',
              Effect: 'Deny',
              Principal: '*',
              Resource: [
                join(['arn:', partition, ':s3:::', ref(bucket), '/*']),
                join(['arn:', partition, ':s3:::', ref(bucket)]),
              ],
              Condition: { Bool: { 'aws:SecureTransport': false } },
            },
          ],
        },
      }),
    });
    new CfnOutput(this, 'Name', { key: naming.deploymentBucketOutput(), value: ref(bucket) });
    if (accelerate) new CfnOutput(this, 'Accelerated', { key: 'ServerlessDeploymentBucketAccelerated', value: true });
  }
}
