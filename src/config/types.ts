/**
 * The shape of a service file (fw.yml, fw.ts, serverless.yml …), as the user
 * writes it. Published from the package so `fw.ts` gets completion:
 *
 *   import { defineConfig } from 'fw-deploy';
 *   export default defineConfig({ service: 'app', provider: { name: 'aws' } });
 *
 * Every string may also be a `${…}` variable, and wherever CloudFormation
 * takes a value an intrinsic function (`{ Ref }`, `{ 'Fn::GetAtt' }`, …) works.
 */

/** `{ Ref: 'X' }`, `{ 'Fn::GetAtt': ['X', 'Arn'] }`, `{ 'Fn::Sub': '…' }`, … */
export type Intrinsic = { Ref: string } | { [fn: `Fn::${string}`]: unknown } | { Condition: string };
export type Str = string | Intrinsic;
export type Num = number | Intrinsic;

export interface ServiceConfig {
  service: string;
  /** A semver range; a range for Serverless Framework v3 ('3', '^3') is accepted as is. */
  frameworkVersion?: string;
  configValidationMode?: 'warn' | 'error' | 'off';
  useDotenv?: boolean;
  /** fw.ts / fw.js only: adds constructs to the tree before synthesis (see `withConstructs`). */
  addConstructs?: (service: import('../constructs/service').Service, context: { stage: string; region: string }) => void | Promise<void>;
  deprecationNotificationMode?: 'error' | 'warn' | 'warn:summary';
  disabledDeprecations?: '*' | string[];
  /** Stage parameters for `${param:…}`: `default` and one entry per stage. */
  params?: Record<string, Record<string, unknown>>;
  provider: ProviderConfig;
  functions?: Record<string, FunctionConfig>;
  layers?: Record<string, LayerConfig>;
  package?: PackageConfig;
  plugins?: string[] | { localPath?: string; modules: string[] };
  custom?: Record<string, unknown>;
  resources?: ResourcesConfig | ResourcesConfig[];
  org?: string;
  app?: string;
  outputs?: Record<string, unknown>;
}

export interface ProviderConfig {
  name: 'aws';
  stage?: string;
  region?: string;
  profile?: string;
  runtime?: string;
  runtimeManagement?: 'auto' | 'onFunctionUpdate' | { mode: string; arn?: string };
  memorySize?: Num;
  timeout?: Num;
  architecture?: 'x86_64' | 'arm64';
  environment?: Record<string, Str>;
  tags?: Record<string, Str>;
  stackTags?: Record<string, Str>;
  stackName?: string;
  stackParameters?: Array<{ ParameterKey: string; ParameterValue: string }>;
  stackPolicy?: unknown[];
  deploymentMethod?: 'changesets' | 'direct';
  /** Nested stacks: `auto` (default: only beyond CloudFormation's limits), `per-function`, `per-type`, `off`. */
  stackSplitting?: 'auto' | 'per-function' | 'per-type' | 'off' | boolean | { mode?: 'auto' | 'per-function' | 'per-type' | 'off'; resources?: 'root' | 'nested' };
  deploymentPrefix?: string;
  deploymentBucket?: string | {
    name?: string;
    maxPreviousDeploymentArtifacts?: number;
    blockPublicAccess?: boolean;
    skipPolicySetup?: boolean;
    versioning?: boolean;
    serverSideEncryption?: string;
    sseKMSKeyId?: string;
    tags?: Record<string, string>;
  };
  notificationArns?: Str[];
  disableRollback?: boolean;
  rollbackConfiguration?: Record<string, unknown>;
  tracing?: { apiGateway?: boolean; lambda?: boolean | 'Active' | 'PassThrough' };
  logRetentionInDays?: Num;
  logDataProtectionPolicy?: Record<string, unknown>;
  kmsKeyArn?: Str;
  lambdaHashingVersion?: string | number;
  versionFunctions?: boolean;
  iam?: {
    role?: Str | {
      name?: string;
      path?: string;
      statements?: IamStatement[];
      managedPolicies?: Str[];
      permissionsBoundary?: Str;
      tags?: Record<string, string>;
    };
    deploymentRole?: string;
  };
  /** Deprecated in v3 in favour of iam.role.statements. */
  iamRoleStatements?: IamStatement[];
  iamManagedPolicies?: Str[];
  role?: Str;
  cfnRole?: Str;
  vpc?: VpcConfig;
  httpApi?: {
    id?: Str;
    name?: string;
    payload?: '1.0' | '2.0';
    disableDefaultEndpoint?: boolean;
    metrics?: boolean;
    cors?: boolean | Record<string, unknown>;
    authorizers?: Record<string, Record<string, unknown>>;
  };
  apiGateway?: Record<string, unknown>;
  apiName?: string;
  endpointType?: string;
  websocketsApiName?: string;
  websocketsApiRouteSelectionExpression?: string;
  websocketsDescription?: string;
  alb?: Record<string, unknown>;
  ecr?: Record<string, unknown>;
  cloudFront?: Record<string, unknown>;
  eventBridge?: Record<string, unknown>;
  logs?: Record<string, unknown>;
  s3?: Record<string, Record<string, unknown>>;
  layers?: Str[];
  websocket?: Record<string, unknown>;
  kinesis?: Record<string, unknown>;
  vpcEndpointIds?: Str[];
  rolePermissionsBoundary?: Str;
}

export interface IamStatement {
  Effect: 'Allow' | 'Deny';
  Sid?: string;
  Action?: string | string[];
  NotAction?: string | string[];
  Resource?: unknown;
  NotResource?: unknown;
  Condition?: Record<string, unknown>;
  Principal?: unknown;
}

export interface VpcConfig {
  securityGroupIds: Str[] | Intrinsic;
  subnetIds: Str[] | Intrinsic;
}

export interface FunctionConfig {
  handler?: string;
  image?: string | Record<string, unknown>;
  name?: string;
  description?: string;
  runtime?: string;
  runtimeManagement?: ProviderConfig['runtimeManagement'];
  memorySize?: Num;
  timeout?: Num;
  ephemeralStorageSize?: Num;
  architecture?: 'x86_64' | 'arm64';
  environment?: Record<string, Str>;
  tags?: Record<string, Str>;
  role?: Str;
  onError?: Str;
  kmsKeyArn?: Str;
  snapStart?: boolean;
  disableLogs?: boolean;
  logRetentionInDays?: Num;
  logDataProtectionPolicy?: Record<string, unknown>;
  reservedConcurrency?: Num;
  provisionedConcurrency?: Num;
  vpc?: VpcConfig;
  url?: boolean | { authorizer?: 'aws_iam'; cors?: boolean | Record<string, unknown>; invokeMode?: 'BUFFERED' | 'RESPONSE_STREAM' };
  package?: PackageConfig;
  layers?: Str[];
  tracing?: boolean | 'Active' | 'PassThrough';
  condition?: string;
  dependsOn?: string | string[];
  destinations?: { onSuccess?: Str | Record<string, unknown>; onFailure?: Str | Record<string, unknown> };
  fileSystemConfig?: { arn: Str; localMountPath: string };
  maximumEventAge?: number;
  maximumRetryAttempts?: number;
  versionFunction?: boolean;
  /** Per-function HTTP API settings. */
  httpApi?: { payload?: '1.0' | '2.0' };
  events?: FunctionEvent[];
}

/** One key naming the event type (`httpApi`, `http`, `schedule`, `sqs`, `s3`, `sns`, …) and its settings. */
export type FunctionEvent = { [type: string]: unknown };

export interface PackageConfig {
  patterns?: string[];
  include?: string[];
  exclude?: string[];
  individually?: boolean;
  artifact?: string;
  excludeDevDependencies?: boolean;
  path?: string;
}

export interface LayerConfig {
  path?: string;
  name?: string;
  description?: string;
  compatibleRuntimes?: string[];
  compatibleArchitectures?: Array<'x86_64' | 'arm64'>;
  licenseInfo?: string;
  allowedAccounts?: string[];
  retain?: boolean;
  package?: PackageConfig;
}

export interface ResourcesConfig {
  Resources?: Record<string, { Type: string; Properties?: Record<string, unknown>; [key: string]: unknown }>;
  Outputs?: Record<string, Record<string, unknown>>;
  Conditions?: Record<string, unknown>;
  Mappings?: Record<string, unknown>;
  Parameters?: Record<string, unknown>;
  Metadata?: Record<string, unknown>;
  Description?: string;
  AWSTemplateFormatVersion?: string;
  Transform?: unknown;
  /** Properties merged into the generated resources, by logical id. */
  extensions?: Record<string, Record<string, unknown>>;
}

/** What a JS/TS service file may export: the configuration, a promise of it, or a function returning either. */
export type ServiceConfigExport =
  | ServiceConfig
  | Promise<ServiceConfig>
  | ServiceConfigFunction;

export type ServiceConfigFunction = (api: { options: Record<string, unknown> }) => ServiceConfig | Promise<ServiceConfig>;

/** Identity at run time; gives a `fw.ts` editor completion and type checks (misspelled keys included). */
export function defineConfig(config: ServiceConfig): ServiceConfig;
export function defineConfig(config: Promise<ServiceConfig>): Promise<ServiceConfig>;
export function defineConfig(config: ServiceConfigFunction): ServiceConfigFunction;
export function defineConfig(config: ServiceConfigExport): ServiceConfigExport {
  return config;
}
