import { createHash } from 'node:crypto';
import { Construct } from 'constructs';
import * as naming from '../synth/naming';
import { checkFunctionName } from '../synth/name-checks';
import { ConfigError, invalid } from '../errors';
import { functionImage, type FunctionImage } from './function-image';
import type { Artifact } from '../artifacts/artifact';
import type { FunctionConfig, Json, RuntimeManagement } from './model';
import { CfnOutput, Resource, getAtt, join, ref } from './resource';
import type { Service } from './service';
import { FunctionUrl } from './function-url';
import { EventInvokeConfig } from './event-invoke-config';
import { createEvents } from './events/registry';
import { isPlainObject as isMap } from '../synth/merge';

/** The runtime of a function that names none, as Serverless Framework v3.40.0 writes it. */
export const DEFAULT_RUNTIME = 'nodejs16.x';

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
  /** Why AWS will refuse the derived name, printed as a warning: v3 packages it all the same. */
  readonly nameWarning: string | undefined;
  readonly lambda: LambdaFunction;
  readonly version?: LambdaVersion;
  /** Set when the function runs a container image (`image`) rather than a zip. */
  readonly image?: FunctionImage;
  /** The alias events invoke and wait for (`HelloProvConcLambdaAlias`), when provisioned concurrency is set. */
  readonly targetAlias?: string;

  constructor(service: Service, key: string, readonly config: FunctionConfig) {
    super(service, key);
    this.service = service;
    this.key = key;
    this.physicalName = config.name ?? naming.defaultFunctionName(service.name, service.stage, key);
    this.nameWarning = checkFunctionName(this.physicalName, key, config.name !== undefined);
    const path = `functions.${key}`;
    if (config.handler === undefined && config.image === undefined) throw invalid(`${path}.handler`, 'a handler like "file.function"', undefined);
    if (config.handler !== undefined && config.image !== undefined) {
      throw new ConfigError(`Invalid configuration in '${path}': either "handler" or "image" (not both) needs to be set on function "${key}"`);
    }
    if (config.image !== undefined) this.image = functionImage(config.image, service.provider.ecr as Parameters<typeof functionImage>[1], key, service.images);
    if (config.handler !== undefined) checkHandler(config.handler, config.runtime ?? service.provider.runtime, `${path}.handler`);

    if (!config.disableLogs) new LogGroup(this, 'LogGroup', this);
    const role = this.usesSharedRole ? service.role : undefined;
    const customName = !this.physicalName.startsWith(`${service.name}-${service.stage}`);
    if (customName && !config.disableLogs) role?.addLogGroup(naming.logGroupName(this.physicalName));
    if (!customName && !config.disableLogs) role?.useServicePrefix();
    if (!customName && config.disableLogs) role?.denyLogs(naming.logGroupName(this.physicalName));
    if (config.tracing ?? service.provider.tracing?.lambda) role?.enableTracing();
    if (config.onError !== undefined) role?.addFunctionStatement({ Effect: 'Allow', Action: ['sns:Publish'], Resource: [config.onError] }, { once: true });
    if (config.fileSystemConfig) {
      role?.addFunctionStatement({ Effect: 'Allow', Action: ['elasticfilesystem:ClientMount', 'elasticfilesystem:ClientWrite'], Resource: [config.fileSystemConfig.arn] });
    }
    const kmsKeyArn = config.kmsKeyArn ?? service.provider.kmsKeyArn;
    if (kmsKeyArn !== undefined) role?.addFunctionStatement({ Effect: 'Allow', Action: ['kms:Decrypt'], Resource: [kmsKeyArn] }, { once: true });

    if (config.provisionedConcurrency && config.snapStart) {
      throw new ConfigError(
        `Invalid configuration in '${path}': Functions with enabled SnapStart does not support provisioned concurrency. Please remove at least one of the settings on function "${key}".`,
      );
    }
    this.lambda = new LambdaFunction(this, 'Function', this);
    // An alias (provisioned concurrency, SnapStart) points at a version, so it needs one even when versioning is off.
    const versioned = config.versionFunction ?? service.versionFunctions;
    if (versioned || config.provisionedConcurrency || config.snapStart) {
      this.version = new LambdaVersion(this, 'Version', this, versioned);
    }
    if (config.provisionedConcurrency) {
      this.targetAlias = naming.provisionedConcurrencyAlias(key);
      new LambdaAlias(this, 'ProvisionedConcurrencyAlias', this, this.targetAlias, 'provisioned', {
        ProvisionedConcurrentExecutions: config.provisionedConcurrency,
      });
    }
    if (config.snapStart) new LambdaAlias(this, 'SnapStartAlias', this, naming.snapStartAlias(key), 'snapstart');
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
  }

  /**
   * The function's events: created once every function of the service exists, so an event may
   * name a function declared after its own (an `http` authorizer, as v3 allows).
   */
  addEvents(): void {
    createEvents(this, this.config.events ?? [], `functions.${this.key}.events`);
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

  /**
   * What events invoke: with provisioned concurrency, the alias (`{arn}:provisioned`, spelled as
   * v3 spells it), so invocations use the provisioned environments; else the function.
   */
  get targetArn(): Json {
    return this.targetAlias === undefined ? this.arn : join([this.arn, 'provisioned'], ':');
  }

  /** `DependsOn` of a resource that invokes the function: its own list, then the alias (where v3 puts it). */
  dependsOnTarget(dependsOn: string[]): string[] {
    return this.targetAlias === undefined ? dependsOn : [...dependsOn, this.targetAlias];
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
    const protection = this.fn.config.logDataProtectionPolicy ?? this.fn.service.provider.logDataProtectionPolicy;
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
    const dependsOn = fn.config.dependsOn;
    for (const id of typeof dependsOn === 'string' ? [dependsOn] : dependsOn ?? []) this.addDependency(id);
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
      properties.Runtime = config.runtime ?? provider.runtime ?? DEFAULT_RUNTIME;
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
    // v3 writes the (possibly empty) variables whenever either level sets `environment` to a map.
    if (Object.keys(variables).length > 0 || isMap(provider.environment) || isMap(config.environment)) properties.Environment = { Variables: variables };
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
    const runtimeManagement = runtimeManagementConfig(config.runtimeManagement ?? provider.runtimeManagement);
    if (runtimeManagement !== undefined) properties.RuntimeManagementConfig = runtimeManagement;
    if (config.snapStart) properties.SnapStart = { ApplyOn: 'PublishedVersions' };
    if (config.fileSystemConfig) properties.FileSystemConfigs = [{ Arn: config.fileSystemConfig.arn, LocalMountPath: config.fileSystemConfig.localMountPath }];
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
    const after: Record<string, Json> = {};
    if (this.fn.config.condition !== undefined) after.Condition = this.fn.config.condition;
    if (this.dependencies.length > 0) after.DependsOn = [...this.dependencies];
    return { after: Object.keys(after).length > 0 ? after : undefined };
  }
}

const UPDATE_RUNTIME_ON: Record<string, string> = { auto: 'Auto', onFunctionUpdate: 'FunctionUpdate', manual: 'Manual' };

/** `RuntimeManagementConfig`: none for `auto` (Lambda's default); `manual` names the runtime version. */
function runtimeManagementConfig(setting: RuntimeManagement | undefined): Record<string, Json> | undefined {
  if (setting === undefined) return undefined;
  const { mode = 'auto', arn } = typeof setting === 'string' ? { mode: setting, arn: undefined } : setting;
  if (mode === 'auto') return undefined;
  const config: Record<string, Json> = { UpdateRuntimeOn: UPDATE_RUNTIME_ON[mode] ?? mode };
  if (mode === 'manual' && arn !== undefined) config.RuntimeVersionArn = arn;
  return config;
}

/** `{Fn}ProvConcLambdaAlias` / `{Fn}SnapStartLambdaAlias`: an alias on the function's published version. */
class LambdaAlias extends Resource {
  readonly type = 'AWS::Lambda::Alias';
  constructor(
    scope: Construct,
    id: string,
    private readonly fn: FunctionConstruct,
    private readonly aliasLogicalId: string,
    private readonly name: string,
    private readonly provisionedConcurrency?: Record<string, Json>,
  ) {
    super(scope, id);
  }
  get logicalId() {
    return this.aliasLogicalId;
  }
  protected properties() {
    const properties: Record<string, Json> = {
      FunctionName: ref(this.fn.lambda.logicalId),
      FunctionVersion: getAtt(this.fn.version!.logicalId, 'Version'),
      Name: this.name,
    };
    if (this.provisionedConcurrency) properties.ProvisionedConcurrencyConfig = this.provisionedConcurrency;
    return properties;
  }
  protected override attributes() {
    return { after: { DependsOn: this.fn.lambda.logicalId } };
  }
}

/**
 * `{Fn}LambdaVersion{hash}`: a new version exactly when the code or the
 * configuration changes, so an unchanged redeploy leaves it alone.
 */
export class LambdaVersion extends Resource {
  readonly type = 'AWS::Lambda::Version';
  /** `retained`: kept on update (DeletionPolicy Retain), unless the version exists only for an alias. */
  constructor(scope: Construct, id: string, private readonly fn: FunctionConstruct, private readonly retained = true) {
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
    return this.retained ? { before: { DeletionPolicy: 'Retain' } } : {};
  }
}

