import { Construct } from 'constructs';
import * as naming from '../synth/naming';
import { invalid } from '../errors';
import type { Artifacts } from '../artifacts/artifact';
import type { IamStatement, Json, ProviderConfig, ServiceConfig, StringLike } from './model';
import { LambdaLayer, type LayerConfig } from './lambda-layer';
import { DeploymentBucket, type DeploymentBucketSettings } from './deployment-bucket';
import { ExecutionRole, vpcAccessPolicyArn } from './execution-role';
import { FunctionConstruct } from './function';
import { HttpApi } from './http-api';
import { RestApi } from './rest-api';
import { CfnOutput, ref } from './resource';
import { isIntrinsic } from '../intrinsic';
import { CloudFrontCachePolicies } from './cloudfront-distribution';

export interface ServiceProps {
  /** Resolved, validated configuration. */
  config: ServiceConfig;
  stage: string;
  region: string;
  /** `serverless/{service}/{stage}/{timestamp}-{iso date}`: where this deployment's files go in the bucket. */
  artifactDirectory: string;
  /** One id per CLI run; names the REST API deployment. */
  instanceId: string;
  /** `--aws-s3-accelerate` (true) or `--no-aws-s3-accelerate` (false): the deployment bucket's transfer acceleration. */
  s3Accelerate?: boolean;
  /** Container images packaging built or resolved to digests (`src/package/images/`). */
  images?: import('./function-image').ResolvedImages;
}

/**
 * The root of the tree: the deployment bucket, the shared execution role,
 * one construct per function, and the shared APIs that events create on first use.
 */
export class Service extends Construct {
  readonly name: string;
  readonly stage: string;
  readonly region: string;
  readonly config: ServiceConfig;
  readonly provider: ProviderConfig;
  readonly artifactDirectory: string;
  readonly instanceId: string;
  /** Container images packaging built or resolved to digests. */
  readonly images?: import('./function-image').ResolvedImages;
  /** Filled by the packaging step before synthesis; read lazily by the functions. */
  readonly artifacts: Artifacts = { functions: {}, layers: {} };
  readonly role?: ExecutionRole;
  readonly functions: FunctionConstruct[] = [];
  private sharedHttpApi?: HttpApi;
  private sharedRestApi?: RestApi;

  constructor(props: ServiceProps) {
    super(undefined as unknown as Construct, '');
    const { config } = props;
    this.config = config;
    this.provider = config.provider ?? {};
    this.name = typeof config.service === 'object' ? config.service.name : config.service;
    this.stage = props.stage;
    this.region = props.region;
    this.artifactDirectory = props.artifactDirectory;
    this.instanceId = props.instanceId;
    this.images = props.images;

    // As v3: S3 Transfer Acceleration exists outside the China and GovCloud partitions only.
    const accelerate = /^(cn|us-gov)-/.test(this.region) ? undefined : props.s3Accelerate;
    if (this.deploymentBucketName === undefined) {
      const settings = this.provider.deploymentBucket;
      new DeploymentBucket(this, 'DeploymentBucket', typeof settings === 'object' && settings !== null ? (settings as DeploymentBucketSettings) : {}, accelerate);
    }
    else new CfnOutput(this, 'DeploymentBucketName', { key: naming.deploymentBucketOutput(), value: this.deploymentBucketName });
    const functions = Object.entries(config.functions ?? {});
    if (this.needsExecutionRole(functions.map(([, fn]) => fn ?? {}))) {
      this.role = this.createExecutionRole(functions.some(([, fn]) => fn?.vpc));
    }
    for (const [key, layer] of Object.entries(config.layers ?? {})) new LambdaLayer(this, key, (layer ?? {}) as LayerConfig);
    for (const [key, fn] of functions) {
      if (fn === null || typeof fn !== 'object') throw invalid(`functions.${key}`, 'an object with a handler', fn);
      this.functions.push(new FunctionConstruct(this, key, fn));
    }
    for (const fn of this.functions) fn.addEvents();
    const cloudFront = this.provider.cloudFront as { cachePolicies?: object } | undefined;
    if (cloudFront?.cachePolicies && Object.keys(cloudFront.cachePolicies).length > 0) CloudFrontCachePolicies.of(this);
  }

  get versionFunctions(): boolean {
    return this.provider.versionFunctions !== false;
  }

  get deploymentBucketName(): string | undefined {
    const bucket = this.provider.deploymentBucket;
    if (typeof bucket === 'string') return bucket;
    return bucket?.name;
  }

  /** Where artifacts are read from: the named bucket, or the one this stack creates. */
  get deploymentBucketRef(): Json {
    return this.deploymentBucketName ?? ref(naming.deploymentBucket());
  }

  /** `provider.iam.role` (or the older `provider.role`) when it names an existing role. */
  get providerRole(): StringLike | undefined {
    const role = this.provider.iam?.role;
    if (typeof role === 'string') return role;
    if (role !== undefined && isIntrinsic(role)) return role as StringLike;
    return this.provider.role;
  }

  /** Adds what can only be built once every function and event exists (the REST API deployment). */
  finish(): void {
    this.sharedRestApi?.finish();
  }

  httpApi(): HttpApi {
    this.sharedHttpApi ??= new HttpApi(this, 'HttpApi');
    return this.sharedHttpApi;
  }

  restApi(): RestApi {
    this.sharedRestApi ??= new RestApi(this, 'RestApi');
    return this.sharedRestApi;
  }

  /**
   * A construct several functions share (a bucket, a topic, a user pool, an event bus):
   * found by its id, or created once with `create`.
   */
  shared<T extends Construct>(id: string, create: (scope: Service, id: string) => T): T {
    return (this.node.tryFindChild(id) as T | undefined) ?? create(this, id);
  }

  function(key: string): FunctionConstruct | undefined {
    return this.functions.find(fn => fn.key === key);
  }

  private needsExecutionRole(functions: Array<{ role?: unknown }>): boolean {
    if (this.providerRole !== undefined) return false;
    // As the reference: a service without functions has no execution role.
    if (functions.length === 0) return false;
    return functions.some(fn => fn.role === undefined);
  }

  private createExecutionRole(anyFunctionVpc: boolean): ExecutionRole {
    const role = this.provider.iam?.role;
    const roleConfig: RoleSettings = typeof role === 'object' && role !== null && !isIntrinsic(role) ? (role as RoleSettings) : {};
    const statements: IamStatement[] = [...(roleConfig.statements ?? this.provider.iamRoleStatements ?? [])];
    const managedPolicies: Json[] = [...(roleConfig.managedPolicies ?? this.provider.iamManagedPolicies ?? [])];
    const executionRole = new ExecutionRole(this, 'Role', {
      service: this.name,
      stage: this.stage,
      name: roleConfig.name,
      path: roleConfig.path,
      statements,
      managedPolicies,
      permissionsBoundary: roleConfig.permissionsBoundary ?? roleConfig.permissionBoundary ?? this.provider.rolePermissionsBoundary,
      tags: roleConfig.tags,
    });
    if (this.provider.vpc || anyFunctionVpc) executionRole.addManagedPolicy(vpcAccessPolicyArn);
    return executionRole;
  }
}

interface RoleSettings {
  name?: string;
  path?: string;
  statements?: IamStatement[];
  managedPolicies?: Json[];
  permissionsBoundary?: Json;
  permissionBoundary?: Json;
  tags?: Record<string, Json>;
}
