import { Construct } from 'constructs';
import * as t from '../../config/typanion';
import * as naming from '../../synth/naming';
import { ConfigError, invalid } from '../../errors';
import type { Json } from '../model';
import { CfnResource, ref } from '../resource';
import type { FunctionConstruct } from '../function';
import { AlbListeners, AlbPermissions, AlbTargetGroup } from '../alb-target-group';
import { asList, expecting, isEventObject, isIntegerIn, isOneOrMany, isRef, inDepth, isEither, validateEvent } from './event-schema';

/** `arn:aws:elasticloadbalancing:…:listener/app/<name>/<load balancer id>/<listener id>` */
const LISTENER_ARN = /^arn:aws[\w-]*:elasticloadbalancing:.+:listener\/app\/[\w-]+\/([\w-]+)\/([\w-]+)$/;

const header = t.isObject({ name: t.cascade(t.isString(), [t.hasMaxLength(40)]), values: t.isArray(t.isString()) });
const strings = (description: string) => isOneOrMany(`${description} or a list of them`, expecting(description, t.isString()));

const conditionsSchema = t.isObject({
  path: t.isOptional(strings('a path pattern')),
  host: t.isOptional(strings('a host name pattern')),
  method: t.isOptional(strings('an HTTP method')),
  header: t.isOptional(isOneOrMany('{ name, values } or a list of them', header)),
  query: t.isOptional(t.isRecord(expecting('a string', t.isOneOf([t.isString(), t.isNumber(), t.isBoolean()])))),
  ip: t.isOptional(strings('a CIDR block')),
});

const healthCheckSchema = t.isObject({
  path: t.isOptional(t.cascade(t.isString(), [t.hasMinLength(1), t.hasMaxLength(1024)])),
  intervalSeconds: t.isOptional(isIntegerIn(5, 300)),
  timeoutSeconds: t.isOptional(isIntegerIn(2, 120)),
  healthyThresholdCount: t.isOptional(isIntegerIn(2, 10)),
  unhealthyThresholdCount: t.isOptional(isIntegerIn(2, 10)),
  matcher: t.isOptional(t.isObject({ httpCode: t.isOptional(expecting('HTTP codes like "200" or "200,201"', t.isOneOf([t.isString(), t.isNumber()]))) })),
});

const albSchema = isEventObject({
  listenerArn: expecting(
    'an ALB listener ARN ("arn:aws:elasticloadbalancing:…:listener/app/<name>/<id>/<id>") or { Ref }',
    t.isOneOf([t.cascade(t.isString(), [t.matchesRegExp(LISTENER_ARN)]), isRef()]),
  ),
  priority: isIntegerIn(1, 50000),
  conditions: conditionsSchema,
  authorizer: t.isOptional(strings('an authorizer name')),
  healthCheck: t.isOptional(isEither<boolean | t.InferType<typeof healthCheckSchema>>('true, false or health check settings', [t.isBoolean(), inDepth('object', healthCheckSchema)])),
  multiValueHeaders: t.isOptional(t.isBoolean()),
  targetGroupName: t.isOptional(
    expecting('a name of 1 to 32 letters, digits and hyphens', t.cascade(t.isString(), [t.matchesRegExp(/^[a-zA-Z0-9-]{1,32}$/)])),
  ),
});

export type AlbEventConfig = t.InferType<typeof albSchema>;

/** The load balancer's id in the listener ARN, or the name of the referenced listener. */
function loadBalancerId(listenerArn: AlbEventConfig['listenerArn']): string {
  return typeof listenerArn === 'string' ? LISTENER_ARN.exec(listenerArn)![1] : listenerArn.Ref;
}

/** In the order the listener rule lists them, whatever order they are written in. */
function ruleConditions(conditions: AlbEventConfig['conditions']): Json[] {
  const result: Json[] = [];
  if (conditions.path !== undefined) result.push({ Field: 'path-pattern', Values: asList(conditions.path) });
  if (conditions.host !== undefined) result.push({ Field: 'host-header', HostHeaderConfig: { Values: asList(conditions.host) } });
  if (conditions.method !== undefined) result.push({ Field: 'http-request-method', HttpRequestMethodConfig: { Values: asList(conditions.method) } });
  for (const { name, values } of asList(conditions.header)) {
    result.push({ Field: 'http-header', HttpHeaderConfig: { HttpHeaderName: name, Values: values } });
  }
  if (conditions.query !== undefined) {
    const values = Object.entries(conditions.query).map(([Key, value]) => ({ Key, Value: String(value) }));
    result.push({ Field: 'query-string', QueryStringConfig: { Values: values } });
  }
  if (conditions.ip !== undefined) result.push({ Field: 'source-ip', SourceIpConfig: { Values: asList(conditions.ip) } });
  return result;
}

/**
 * `alb` event: a listener rule (`{Fn}AlbListenerRule{priority}`) that forwards matching
 * requests to the function's target group for that load balancer, after the named
 * Cognito / OIDC authorizers authenticate them.
 */
export class AlbEvent extends Construct {
  static readonly type = 'alb';
  static readonly description = 'Requests to an Application Load Balancer listener, matched by path, method, host, header, query or source IP';
  static readonly schema = albSchema;

  constructor(fn: FunctionConstruct, id: string, config: unknown, path: string) {
    super(fn, id);
    const event = validateEvent(albSchema, config, path);
    const conditions = ruleConditions(event.conditions);
    if (conditions.length === 0) throw invalid(`${path}.conditions`, 'at least one of path, host, method, header, query, ip', event.conditions);
    const listeners = AlbListeners.of(fn.service);
    listeners.claimPriority(fn, event.listenerArn, event.priority, path);

    const authenticate = asList(event.authorizer).map((name, index) => {
      const action = listeners.settings.authorizers.get(name);
      if (action === undefined) {
        const where = Array.isArray(event.authorizer) ? `${path}.authorizer[${index}]` : `${path}.authorizer`;
        throw new ConfigError(`Invalid configuration in '${where}': no authorizer named ${JSON.stringify(name)} under provider.alb.authorizers`);
      }
      return action(index + 1);
    });

    const permissions = AlbPermissions.of(fn);
    const targetGroup = AlbTargetGroup.for(
      fn,
      {
        loadBalancerId: loadBalancerId(event.listenerArn),
        multiValueHeaders: event.multiValueHeaders ?? false,
        targetGroupName: event.targetGroupName,
        healthCheck: event.healthCheck,
      },
      path,
    );
    permissions.invokedFrom(targetGroup);

    const forward: Record<string, Json> = { Type: 'forward', TargetGroupArn: ref(targetGroup.logicalId) };
    if (authenticate.length > 0) forward.Order = authenticate.length + 1;
    new CfnResource(this, 'ListenerRule', {
      logicalId: naming.albListenerRule(fn.key, event.priority),
      type: 'AWS::ElasticLoadBalancingV2::ListenerRule',
      properties: () => ({
        Actions: [...authenticate, forward],
        Conditions: conditions,
        ListenerArn: event.listenerArn,
        Priority: event.priority,
      }),
    });
  }
}
