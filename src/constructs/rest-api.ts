import { Construct } from 'constructs';
import * as naming from '../synth/naming';
import { ConfigError } from '../errors';
import type { ApiGatewayProviderConfig, Json } from './model';
import { CfnOutput, CfnResource, getAtt, join, partition, ref, region } from './resource';
import type { Service } from './service';
import type { FunctionConstruct } from './function';
import { CorsPreflight, type CorsConfig } from './rest-api-cors';
import { ApiKeys } from './rest-api-keys';
import { requestValidatorResource } from './rest-api-request-validation';
import { apiGatewayCloudWatchRole } from './websockets-api';

/**
 * The service's one REST API (API Gateway v1): `ApiGatewayRestApi`, one resource per
 * path segment shared by every function, the CORS preflight methods, authorizers,
 * the deployment (which must follow every method), API keys and usage plans.
 */
export class RestApi extends Construct {
  readonly config: ApiGatewayProviderConfig;
  private readonly resources = new Map<string, string>();
  private readonly methods: string[] = [];
  private readonly methodOwners = new Map<string, string[]>();
  private readonly preflights = new Map<string, CorsPreflight>();
  private readonly permissions = new Set<string>();
  private readonly authorizers = new Map<string, { definition: Record<string, Json>; owner: string }>();
  private readonly models = new Set<string>();
  private validatorId?: string;
  readonly deploymentLogicalId: string;

  constructor(readonly service: Service, id: string) {
    super(service, id);
    this.config = service.provider.apiGateway ?? {};
    this.deploymentLogicalId = naming.restApiDeployment(service.instanceId);
    this.node.addValidation({
      validate: () =>
        [...this.methodOwners]
          .filter(([, owners]) => owners.length > 1)
          .map(([route, [first, ...others]]) => `Invalid configuration in '${others[0]}': route "${route}" is already used by '${first}'`),
    });
    const restApiLogs = service.provider.logs?.restApi;
    if (restApiLogs) {
      // API Gateway writes logs only once the account has a CloudWatch role; fw sets it unless told it is managed elsewhere.
      if (!(typeof restApiLogs === 'object' && (restApiLogs as { roleManagedExternally?: boolean }).roleManagedExternally)) {
        apiGatewayCloudWatchRole(service);
      }
      new CfnResource(this, 'LogGroup', {
        logicalId: naming.restApiLogGroup(),
        type: 'AWS::Logs::LogGroup',
        properties: () => {
          const properties: Record<string, Json> = { LogGroupName: `/aws/api-gateway/${service.name}-${service.stage}` };
          if (service.provider.logRetentionInDays !== undefined) properties.RetentionInDays = service.provider.logRetentionInDays;
          return properties;
        },
      });
    }
    if (this.config.restApiId === undefined) {
      new CfnResource(this, 'Api', {
        logicalId: naming.restApi(),
        type: 'AWS::ApiGateway::RestApi',
        properties: () => this.apiProperties(),
      });
    }
  }

  /** Parts that must come after every method: created once the whole tree is built. */
  finish(): void {
    if (this.node.tryFindChild('Deployment')) return;
    new CfnResource(this, 'Deployment', {
      logicalId: this.deploymentLogicalId,
      type: 'AWS::ApiGateway::Deployment',
      properties: () => {
        const stage = typeof this.config.stage === 'string' ? this.config.stage : this.service.stage;
        const properties: Record<string, Json> = { RestApiId: this.apiId, StageName: stage };
        if (this.config.description !== undefined) properties.Description = this.config.description;
        return properties;
      },
      dependsOn: () => [...[...this.preflights.values()].map(p => p.logicalId), ...this.methods],
    });
    new ApiKeys(this, 'ApiKeys', this);
    new CfnOutput(this, 'Endpoint', {
      key: naming.serviceEndpointOutput(),
      description: 'URL of the service endpoint',
      value: join(['https://', this.apiId, '.execute-api.', region, '.', ref('AWS::URLSuffix'), `/${this.service.stage}`]),
    });
  }

  get apiId(): Json {
    return this.config.restApiId ?? ref(naming.restApi());
  }

  private apiProperties(): Record<string, Json> {
    return restApiProperties(this.service.name, this.service.stage, this.service.provider);
  }

  /** The resource id of a path (`users/{id}`), creating one `ApiGatewayResource…` per missing segment. */
  resourceId(path: string, owner?: string): Json {
    if (path === '') return this.config.restApiRootResourceId ?? getAtt(naming.restApi(), 'RootResourceId');
    const existing = predefinedResourceId(this.config.restApiResources, path);
    // v3 looks a method's own path up among the given resources only on an existing API (and fails
    // with "Can not find API Gateway resource from path …" otherwise); a parent path it takes as given.
    if (existing !== undefined && owner !== undefined && this.config.restApiId === undefined) {
      throw new ConfigError(
        `Invalid configuration in 'provider.apiGateway.restApiResources': "/${path}" (used by '${owner}') is a resource of an existing API, which needs provider.apiGateway.restApiId`,
      );
    }
    if (existing !== undefined) return existing;
    let logicalId = this.resources.get(path);
    if (logicalId === undefined) {
      const slash = path.lastIndexOf('/');
      const parentPath = slash === -1 ? '' : path.slice(0, slash);
      const parentId = this.resourceId(parentPath);
      const id = naming.restApiResource(path);
      logicalId = id;
      this.resources.set(path, id);
      new CfnResource(this, `Resource${id}`, {
        logicalId: id,
        type: 'AWS::ApiGateway::Resource',
        properties: () => ({ ParentId: parentId, PathPart: path.slice(slash + 1), RestApiId: this.apiId }),
      });
    }
    return ref(logicalId);
  }

  /** Records a method; two events on one method and path are reported together at validation. */
  addMethod(logicalId: string, route: string, owner: string): void {
    const owners = this.methodOwners.get(route) ?? [];
    owners.push(owner);
    this.methodOwners.set(route, owners);
    if (!this.methods.includes(logicalId)) this.methods.push(logicalId);
  }

  addCors(path: string, method: string, cors: CorsConfig): void {
    let preflight = this.preflights.get(path);
    if (!preflight) {
      preflight = new CorsPreflight(this, `Cors${naming.restApiResource(path)}`, this, path);
      this.preflights.set(path, preflight);
    }
    preflight.add(method, cors);
  }

  /** The API's one request validator, created on first use. */
  requestValidator(): string {
    if (this.validatorId === undefined) {
      this.validatorId = naming.restApiRequestValidator(this.service.name);
      requestValidatorResource(this, this.validatorId);
    }
    return this.validatorId;
  }

  /** A request model by logical id, created once however many methods use it. */
  model(logicalId: string, properties: () => Record<string, Json>): string {
    if (!this.models.has(logicalId)) {
      this.models.add(logicalId);
      const props = properties();
      new CfnResource(this, `Model${logicalId}`, { logicalId, type: 'AWS::ApiGateway::Model', properties: () => props });
    }
    return logicalId;
  }

  /** The invoke permission a function needs once, however many methods point at it. */
  permissionFor(fn: FunctionConstruct, { forAuthorizer = false } = {}): string {
    const logicalId = naming.restApiPermission(fn.key);
    if (!this.permissions.has(logicalId)) {
      this.permissions.add(logicalId);
      // With provisioned concurrency v3 names the alias: by Ref for an authorizer, as `{arn}:provisioned` (and waits for it) for an integration.
      const alias = fn.targetAlias;
      new CfnResource(fn, 'ApiGatewayPermission', {
        logicalId,
        type: 'AWS::Lambda::Permission',
        properties: () => ({
          FunctionName: alias !== undefined && forAuthorizer ? ref(alias) : fn.targetArn,
          Action: 'lambda:InvokeFunction',
          Principal: 'apigateway.amazonaws.com',
          SourceArn: this.executeApiArn(),
        }),
        dependsOn: () => (forAuthorizer ? undefined : alias),
      });
    }
    return logicalId;
  }

  executeApiArn(): Json {
    return join(['arn:', partition, ':execute-api:', region, ':', ref('AWS::AccountId'), ':', this.apiId, '/*/*']);
  }

  /**
   * An authorizer by logical id, created on first use. Later uses of the same authorizer
   * may change its settings (the last one wins, as in the reference); two different
   * targets under one logical id would silently overwrite each other, so that is an error.
   */
  authorizer(logicalId: string, definition: Record<string, Json>, owner: string, extra?: () => void, dependsOn?: () => string | undefined): string {
    const target = (d: Record<string, Json>) => JSON.stringify(d.AuthorizerUri ?? d.ProviderARNs);
    const existing = this.authorizers.get(logicalId);
    if (existing !== undefined) {
      if (target(existing.definition) !== target(definition)) {
        throw new ConfigError(
          `Invalid configuration in '${owner}': this authorizer's logical id "${logicalId}" is already used by a different authorizer at '${existing.owner}'; give one of them a distinct "name"`,
        );
      }
      existing.definition = definition;
      return logicalId;
    }
    const entry = { definition, owner };
    this.authorizers.set(logicalId, entry);
    new CfnResource(this, `Authorizer${logicalId}`, {
      logicalId,
      type: 'AWS::ApiGateway::Authorizer',
      properties: () => entry.definition,
      dependsOn,
    });
    extra?.();
    return logicalId;
  }
}

/** `ApiGatewayRestApi`'s properties for a service at a stage, from `provider` (its `apiGateway`, `apiName`, `endpointType`, …). */
export function restApiProperties(serviceName: string, stage: string, provider: Service['provider']): Record<string, Json> {
  const config: ApiGatewayProviderConfig = provider.apiGateway ?? {};
  const properties: Record<string, Json> = {
    Name: provider.apiName ?? (config.shouldStartNameWithService ? `${serviceName}-${stage}` : `${stage}-${serviceName}`),
  };
  if (config.binaryMediaTypes !== undefined) properties.BinaryMediaTypes = config.binaryMediaTypes;
  if (config.minimumCompressionSize !== undefined) properties.MinimumCompressionSize = config.minimumCompressionSize;
  if (config.description !== undefined) properties.Description = config.description;
  const endpointType = String(provider.endpointType ?? 'EDGE').toUpperCase();
  const endpoint: Record<string, Json> = { Types: [endpointType] };
  // VPC endpoints belong to private APIs only; the reference leaves them out of the others.
  if (provider.vpcEndpointIds !== undefined && endpointType === 'PRIVATE') endpoint.VpcEndpointIds = provider.vpcEndpointIds;
  properties.EndpointConfiguration = endpoint;
  if (config.apiKeySourceType !== undefined) properties.ApiKeySourceType = String(config.apiKeySourceType).toUpperCase();
  properties.Policy = config.resourcePolicy && config.resourcePolicy.length > 0
    ? { Version: '2012-10-17', Statement: config.resourcePolicy.map(normalizePolicyStatement) }
    : '';
  if (config.disableDefaultEndpoint) properties.DisableExecuteApiEndpoint = true;
  return properties;
}

/** The reference writes resource policy statements in one shape: `Action` a list, a lone `Resource` unwrapped. */
function normalizePolicyStatement(statement: Json): Json {
  if (statement === null || typeof statement !== 'object' || Array.isArray(statement)) return statement;
  const result = { ...(statement as Record<string, Json>) };
  if (typeof result.Action === 'string') result.Action = [result.Action];
  if (Array.isArray(result.Resource) && result.Resource.length === 1) result.Resource = result.Resource[0];
  return result;
}

/**
 * The id `provider.apiGateway.restApiResources` gives a path (`users/{id}`, no leading slash), in
 * either of v3's forms: `{ '/users': id }` or `[{ path: /users, resourceId: id }]`.
 */
export function predefinedResourceId(resources: ApiGatewayProviderConfig['restApiResources'], path: string): Json | undefined {
  if (Array.isArray(resources)) {
    const trim = (p: unknown) => (typeof p === 'string' ? p.replace(/^\/+|\/+$/g, '') : undefined);
    return resources.find((entry) => entry !== null && typeof entry === 'object' && trim(entry.path) === path)?.resourceId as Json | undefined;
  }
  return (resources?.[`/${path}`] ?? resources?.[path]) as Json | undefined;
}
