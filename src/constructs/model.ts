/**
 * The shape of the (resolved, validated) configuration as the constructs read it.
 * Only what the constructs consume is spelled out; the rest passes through untyped.
 */
export type Json = unknown;
export type Intrinsic = Record<string, Json>;
export type StringLike = string | Intrinsic;

export interface IamStatement {
  Effect: string;
  Action?: Json;
  Resource?: Json;
  [key: string]: Json;
}

export interface VpcConfig {
  securityGroupIds?: Json;
  subnetIds?: Json;
  ipv6AllowedForDualStack?: boolean;
}

export interface HttpApiProviderConfig {
  id?: StringLike;
  name?: string;
  payload?: '1.0' | '2.0';
  cors?: boolean | Record<string, Json>;
  authorizers?: Record<string, Record<string, Json>>;
  disableDefaultEndpoint?: boolean;
  metrics?: boolean;
  useProviderTags?: boolean;
  shouldStartNameWithService?: boolean;
}

export interface ApiGatewayProviderConfig {
  restApiId?: StringLike;
  restApiRootResourceId?: StringLike;
  /** `{ '/path': id }`, or the list form `[{ path, resourceId }]` v3 documents too. */
  restApiResources?: Record<string, StringLike> | Array<{ path?: string; resourceId?: StringLike }>;
  apiKeys?: Json[];
  usagePlan?: Record<string, Json> | Array<Record<string, Record<string, Json>>>;
  apiKeySourceType?: string;
  minimumCompressionSize?: number;
  description?: string;
  binaryMediaTypes?: string[];
  metrics?: boolean;
  shouldStartNameWithService?: boolean;
  disableDefaultEndpoint?: boolean;
  resourcePolicy?: Json[];
  [key: string]: Json;
}

export interface ProviderConfig {
  name?: string;
  runtime?: string;
  stage?: string;
  region?: string;
  profile?: string;
  memorySize?: number;
  timeout?: number;
  environment?: Record<string, Json>;
  tags?: Record<string, Json>;
  stackTags?: Record<string, Json>;
  stackName?: string;
  logRetentionInDays?: number;
  architecture?: string;
  tracing?: { lambda?: boolean | string; apiGateway?: boolean };
  vpc?: VpcConfig;
  iam?: {
    role?: string | Intrinsic | {
      name?: string;
      path?: string;
      statements?: IamStatement[];
      managedPolicies?: Json[];
      permissionsBoundary?: Json;
      tags?: Record<string, Json>;
    };
    deploymentRole?: string;
  };
  /** Serverless v2 spelling, still accepted. */
  iamRoleStatements?: IamStatement[];
  iamManagedPolicies?: Json[];
  role?: StringLike;
  versionFunctions?: boolean;
  deploymentPrefix?: string;
  deploymentBucket?: string | { name?: string; serverSideEncryption?: string; [key: string]: Json };
  httpApi?: HttpApiProviderConfig;
  apiGateway?: ApiGatewayProviderConfig;
  apiName?: string;
  endpointType?: string;
  vpcEndpointIds?: Json[];
  apiKeys?: Json[];
  usagePlan?: Record<string, Json>;
  logs?: { restApi?: Json; httpApi?: Json; frameworkLambda?: boolean };
  kmsKeyArn?: StringLike;
  layers?: Json[];
  logDataProtectionPolicy?: Json;
  runtimeManagement?: RuntimeManagement;
  [key: string]: Json;
}

export interface FunctionConfig {
  handler?: string;
  image?: Json;
  name?: string;
  runtime?: string;
  memorySize?: number;
  timeout?: number;
  description?: string;
  environment?: Record<string, Json>;
  tags?: Record<string, Json>;
  role?: StringLike;
  vpc?: VpcConfig;
  layers?: Json[];
  url?: boolean | { authorizer?: 'aws_iam'; cors?: boolean | Record<string, Json>; invokeMode?: string };
  reservedConcurrency?: number;
  provisionedConcurrency?: number;
  disableLogs?: boolean;
  logRetentionInDays?: number;
  destinations?: { onSuccess?: StringLike; onFailure?: StringLike };
  maximumRetryAttempts?: number;
  maximumEventAge?: number;
  onError?: StringLike;
  tracing?: boolean | string;
  architecture?: string;
  kmsKeyArn?: StringLike;
  ephemeralStorageSize?: number;
  events?: Array<Record<string, Json>>;
  package?: Record<string, Json>;
  condition?: string;
  dependsOn?: string | string[];
  versionFunction?: boolean;
  snapStart?: boolean;
  runtimeManagement?: RuntimeManagement;
  logDataProtectionPolicy?: Json;
  fileSystemConfig?: { arn: Json; localMountPath: string };
  [key: string]: Json;
}

/** `auto`, `onFunctionUpdate`, or `{ mode, arn }` (`manual` with a runtime version ARN). */
export type RuntimeManagement = string | { mode?: string; arn?: Json };

export interface ServiceConfig {
  service: string | { name: string };
  provider: ProviderConfig;
  functions?: Record<string, FunctionConfig>;
  resources?: {
    Resources?: Record<string, Record<string, Json>>;
    Outputs?: Record<string, Record<string, Json>>;
    Conditions?: Record<string, Json>;
    Mappings?: Record<string, Json>;
    Parameters?: Record<string, Json>;
    Metadata?: Record<string, Json>;
    Description?: string;
    Transform?: Json;
    extensions?: Record<string, Record<string, Json>>;
    [key: string]: Json;
  } | Array<Record<string, Json>>;
  package?: Record<string, Json>;
  custom?: Record<string, Json>;
  [key: string]: Json;
}
