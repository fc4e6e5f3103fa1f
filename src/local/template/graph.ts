import { validationError } from '../protocol/errors';
import { isIntrinsic } from '../../intrinsic';
import { subVariables } from './intrinsics';
import { PSEUDO_PARAMETERS, type Template } from './types';

/** The names a value refers to through `Ref`, `Fn::GetAtt` and `Fn::Sub` (parameters, pseudo parameters and resources alike). */
export function referencedNames(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) referencedNames(item, into);
  } else if (value !== null && typeof value === 'object') {
    if (isIntrinsic(value)) {
      const [name, argument] = Object.entries(value)[0];
      if (name === 'Ref' && typeof argument === 'string') {
        into.add(argument);
        return into;
      }
      if (name === 'Fn::GetAtt') {
        const target = typeof argument === 'string' ? argument.split('.')[0] : Array.isArray(argument) ? argument[0] : undefined;
        if (typeof target === 'string') into.add(target);
        if (Array.isArray(argument)) referencedNames(argument.slice(1), into);
        return into;
      }
      if (name === 'Fn::Sub') {
        const [text, variables] = typeof argument === 'string' ? [argument, {}] : Array.isArray(argument) ? argument : ['', {}];
        const local = new Set(Object.keys((variables as object) ?? {}));
        if (typeof text === 'string') {
          for (const variable of subVariables(text)) {
            const head = variable.startsWith('AWS::') ? variable : variable.split('.')[0];
            if (!local.has(variable)) into.add(head);
          }
        }
        referencedNames(variables, into);
        return into;
      }
    }
    for (const child of Object.values(value)) referencedNames(child, into);
  }
  return into;
}

function dependsOnList(dependsOn: unknown): string[] {
  if (dependsOn === undefined) return [];
  return Array.isArray(dependsOn) ? dependsOn.map(String) : [String(dependsOn)];
}

/** For each resource, the resources it must wait for. Throws the error CloudFormation gives for an unknown name. */
export function dependencyGraph(template: Template): Map<string, string[]> {
  const resources = template.Resources;
  const known = new Set<string>([...PSEUDO_PARAMETERS, ...Object.keys(template.Parameters ?? {})]);
  const unresolved = new Set<string>();
  const graph = new Map<string, string[]>();
  for (const [logicalId, declaration] of Object.entries(resources)) {
    const names = referencedNames(declaration.Properties);
    for (const name of dependsOnList(declaration.DependsOn)) names.add(name);
    const dependencies: string[] = [];
    for (const name of names) {
      // A resource naming itself stays in its own list, so the cycle check reports it.
      if (Object.hasOwn(resources, name)) dependencies.push(name);
      else if (!known.has(name)) unresolved.add(name);
    }
    graph.set(logicalId, dependencies);
  }
  if (unresolved.size > 0) {
    throw validationError(`Template format error: Unresolved resource dependencies [${[...unresolved].join(', ')}] in the Resources block of the template`);
  }
  const outputNames = referencedNames(Object.values(template.Outputs ?? {}).map((output) => [output.Value, output.Export]));
  const unresolvedInOutputs = [...outputNames].filter((name) => !known.has(name) && !Object.hasOwn(resources, name));
  if (unresolvedInOutputs.length > 0) {
    throw validationError(`Template format error: Unresolved resource dependencies [${unresolvedInOutputs.join(', ')}] in the Outputs block of the template`);
  }
  return graph;
}

/** Resources in an order where each comes after everything it depends on; a cycle is the error CloudFormation gives. */
export function creationOrder(graph: Map<string, string[]>): string[] {
  const remaining = new Map<string, Set<string>>();
  for (const [id, dependencies] of graph) remaining.set(id, new Set(dependencies));
  const order: string[] = [];
  while (remaining.size > 0) {
    const ready = [...remaining].filter(([, waiting]) => waiting.size === 0).map(([id]) => id);
    if (ready.length === 0) {
      throw validationError(`Circular dependency between resources: [${[...remaining.keys()].sort().join(', ')}]`);
    }
    for (const id of ready) {
      remaining.delete(id);
      order.push(id);
    }
    for (const waiting of remaining.values()) for (const id of ready) waiting.delete(id);
  }
  return order;
}
