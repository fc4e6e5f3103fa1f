import { createHash } from 'node:crypto';
import { Construct } from 'constructs';
import * as naming from '../synth/naming';
import type { Json } from './model';
import { CfnOutput, CfnResource, Resource, ref } from './resource';
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
    const version = new LayerVersion(this, 'Version', service, key, config);
    for (const account of config.allowedAccounts ?? []) {
      new CfnResource(this, `Permission${String(account)}`, {
        logicalId: naming.lambdaLayerPermission(key, String(account)),
        type: 'AWS::Lambda::LayerVersionPermission',
        properties: () => ({ Action: 'lambda:GetLayerVersion', LayerVersionArn: ref(version.logicalId), Principal: account }),
      });
    }
    new CfnOutput(this, 'QualifiedArn', { key: naming.lambdaLayerQualifiedArnOutput(key), description: 'Current Lambda layer version', value: () => ref(version.logicalId) });
    new CfnOutput(this, 'Hash', { key: naming.lambdaLayerHashOutput(key), description: 'Current Lambda layer hash', value: () => version.hash });
    new CfnOutput(this, 'S3Key', { key: naming.lambdaLayerS3KeyOutput(key), description: 'Current Lambda layer S3Key', value: () => version.s3Key });
  }
}

/** The layer version; its zip is known only once packaging ran, so everything about it is read at synthesis. */
class LayerVersion extends Resource {
  readonly type = 'AWS::Lambda::LayerVersion';
  constructor(scope: Construct, id: string, private readonly service: Service, private readonly key: string, private readonly config: LayerConfig) {
    super(scope, id);
  }
  private get artifact() {
    return this.service.artifacts.layers[this.key];
  }
  /**
   * 40 hex digits of a sha256 over the zip's sha256 and the layer's settings (the reference writes a
   * sha1: also 40 hex digits, also changing with the bytes and with the settings), so a retained
   * layer whose description, runtimes or licence change is published as a new version, the old one kept.
   */
  get hash(): string {
    const zip = this.artifact?.sha256;
    if (zip === undefined) return '';
    return createHash('sha256').update(zip).update(JSON.stringify(this.config)).digest('hex').slice(0, 40);
  }
  get s3Key(): string {
    const artifact = this.artifact;
    return artifact?.s3 ? artifact.s3.key : `${this.service.artifactDirectory}/${artifact?.name ?? `${this.key}.zip`}`;
  }
  get logicalId() {
    return this.config.retain ? `${naming.lambdaLayer(this.key)}${this.hash}` : naming.lambdaLayer(this.key);
  }
  protected properties() {
    const { config, artifact } = this;
    const properties: Record<string, Json> = {
      Content: { S3Bucket: artifact?.s3 ? artifact.s3.bucket : this.service.deploymentBucketRef, S3Key: this.s3Key },
      LayerName: config.name ?? this.key,
    };
    if (config.description !== undefined) properties.Description = config.description;
    if (config.compatibleRuntimes !== undefined) properties.CompatibleRuntimes = config.compatibleRuntimes;
    if (config.compatibleArchitectures !== undefined) properties.CompatibleArchitectures = config.compatibleArchitectures;
    if (config.licenseInfo !== undefined) properties.LicenseInfo = config.licenseInfo;
    return properties;
  }
  protected override attributes() {
    return this.config.retain ? { after: { DeletionPolicy: 'Retain' } } : {};
  }
}
