import { Construct } from 'constructs';
import * as naming from '../synth/naming';
import { ConfigError } from '../errors';
import type { Json } from './model';
import { CfnResource, ref } from './resource';
import type { FunctionConstruct } from './function';
import type { Service } from './service';
import { parseProviderAlb, type AlbProviderSettings } from './alb-authorizers';

/** Health check settings as written under an `alb` event (`true`, `false` or the advanced object). */
export interface AlbHealthCheck {
  path?: string;
  intervalSeconds?: number;
  timeoutSeconds?: number;
  healthyThresholdCount?: number;
  unhealthyThresholdCount?: number;
  matcher?: { httpCode?: string | number };
}

export interface TargetGroupSettings {
  loadBalancerId: string;
  multiValueHeaders: boolean;
  targetGroupName?: string;
  healthCheck?: boolean | AlbHealthCheck;
}

/**
 * What every `alb` event of the service shares: `provider.alb` (read once), and the
 * listener priorities in use, which must be unique per listener, and per function
 * even across listeners (the rule's logical id carries only the function and priority).
 */
export class AlbListeners extends Construct {
  readonly settings: AlbProviderSettings;
  private readonly byListener = new Map<string, Map<number, string>>();
  private readonly byFunction = new Map<string, Map<number, string>>();
  private readonly clashes: string[] = [];

  static of(service: Service): AlbListeners {
    return service.shared('AlbListeners', (scope, id) => new AlbListeners(scope, id));
  }

  constructor(service: Service, id: string) {
    super(service, id);
    this.settings = parseProviderAlb(service.provider.alb);
    this.node.addValidation({ validate: () => this.clashes });
  }

  claimPriority(fn: FunctionConstruct, listenerArn: Json, priority: number, path: string): void {
    const listener = JSON.stringify(listenerArn);
    const onListener = this.byListener.get(listener) ?? new Map<number, string>();
    const inFunction = this.byFunction.get(fn.key) ?? new Map<number, string>();
    this.byListener.set(listener, onListener);
    this.byFunction.set(fn.key, inFunction);
    const sameFunction = inFunction.get(priority);
    const sameListener = onListener.get(priority);
    if (sameFunction !== undefined) {
      this.clashes.push(
        `Invalid configuration in '${path}.priority': priority ${priority} is already used by '${sameFunction}'; the alb events of one function need distinct priorities, even on different listeners`,
      );
    } else if (sameListener !== undefined) {
      this.clashes.push(`Invalid configuration in '${path}.priority': priority ${priority} is already used on this listener by '${sameListener}'`);
    }
    inFunction.set(priority, path);
    onListener.set(priority, path);
  }
}

/**
 * `{Fn}Alb[MultiValue]TargetGroup{LoadBalancerId}`: the function as the target of every
 * rule of one load balancer with one header mode. The events sharing it must agree on its
 * name and health check (the reference silently keeps the last event's).
 */
export class AlbTargetGroup extends Construct {
  readonly logicalId: string;
  private readonly firstPath: string;

  static for(fn: FunctionConstruct, settings: TargetGroupSettings, path: string): AlbTargetGroup {
    const id = `AlbTargetGroup${settings.multiValueHeaders ? 'MultiValue' : ''}${settings.loadBalancerId}`;
    const existing = fn.node.tryFindChild(id) as AlbTargetGroup | undefined;
    if (existing === undefined) return new AlbTargetGroup(fn, id, fn, settings, path);
    existing.agree(settings, path);
    return existing;
  }

  private constructor(scope: Construct, id: string, fn: FunctionConstruct, private readonly settings: TargetGroupSettings, path: string) {
    super(scope, id);
    this.firstPath = path;
    const { service } = fn;
    const { loadBalancerId, multiValueHeaders } = settings;
    this.logicalId = naming.albTargetGroup(fn.key, loadBalancerId, multiValueHeaders);
    const prefix = AlbListeners.of(service).settings.targetGroupPrefix;
    if (settings.targetGroupName !== undefined && prefix !== undefined) {
      throw new ConfigError(
        `Invalid configuration in '${path}.targetGroupName': cannot be combined with provider.alb.targetGroupPrefix ("${prefix}"); set only one of them`,
      );
    }
    const registerTarget = AlbPermissions.of(fn).registerTargetLogicalId;
    new CfnResource(this, 'Resource', {
      logicalId: this.logicalId,
      type: 'AWS::ElasticLoadBalancingV2::TargetGroup',
      properties: () => ({
        TargetType: 'lambda',
        Targets: [{ Id: fn.targetArn }],
        Name: settings.targetGroupName ?? naming.albTargetGroupName(service.name, fn.key, loadBalancerId, multiValueHeaders, service.stage, prefix),
        Tags: [{ Key: 'Name', Value: naming.albTargetGroupTag(service.name, fn.key, loadBalancerId, service.stage) }],
        TargetGroupAttributes: [{ Key: 'lambda.multi_value_headers.enabled', Value: multiValueHeaders }],
        ...healthCheckProperties(settings.healthCheck),
      }),
      dependsOn: () => fn.dependsOnTarget([registerTarget]),
    });
  }

  private agree(settings: TargetGroupSettings, path: string): void {
    const key = (s: TargetGroupSettings) => JSON.stringify([s.targetGroupName ?? null, s.healthCheck ?? false]);
    if (key(settings) !== key(this.settings)) {
      throw new ConfigError(
        `Invalid configuration in '${path}': shares the target group "${this.logicalId}" with '${this.firstPath}' but sets a different targetGroupName or healthCheck; give both events the same settings`,
      );
    }
  }
}

function healthCheckProperties(healthCheck: boolean | AlbHealthCheck | undefined): Record<string, Json> {
  if (!healthCheck) return { HealthCheckEnabled: false };
  const settings = healthCheck === true ? {} : healthCheck;
  return {
    HealthCheckEnabled: true,
    HealthCheckPath: settings.path ?? '/',
    HealthCheckIntervalSeconds: settings.intervalSeconds ?? 35,
    HealthCheckTimeoutSeconds: settings.timeoutSeconds ?? 30,
    HealthyThresholdCount: settings.healthyThresholdCount ?? 5,
    UnhealthyThresholdCount: settings.unhealthyThresholdCount ?? 5,
    Matcher: { HttpCode: String(settings.matcher?.httpCode ?? '200') },
  };
}

/**
 * A function's two load balancer permissions: one to register it as a target, one to be
 * invoked from its target group (the last one its events use, as in the reference; the
 * first permission already admits the others).
 */
export class AlbPermissions extends Construct {
  readonly registerTargetLogicalId: string;
  private invokingTargetGroup?: string;

  static of(fn: FunctionConstruct): AlbPermissions {
    return (fn.node.tryFindChild('AlbPermissions') as AlbPermissions | undefined) ?? new AlbPermissions(fn, 'AlbPermissions', fn);
  }

  private constructor(scope: Construct, id: string, fn: FunctionConstruct) {
    super(scope, id);
    this.registerTargetLogicalId = naming.albRegisterTargetPermission(fn.key);
    new CfnResource(this, 'Invoke', {
      logicalId: naming.albPermission(fn.key),
      type: 'AWS::Lambda::Permission',
      properties: () => ({
        FunctionName: fn.targetArn,
        Action: 'lambda:InvokeFunction',
        Principal: 'elasticloadbalancing.amazonaws.com',
        SourceArn: ref(this.invokingTargetGroup!),
      }),
      dependsOn: () => (fn.targetAlias === undefined ? undefined : [fn.targetAlias]),
    });
    new CfnResource(this, 'RegisterTarget', {
      logicalId: this.registerTargetLogicalId,
      type: 'AWS::Lambda::Permission',
      properties: () => ({ FunctionName: fn.targetArn, Action: 'lambda:InvokeFunction', Principal: 'elasticloadbalancing.amazonaws.com' }),
      dependsOn: () => (fn.targetAlias === undefined ? undefined : [fn.targetAlias]),
    });
  }

  invokedFrom(targetGroup: AlbTargetGroup): void {
    this.invokingTargetGroup = targetGroup.logicalId;
  }
}
