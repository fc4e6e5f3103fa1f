import { arn, generatedName } from './names';
import type { ProviderContext, Provisioned, ResourceProvider } from './provider';

/**
 * Any type the local cloud does not emulate: it gets a physical id like the one
 * AWS would give and an `Arn`, so every template fw generates deploys.
 */
export const recordedProvider: ResourceProvider = {
  create(_properties, context): Provisioned {
    const physicalId = generatedName(context.stackName, context.logicalId);
    const [, service = 'unknown', kind = 'resource'] = context.type.split('::');
    return {
      physicalId,
      attributes: { Arn: arn(service.toLowerCase(), context.region, context.accountId, `${kind.toLowerCase()}/${physicalId}`) },
    };
  },
};

/** What `Fn::GetAtt` gives for an attribute of a recorded resource that nobody set. */
export function recordedAttribute(physicalId: string, attribute: string, context: Pick<ProviderContext, 'region' | 'accountId' | 'type'>): string {
  if (attribute.endsWith('Arn')) {
    const [, service = 'unknown'] = context.type.split('::');
    return arn(service.toLowerCase(), context.region, context.accountId, physicalId);
  }
  return physicalId;
}
