import { randomBytes } from 'node:crypto';
import { arn, generatedName } from './names';
import type { ProviderContext, ResourceProvider } from './provider';

/*
 * Elastic Load Balancing v2 resources. Each `Ref` is the resource's ARN, as on AWS; the local
 * cloud serves every listener that a stack has, or that a stack's listener rules name, on a port
 * of its own (`alb/load-balancers.ts`).
 */

const hex16 = () => randomBytes(8).toString('hex');
const elbArn = (context: ProviderContext, resource: string) => arn('elasticloadbalancing', context.region, context.accountId, resource);

/** `app/<name>/<id>` of a load balancer ARN, what listener and rule ARNs are built on. */
const loadBalancerPart = (loadBalancerArn: string) => /:loadbalancer\/(.+)$/.exec(loadBalancerArn)?.[1] ?? `app/external/${hex16()}`;

export const loadBalancerProvider: ResourceProvider = {
  replaceOn: ['Name', 'Scheme', 'Type'],
  create(properties, context) {
    const name = typeof properties.Name === 'string' ? properties.Name : generatedName(context.stackName, context.logicalId, 32).replace(/[^A-Za-z0-9-]/g, '-');
    const kind = properties.Type === 'network' ? 'net' : properties.Type === 'gateway' ? 'gwy' : 'app';
    const id = hex16();
    const loadBalancerArn = elbArn(context, `loadbalancer/${kind}/${name}/${id}`);
    return {
      physicalId: loadBalancerArn,
      attributes: {
        LoadBalancerArn: loadBalancerArn,
        LoadBalancerFullName: `${kind}/${name}/${id}`,
        LoadBalancerName: name,
        DNSName: `${name}-${parseInt(id.slice(0, 8), 16)}.${context.region}.elb.amazonaws.com`,
        CanonicalHostedZoneID: 'Z35SXDOTRQ7X7K',
        SecurityGroups: (properties.SecurityGroups as unknown[] | undefined) ?? [],
      },
    };
  },
};

export const listenerProvider: ResourceProvider = {
  replaceOn: ['LoadBalancerArn'],
  create(properties, context) {
    const listenerArn = elbArn(context, `listener/${loadBalancerPart(String(properties.LoadBalancerArn))}/${hex16()}`);
    return { physicalId: listenerArn, attributes: { ListenerArn: listenerArn } };
  },
};

export const listenerRuleProvider: ResourceProvider = {
  replaceOn: ['ListenerArn'],
  create(properties, context) {
    const listenerPart = /:listener\/(.+)$/.exec(String(properties.ListenerArn))?.[1] ?? `app/external/${hex16()}/${hex16()}`;
    const ruleArn = elbArn(context, `listener-rule/${listenerPart}/${hex16()}`);
    return { physicalId: ruleArn, attributes: { RuleArn: ruleArn, IsDefault: false } };
  },
};

export const targetGroupProvider: ResourceProvider = {
  replaceOn: ['Name', 'Port', 'Protocol', 'ProtocolVersion', 'TargetType', 'VpcId', 'IpAddressType'],
  create(properties, context) {
    const name = typeof properties.Name === 'string' ? properties.Name : generatedName(context.stackName, context.logicalId, 32).replace(/[^A-Za-z0-9-]/g, '-');
    const id = hex16();
    const targetGroupArn = elbArn(context, `targetgroup/${name}/${id}`);
    return {
      physicalId: targetGroupArn,
      attributes: { TargetGroupArn: targetGroupArn, TargetGroupFullName: `targetgroup/${name}/${id}`, TargetGroupName: name, LoadBalancerArns: [] },
    };
  },
};
