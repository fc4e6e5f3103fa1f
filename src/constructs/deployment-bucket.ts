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
 * with a policy that refuses any request not made over TLS.
 */
export class DeploymentBucket extends Construct {
  constructor(scope: Construct, id: string, settings: DeploymentBucketSettings = {}) {
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
        if (settings.versioning) properties.VersioningConfiguration = { Status: 'Enabled' };
        const tags = Object.entries(settings.tags ?? {});
        if (tags.length > 0) properties.Tags = tags.map(([Key, Value]) => ({ Key, Value }));
        return properties;
      },
    });
    if (!settings.skipPolicySetup) this.addTlsOnlyPolicy(bucket);
    new CfnOutput(this, 'Name', { key: naming.deploymentBucketOutput(), value: ref(bucket) });
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
