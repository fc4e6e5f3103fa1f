import { Construct } from 'constructs';
import * as naming from '../synth/naming';
import type { Json } from './model';
import { CfnOutput, CfnResource, join, partition, ref } from './resource';

/** `provider.deploymentBucket` settings that shape the bucket fw creates. */
export interface DeploymentBucketSettings {
  blockPublicAccess?: boolean;
  versioning?: boolean;
  skipPolicySetup?: boolean;
  tags?: Record<string, Json>;
}

/**
 * `ServerlessDeploymentBucket`, where artifacts and templates are uploaded,
 * with a policy that refuses any request not made over TLS. `accelerate` (`deploy --aws-s3-accelerate`)
 * turns S3 Transfer Acceleration on (and says so in an output) or, false, suspends it.
 */
export class DeploymentBucket extends Construct {
  constructor(scope: Construct, id: string, settings: DeploymentBucketSettings = {}, accelerate?: boolean) {
    super(scope, id);
    const bucket = naming.deploymentBucket();
    new CfnResource(this, 'Bucket', {
      logicalId: bucket,
      type: 'AWS::S3::Bucket',
      properties: () => {
        const properties: Record<string, Json> = {
          BucketEncryption: {
            ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
          },
        };
        if (settings.blockPublicAccess) {
          properties.PublicAccessBlockConfiguration = { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true };
        }
        // `--aws-s3-accelerate` (and `--no-aws-s3-accelerate`), as v3 sets it.
        if (accelerate !== undefined) properties.AccelerateConfiguration = { AccelerationStatus: accelerate ? 'Enabled' : 'Suspended' };
        if (settings.versioning) properties.VersioningConfiguration = { Status: 'Enabled' };
        const tags = Object.entries(settings.tags ?? {});
        if (tags.length > 0) properties.Tags = tags.map(([Key, Value]) => ({ Key, Value }));
        return properties;
      },
    });
    if (!settings.skipPolicySetup) this.addTlsOnlyPolicy(bucket);
    new CfnOutput(this, 'Name', { key: naming.deploymentBucketOutput(), value: ref(bucket) });
    if (accelerate) new CfnOutput(this, 'Accelerated', { key: 'ServerlessDeploymentBucketAccelerated', value: true });
  }

  private addTlsOnlyPolicy(bucket: string): void {
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
  }
}
