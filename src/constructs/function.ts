import { createHash } from 'node:crypto';
import { Construct } from 'constructs';
import * as naming from '../synth/naming';
import { checkFunctionName } from '../synth/name-checks';
import { ConfigError, invalid } from '../errors';
import { functionImage, type FunctionImage } from './function-image';
import type { Artifact } from '../package/artifacts';
import type { FunctionConfig, Json } from './model';
import { CfnOutput, Resource, getAtt, ref } from './resource';
import type { Service } from './service';
import { FunctionUrl } from './function-url';
import { EventInvokeConfig } from './event-invoke-config';
import { createEvents } from './events/registry';

/**
 * One function of the service: its log group, the Lambda function, its published
 * version, optional URL and async-invoke config, and the events that trigger it.
 */
export class FunctionConstruct extends Construct {
  readonly service: Service;
  /** The function's config key (`hello`). */
  readonly key: string;
  /** The deployed function's name (`app-dev-hello` unless `name` is set). */
  readonly physicalName: string;
  readonly lambda: LambdaFunction;
  readonly version?: LambdaVersion;
  /** Set when the function runs a container image (`image`) rather than a zip. */
  readonly image?: FunctionImage;

  constructor(service: Service, key: string, readonly config: FunctionConfig) {
    super(service, key);
    this.service = service;
    this.key = key;
    this.physicalName = config.name ?? naming.defaultFunctionName(service.name, service.stage, key);
    checkFunctionName(this.physicalName, key, config.name !== undefined);
    const path = `functions.${key}`;
    if (config.handler === undefined && config.image === undefined) throw invalid(`${path}.handler`, 'a handler like "file.function"', undefined);
    if (config.handler !== undefined && config.image !== undefined) {
      throw new ConfigError(`Invalid configuration in '${path}': either "handler" or "image" (not both) needs to be set on function "${key}"`);
    }
    if (config.image !== undefined) this.image = functionImage(config.image, service.provider.ecr as Parameters<typeof functionImage>[1], key);
    if (config.handler !== undefined) checkHandler(config.handler, config.runtime ?? service.provider.runtime, `${path}.handler`);

    if (!config.disableLogs) new LogGroup(this, 'LogGroup', this);
    const role = this.usesSharedRole ? service.role : undefined;
    const customName = !this.physicalName.startsWith(`${service.name}-${service.stage}`);
    if (customName && !config.disableLogs) role?.addLogGroup(naming.logGroupName(this.physicalName));
    if (!customName) role?.useServicePrefix();
    if (!customName && config.disableLogs) role?.denyLogs(naming.logGroupName(this.physicalName));
    if (config.tracing ?? service.provider.tracing?.lambda) role?.enableTracing();
    if (config.onError !== undefined) role?.addFunctionStatement({ Effect: 'Allow', Action: ['sns:Publish'], Resource: [config.onError] });

    this.lambda = new LambdaFunction(this, 'Function', this);
    if (service.versionFunctions) {
      this.version = new LambdaVersion(this, 'Version', this);
    }
    if (this.version) {
      new CfnOutput(this, 'QualifiedArn', {
        key: naming.lambdaQualifiedArnOutput(key),
        description: 'Current Lambda function version',
        value: () => ref(this.version!.logicalId),
      });
    }
    if (config.url) new FunctionUrl(this, 'Url', this, config.url, `${path}.url`);
    if (config.destinations !== undefined || config.maximumRetryAttempts !== undefined || config.maximumEventAge !== undefined) {
      new EventInvokeConfig(this, 'EventInvokeConfig', this, role);
    }
    createEvents(this, config.events ?? [], `${path}.events`);
  }

  get logicalId(): string {
    return this.lambda.logicalId;
  }

  /** Whether the function runs as `IamRoleLambdaExecution` (rather than a role of its own). */
  get usesSharedRole(): boolean {
    return this.config.role === undefined && this.service.providerRole === undefined;
  }

  /** The zip holding this function's code (known once packaging ran); none for image functions. */
  get artifact(): Artifact | undefined {
    return this.service.artifacts.functions[this.key];
  }

  /** `{ "Fn::GetAtt": ["HelloLambdaFunction", "Arn"] }` */
  get arn() {
    return getAtt(this.lambda.logicalId, 'Arn');
  }
}

/**
 * Node.js, Python and Ruby handlers name a file and an exported function (`file.function`). Other
 * runtimes have their own forms, which Lambda reads and v3 accepts as any string: a binary
 * (`bin/auth`, `bootstrap` for Go and `provided.*`), `com.example.Handler::handleRequest` (Java),
 * `Assembly::Namespace.Class::Method` (.NET), `hello::handler` (Clojure on Java).
 */
function checkHandler(handler: unknown, runtime: string | undefined, path: string): void {
  if (typeof handler !== 'string' || handler === '') throw invalid(path, 'a handler like "file.function" (module path, a dot, the exported name)', handler as Json);
  const fileAndFunction = /^(nodejs|python|ruby)/.test(runtime ?? 'nodejs');
  if (fileAndFunction && !/^.+\.[^./]+$/.test(handler)) {
    throw invalid(path, 'a handler like "file.function" (module path, a dot, the exported name)', handler);
  }
}

class LogGroup extends Resource {
  readonly type = 'AWS::Logs::LogGroup';
  constructor(scope: Construct, id: string, private readonly fn: FunctionConstruct) {
    super(scope, id);
  }
  get logicalId() {
    return naming.logGroup(this.fn.key);
  }
  protected properties() {
    const retention = this.fn.config.logRetentionInDays ?? this.fn.service.provider.logRetentionInDays;
    const properties: Record<string, Json> = { LogGroupName: naming.logGroupName(this.fn.physicalName) };
    if (retention !== undefined) properties.RetentionInDays = retention;
    const protection = this.fn.service.provider.logDataProtectionPolicy;
    if (protection !== undefined) properties.DataProtectionPolicy = protection;
    return properties;
  }
}

export class LambdaFunction extends Resource {
  readonly type = 'AWS::Lambda::Function';
  private readonly dependencies: string[] = [];

  constructor(scope: Construct, id: string, private readonly fn: FunctionConstruct) {
    super(scope, id);
    if (!fn.config.disableLogs) this.dependencies.push(naming.logGroup(fn.key));
    const role = this.roleLogicalId();
    if (role !== undefined) this.dependencies.push(role);
  }

  get logicalId() {
    return naming.lambdaFunction(this.fn.key);
  }

  addDependency(logicalId: string): void {
    if (!this.dependencies.includes(logicalId)) this.dependencies.push(logicalId);
  }

  /** The role's logical id when it lives in this template (a name, or `Fn::GetAtt` of one), so the function waits for it. */
  private roleLogicalId(): string | undefined {
    const role = this.fn.config.role ?? this.fn.service.providerRole;
    if (typeof role === 'string' && !role.startsWith('arn:')) return role;
    const getAtt = (role as { 'Fn::GetAtt'?: unknown } | undefined)?.['Fn::GetAtt'];
    if (Array.isArray(getAtt) && typeof getAtt[0] === 'string') return getAtt[0];
    return undefined;
  }

  private roleArn(): Json {
    const role = this.fn.config.role ?? this.fn.service.providerRole;
    if (role === undefined) return getAtt(naming.roleLambdaExecution(), 'Arn');
    if (typeof role === 'string') return role.startsWith('arn:') ? role : getAtt(role, 'Arn');
    return role;
  }

  /** Everything about the function except where its code is stored (that changes every deploy). */
  configurationProperties(): Record<string, Json> {
    const { config, service } = this.fn;
    const provider = service.provider;
    const properties: Record<string, Json> = {};
    if (this.fn.image) {
      // An image carries its own runtime and handler: v3 writes neither, and the image settings instead.
      if (this.fn.image.imageConfig) properties.ImageConfig = this.fn.image.imageConfig;
      properties.PackageType = 'Image';
    } else {
      if (config.handler !== undefined) properties.Handler = config.handler;
      properties.Runtime = config.runtime ?? provider.runtime ?? 'nodejs14.x';
    }
    properties.FunctionName = this.fn.physicalName;
    properties.MemorySize = config.memorySize ?? provider.memorySize ?? 1024;
    properties.Timeout = config.timeout ?? provider.timeout ?? 6;
    if (config.description !== undefined) properties.Description = config.description;
    const architecture = config.architecture ?? provider.architecture;
    if (architecture !== undefined) properties.Architectures = [architecture];
    const ephemeral = config.ephemeralStorageSize ?? provider.ephemeralStorageSize;
    if (ephemeral !== undefined) properties.EphemeralStorage = { Size: ephemeral };
    const tags = { ...(provider.tags ?? {}), ...(config.tags ?? {}) };
    if (Object.keys(tags).length > 0) properties.Tags = Object.entries(tags).map(([Key, Value]) => ({ Key, Value }));
    const environment = { ...(provider.environment ?? {}), ...(config.environment ?? {}) };
    // Lambda takes strings only; the reference writes numbers and booleans as their text.
    const variables = Object.fromEntries(
      Object.entries(environment).map(([name, value]) => [name, typeof value === 'number' || typeof value === 'boolean' ? String(value) : value]),
    );
    if (Object.keys(variables).length > 0) properties.Environment = { Variables: variables };
    if (config.onError !== undefined) properties.DeadLetterConfig = { TargetArn: config.onError };
    const kms = config.kmsKeyArn ?? provider.kmsKeyArn;
    if (kms !== undefined) properties.KmsKeyArn = kms;
    const tracing = config.tracing ?? provider.tracing?.lambda;
    if (tracing) properties.TracingConfig = { Mode: tracing === true ? 'Active' : tracing };
    // `vpc: ~` on a function opts it out of the provider's VPC.
    const vpc = 'vpc' in config ? config.vpc : provider.vpc;
    if (vpc && (vpc.securityGroupIds !== undefined || vpc.subnetIds !== undefined)) {
      const vpcConfig: Record<string, Json> = { SecurityGroupIds: vpc.securityGroupIds, SubnetIds: vpc.subnetIds };
      if (vpc.ipv6AllowedForDualStack !== undefined) vpcConfig.Ipv6AllowedForDualStack = vpc.ipv6AllowedForDualStack;
      properties.VpcConfig = vpcConfig;
    }
    const layers = config.layers ?? provider.layers;
    if (layers !== undefined) properties.Layers = layers;
    if (config.reservedConcurrency !== undefined) properties.ReservedConcurrentExecutions = config.reservedConcurrency;
    properties.Role = this.roleArn();
    return properties;
  }

  protected properties() {
    const artifact = this.fn.artifact;
    const code = artifact?.s3
      ? { S3Bucket: artifact.s3.bucket, S3Key: artifact.s3.key }
      : artifact
      ? { S3Bucket: this.fn.service.deploymentBucketRef, S3Key: `${this.fn.service.artifactDirectory}/${artifact.name}` }
      : { ImageUri: this.fn.image?.uri ?? this.fn.config.image };
    return { Code: code, ...this.configurationProperties() };
  }

  protected override attributes() {
    return { after: this.dependencies.length > 0 ? { DependsOn: [...this.dependencies] } : undefined };
  }
}

/**
 * `{Fn}LambdaVersion{hash}`: a new version exactly when the code or the
 * configuration changes, so an unchanged redeploy leaves it alone.
 */
export class LambdaVersion extends Resource {
  readonly type = 'AWS::Lambda::Version';
  constructor(scope: Construct, id: string, private readonly fn: FunctionConstruct) {
    super(scope, id);
  }

  get logicalId() {
    const hash = createHash('sha256')
      .update(this.fn.artifact?.codeSha256 ?? this.fn.image?.digest ?? JSON.stringify(this.fn.config.image ?? null))
      .update(JSON.stringify(this.fn.lambda.configurationProperties()))
      .digest('base64')
      .replace(/[^0-9A-Za-z]/g, '');
    return naming.lambdaVersion(this.fn.key, hash);
  }

  protected properties() {
    const properties: Record<string, Json> = { FunctionName: ref(this.fn.lambda.logicalId) };
    if (this.fn.artifact) properties.CodeSha256 = this.fn.artifact.codeSha256;
    else if (this.fn.image?.digest) properties.CodeSha256 = this.fn.image.digest;
    if (this.fn.config.description !== undefined) properties.Description = this.fn.config.description;
    return properties;
  }

  protected override attributes() {
    return { before: { DeletionPolicy: 'Retain' } };
  }
}

