import { functionNameOf } from '../runtime/functions';
import { createAlias, deleteAlias, updateAlias } from '../lambda/versions';
import type { ProviderContext, ResourceProvider } from './provider';

/** A stack's AWS::Lambda::Alias: an alias on the function, so invoking `name:alias` runs its version. Ref is the alias ARN. */
function functionOf(properties: Record<string, unknown>, context: ProviderContext) {
  const record = context.cloud.functions.record(functionNameOf(String(properties.FunctionName)));
  // A function of this stack is saved with the stack when the operation ends; one made by the API is saved now.
  const saved = () => {
    if (context.cloud.apiResources.find(record.type, record.physicalId)) context.cloud.apiResources.changed(record);
  };
  return { record, saved };
}

export const lambdaAliasProvider: ResourceProvider = {
  replaceOn: ['Name', 'FunctionName'],
  create(properties, context) {
    const { record, saved } = functionOf(properties, context);
    const alias = createAlias(record, properties);
    saved();
    return { physicalId: alias.AliasArn, attributes: { AliasArn: alias.AliasArn } };
  },
  update(properties, previous, context) {
    const { record, saved } = functionOf(properties, context);
    updateAlias(record, String(properties.Name), { FunctionVersion: properties.FunctionVersion, Description: properties.Description ?? '', RoutingConfig: properties.RoutingConfig ?? {} });
    saved();
    return { physicalId: previous.physicalId, attributes: previous.attributes };
  },
  delete(record, context) {
    try {
      const { record: fn, saved } = functionOf(record.properties, context);
      deleteAlias(fn, String(record.properties.Name));
      saved();
    } catch {
      // The function went first: its aliases went with it.
    }
  },
};
