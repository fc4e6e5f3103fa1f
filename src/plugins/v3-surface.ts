import { PluginError } from './manager';
import { V3_MEMBERS } from './v3-members';

/** Names no plugin means as a v3 member: promise checks, inspection, serialization. */
const PROBES = new Set(['then', 'toJSON', 'inspect', 'constructor', 'asymmetricMatch', 'nodeType', '$$typeof']);

/**
 * One plugin's view of a v3 surface object (`serverless`, `provider`, …): what fw provides passes
 * through; a member Serverless v3 has and fw does not stops the plugin with one line naming both,
 * instead of a TypeError later; any other name is undefined, as in v3.
 */
export function surface<T extends object>(pluginName: string, target: T, kind: keyof typeof V3_MEMBERS, shown: string): T {
  const members = new Set<string>(V3_MEMBERS[kind]);
  return new Proxy(target, {
    get(object, property, receiver) {
      if (typeof property !== 'string' || PROBES.has(property) || property in object) return Reflect.get(object, property, receiver);
      if (members.has(property)) throw new PluginError(`Plugin "${pluginName}" uses ${shown}.${property}, which fw does not provide`);
      return undefined;
    },
  });
}
