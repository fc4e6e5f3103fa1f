import { Construct } from 'constructs';
import * as naming from '../synth/naming';
import { lambdaQualifiedArnOutput } from '../synth/naming';
import { ConfigError } from '../errors';
import type { Json } from './model';
import { CfnOutput, CfnResource, Element, Resource, accountId, getAtt, join, partition, ref, type Fragment } from './resource';
import { LambdaVersion, type FunctionConstruct } from './function';
import type { Service } from './service';
import type { ExecutionRole } from './execution-role';

/** The managed "CachingOptimized" policy, used where the event sets no cache policy and no legacy cache settings. */
const CACHING_OPTIMIZED = '658327ea-f89d-4fab-a63d-7e88639e58f6';
/** Behavior settings of the older, policy-less way of caching; with any of them the behavior gets no cache policy. */
const LEGACY_CACHE_SETTINGS = ['ForwardedValues', 'MinTTL', 'MaxTTL', 'DefaultTTL'];
/** Lambda@Edge limits for viewer events, used unless the function sets its own. */
const EDGE_MEMORY = 128;
const EDGE_TIMEOUT = 5;

export interface EdgeAssociation {
  fn: FunctionConstruct;
  eventType: string;
  includeBody?: boolean;
  origin: Record<string, Json>;
  pathPattern?: string;
  isDefaultOrigin?: boolean;
  behavior?: Record<string, Json>;
  cachePolicy?: { name?: string; id?: Json };
  path: string;
}

interface Behavior {
  settings: Record<string, Json>;
  targetOriginId: string;
  pathPattern?: string;
  associations: Array<{ eventType: string; fn: FunctionConstruct; includeBody?: boolean; path: string }>;
}

/**
 * `provider.cloudFront.cachePolicies`: one `AWS::CloudFront::CachePolicy` each, written with or
 * without a `cloudFront` event (as v3 does: `resources` may point at them).
 */
export class CloudFrontCachePolicies extends Construct {
  readonly names: string[];

  static of(service: Service): CloudFrontCachePolicies {
    return service.shared('CloudFrontCachePolicies', (scope, id) => new CloudFrontCachePolicies(scope, id));
  }

  private constructor(service: Service, id: string) {
    super(service, id);
    const policies = (service.provider.cloudFront as { cachePolicies?: Record<string, Record<string, Json>> } | undefined)?.cachePolicies ?? {};
    this.names = Object.keys(policies);
    for (const [name, config] of Object.entries(policies)) {
      new CfnResource(this, `CachePolicy-${name}`, {
        logicalId: naming.cloudFrontCachePolicy(name),
        type: 'AWS::CloudFront::CachePolicy',
        properties: () => ({ CachePolicyConfig: { ...config, Name: naming.cloudFrontCachePolicyName(service.name, service.stage, name) } }),
      });
    }
  }
}

/**
 * `CloudFrontDistribution`: the service's one distribution, created by the first `cloudFront`
 * event. Events add origins and behaviors; each function becomes a Lambda@Edge function
 * (version, permission, limits, retained on delete). Cache policies come from
 * `provider.cloudFront.cachePolicies`.
 */
export class CloudFrontDistribution extends Construct {
  private readonly origins = new Map<string, Record<string, Json>>();
  private readonly behaviors = new Map<string, Behavior>();
  private readonly edgeFunctions = new Map<string, LambdaVersion>();
  private defaultOrigin?: { id: string; path: string };

  static of(service: Service): CloudFrontDistribution {
    return service.shared('CloudFrontDistribution', (scope, id) => new CloudFrontDistribution(scope, id));
  }

  private constructor(readonly service: Service, id: string) {
    super(service, id);
    CloudFrontCachePolicies.of(service);
    new CfnResource(this, 'Distribution', {
      logicalId: naming.cloudFrontDistribution(),
      type: 'AWS::CloudFront::Distribution',
      properties: () => ({ DistributionConfig: this.distributionConfig() }),
    });
    new CfnOutput(this, 'DistributionOutput', {
      key: naming.cloudFrontDistributionOutput(),
      description: 'CloudFront Distribution Id',
      value: ref(naming.cloudFrontDistribution()),
    });
    new CfnOutput(this, 'DomainNameOutput', {
      key: naming.cloudFrontDistributionDomainNameOutput(),
      description: 'CloudFront Distribution Domain Name',
      value: getAtt(naming.cloudFrontDistribution(), 'DomainName'),
    });
    if (service.role) allowEdgeLambda(service.role);
    this.node.addValidation({ validate: () => this.validateDefaultOrigin() });
  }

  add(association: EdgeAssociation): void {
    this.edgeFunction(association.fn);
    const originId = this.addOrigin(association.origin);
    if (association.isDefaultOrigin) {
      if (this.defaultOrigin && this.defaultOrigin.id !== originId) {
        throw new ConfigError(
          `Invalid configuration in '${association.path}.isDefaultOrigin': origin "${this.defaultOrigin.id}" is already the default (at '${this.defaultOrigin.path}'); only one origin can be`,
        );
      }
      this.defaultOrigin ??= { id: originId, path: association.path };
    }
    const key = association.pathPattern ?? '';
    let behavior = this.behaviors.get(key);
    if (!behavior) {
      behavior = {
        settings: this.behaviorSettings(association),
        targetOriginId: originId,
        pathPattern: association.pathPattern,
        associations: [],
      };
      this.behaviors.set(key, behavior);
    } else if (behavior.targetOriginId !== originId) {
      throw new ConfigError(
        `Invalid configuration in '${association.path}.origin': the ${association.pathPattern === undefined ? 'default behavior' : `behavior for "${association.pathPattern}"`} already goes to origin "${behavior.targetOriginId}" (at '${behavior.associations[0].path}'); one path pattern has one origin`,
      );
    }
    const clash = behavior.associations.find(existing => existing.eventType === association.eventType);
    if (clash) {
      throw new ConfigError(
        `Invalid configuration in '${association.path}.eventType': the ${association.pathPattern === undefined ? 'default behavior' : `behavior for "${association.pathPattern}"`} already has a ${association.eventType} function (at '${clash.path}'); the event type of a function association must be unique in the cache behavior`,
      );
    }
    behavior.associations.push({ eventType: association.eventType, fn: association.fn, includeBody: association.includeBody, path: association.path });
  }

  /** The origin's id (`s3/bucket.s3.amazonaws.com/files`), adding it on first use. */
  private addOrigin(origin: Record<string, Json>): string {
    const prefix = origin.S3OriginConfig !== undefined ? 's3' : 'custom';
    const id = typeof origin.Id === 'string' ? origin.Id : `${prefix}/${String(origin.DomainName)}${typeof origin.OriginPath === 'string' ? origin.OriginPath : ''}`;
    if (!this.origins.has(id)) this.origins.set(id, { ...origin, Id: id });
    return id;
  }

  private behaviorSettings(association: EdgeAssociation): Record<string, Json> {
    const settings: Record<string, Json> = { ViewerProtocolPolicy: 'allow-all', ...(association.behavior ?? {}) };
    const { cachePolicy } = association;
    if (cachePolicy?.id !== undefined) {
      settings.CachePolicyId = cachePolicy.id;
    } else if (cachePolicy?.name !== undefined) {
      const policies = CloudFrontCachePolicies.of(this.service).names;
      if (!policies.includes(cachePolicy.name)) {
        const known = policies;
        throw new ConfigError(
          `Invalid configuration in '${association.path}.cachePolicy.name': no cache policy named ${JSON.stringify(cachePolicy.name)} under provider.cloudFront.cachePolicies${known.length ? ` (known: ${known.join(', ')})` : ''}`,
        );
      }
      settings.CachePolicyId = ref(naming.cloudFrontCachePolicy(cachePolicy.name));
    } else if (!LEGACY_CACHE_SETTINGS.some(key => key in settings)) {
      settings.CachePolicyId = settings.CachePolicyId ?? CACHING_OPTIMIZED;
    }
    return settings;
  }

  /** Makes the function a Lambda@Edge function once: version, invoke permission, limits, retained on delete. */
  private edgeFunction(fn: FunctionConstruct): LambdaVersion {
    const existing = this.edgeFunctions.get(fn.key);
    if (existing) return existing;
    let version = fn.version;
    if (!version) {
      // CloudFront associates versions, never `$LATEST`: published even with `versionFunctions: false`.
      version = new LambdaVersion(fn, 'Version', fn);
      new QualifiedArnOutput(fn, 'QualifiedArn', fn.key, version);
    }
    applyEdgeLimits(fn);
    const published = version;
    new CfnResource(fn, 'EdgePermission', {
      logicalId: naming.lambdaAtEdgePermission(fn.key),
      type: 'AWS::Lambda::Permission',
      properties: () => ({
        FunctionName: ref(published.logicalId),
        Action: 'lambda:InvokeFunction',
        Principal: 'edgelambda.amazonaws.com',
        SourceArn: join(['', 'arn:', partition, ':cloudfront::', accountId, ':distribution/', ref(naming.cloudFrontDistribution())]),
      }),
    });
    this.edgeFunctions.set(fn.key, version);
    return version;
  }

  private validateDefaultOrigin(): string[] {
    if (this.behaviors.has('') || this.origins.size <= 1 || this.defaultOrigin) return [];
    const first = [...this.behaviors.values()][0];
    return [
      `Invalid configuration in '${first.associations[0].path}': the cloudFront events use ${this.origins.size} origins (${[...this.origins.keys()].join(', ')}) and every one sets a pathPattern; mark the origin for the default behavior with "isDefaultOrigin: true"`,
    ];
  }

  private distributionConfig(): Record<string, Json> {
    const behaviors = [...this.behaviors.values()];
    const withPath = behaviors.filter(behavior => behavior.pathPattern !== undefined);
    const explicitDefault = this.behaviors.get('');
    let defaultBehavior: Record<string, Json>;
    if (explicitDefault) {
      defaultBehavior = this.renderBehavior(explicitDefault);
    } else {
      // No event without a pathPattern: the default behavior takes the first behavior's settings, to the default origin.
      const originId = this.defaultOrigin?.id ?? [...this.origins.keys()][0];
      defaultBehavior = { ...behaviors[0].settings, TargetOriginId: originId };
    }
    const config: Record<string, Json> = {
      Comment: `${this.service.name} ${this.service.stage}`,
      Enabled: true,
      DefaultCacheBehavior: defaultBehavior,
      Origins: [...this.origins.values()],
    };
    if (withPath.length > 0) config.CacheBehaviors = withPath.map(behavior => this.renderBehavior(behavior));
    return config;
  }

  private renderBehavior(behavior: Behavior): Record<string, Json> {
    const rendered: Record<string, Json> = {
      ...behavior.settings,
      TargetOriginId: behavior.targetOriginId,
      LambdaFunctionAssociations: behavior.associations.map(association => {
        const version = this.edgeFunctions.get(association.fn.key)!;
        const entry: Record<string, Json> = { EventType: association.eventType, LambdaFunctionARN: ref(version.logicalId) };
        if (association.includeBody !== undefined) entry.IncludeBody = association.includeBody;
        return entry;
      }),
    };
    if (behavior.pathPattern !== undefined) rendered.PathPattern = behavior.pathPattern;
    return rendered;
  }
}

/** `{Fn}LambdaFunctionQualifiedArn` for a version published only for CloudFront (its id is known at synthesis). */
class QualifiedArnOutput extends Element {
  constructor(scope: Construct, id: string, private readonly functionKey: string, private readonly version: LambdaVersion) {
    super(scope, id);
  }
  toCloudFormation(): Fragment {
    return {
      Outputs: {
        [lambdaQualifiedArnOutput(this.functionKey)]: { Description: 'Current Lambda function version', Value: ref(this.version.logicalId) },
      },
    };
  }
}

/**
 * Lambda@Edge limits and lifecycle: 128 MB and 5 s unless the function sets its own (the
 * provider's defaults do not apply), and the function is retained on stack deletion because
 * CloudFront's replicas outlive it.
 * FunctionConstruct has no hook for this yet, so the function's resource is decorated.
 */
function applyEdgeLimits(fn: FunctionConstruct): void {
  const lambda = fn.lambda;
  const configurationProperties = lambda.configurationProperties.bind(lambda);
  lambda.configurationProperties = () => ({
    ...configurationProperties(),
    MemorySize: fn.config.memorySize ?? EDGE_MEMORY,
    Timeout: fn.config.timeout ?? EDGE_TIMEOUT,
  });
  decorate(lambda, resource => {
    resource.DeletionPolicy = 'Retain';
  });
}

/**
 * `IamRoleLambdaExecution` may write logs in every region (edge replicas log where they run) and
 * must also trust `edgelambda.amazonaws.com`; ExecutionRole has no hook for trust yet, so its
 * fragment is amended on the way out.
 */
function allowEdgeLambda(role: ExecutionRole): void {
  role.addStatement(
    {
      Effect: 'Allow',
      Action: ['logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:PutLogEvents', 'logs:TagResource'],
      Resource: [{ 'Fn::Sub': 'arn:${AWS::Partition}:logs:*:*:*' }],
    },
    'cloudFront',
  );
  decorate(role, resource => {
    const properties = resource.Properties as { AssumeRolePolicyDocument?: { Statement?: Array<{ Principal?: { Service?: Json[] } }> } };
    const services = properties?.AssumeRolePolicyDocument?.Statement?.[0]?.Principal?.Service;
    if (Array.isArray(services) && !services.includes('edgelambda.amazonaws.com')) services.push('edgelambda.amazonaws.com');
  });
}

/** Edits the single resource a construct returns, after it renders its fragment. */
function decorate(resource: Resource, edit: (body: Record<string, Json>) => void): void {
  const render = resource.toCloudFormation.bind(resource);
  resource.toCloudFormation = (): Fragment => {
    const fragment = render();
    const body = fragment.Resources?.[resource.logicalId];
    if (body) edit(body);
    return fragment;
  };
}
