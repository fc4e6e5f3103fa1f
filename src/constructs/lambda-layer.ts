import { Construct } from 'constructs';
import * as naming from '../synth/naming';
import type { Json } from './model';
import { CfnOutput, CfnResource, ref } from './resource';
import type { Service } from './service';

/** One entry of `layers:` (what the template needs of it; `path` and `package` shape the zip). */
export interface LayerConfig {
  name?: string;
  description?: string;
  compatibleRuntimes?: Json[];
  compatibleArchitectures?: Json[];
  licenseInfo?: string;
  allowedAccounts?: Json[];
  retain?: boolean;
}

/**
 * `{Name}LambdaLayer`: a layer version from the layer's zip, a permission per allowed account,
 * and the outputs the reference writes (qualified ARN, the zip's hash and S3 key).
 * A retained layer's logical id carries the zip's hash, so each change publishes a new version
 * and the old one is kept.
 */
export class LambdaLayer extends Construct {
  constructor(service: Service, key: string, config: LayerConfig) {
    super(service, `Layer${key}`);
    const artifact = service.artifacts.layers[key];
    const hash = artifact ? artifact.sha256.slice(0, 40) : '';
    const logicalId = config.retain ? `${naming.lambdaLayer(key)}${hash}` : naming.lambdaLayer(key);
    const s3Key = artifact?.s3 ? artifact.s3.key : `${service.artifactDirectory}/${artifact?.name ?? `${key}.zip`}`;
    new CfnResource(this, 'Version', {
      logicalId,
      type: 'AWS::Lambda::LayerVersion',
      deletionPolicy: config.retain ? 'Retain' : undefined,
      properties: () => {
        const properties: Record<string, Json> = {
          Content: { S3Bucket: artifact?.s3 ? artifact.s3.bucket : service.deploymentBucketRef, S3Key: s3Key },
          LayerName: config.name ?? key,
        };
        if (config.description !== undefined) properties.Description = config.description;
        if (config.compatibleRuntimes !== undefined) properties.CompatibleRuntimes = config.compatibleRuntimes;
        if (config.compatibleArchitectures !== undefined) properties.CompatibleArchitectures = config.compatibleArchitectures;
        if (config.licenseInfo !== undefined) properties.LicenseInfo = config.licenseInfo;
        return properties;
      },
    });
    for (const account of config.allowedAccounts ?? []) {
      new CfnResource(this, `Permission${String(account)}`, {
        logicalId: naming.lambdaLayerPermission(key, String(account)),
        type: 'AWS::Lambda::LayerVersionPermission',
        properties: () => ({ Action: 'lambda:GetLayerVersion', LayerVersionArn: ref(logicalId), Principal: account }),
      });
    }
    new CfnOutput(this, 'QualifiedArn', { key: naming.lambdaLayerQualifiedArnOutput(key), description: 'Current Lambda layer version', value: ref(logicalId) });
    new CfnOutput(this, 'Hash', { key: naming.lambdaLayerHashOutput(key), description: 'Current Lambda layer hash', value: hash });
    new CfnOutput(this, 'S3Key', { key: naming.lambdaLayerS3KeyOutput(key), description: 'Current Lambda layer S3Key', value: s3Key });
  }
}
