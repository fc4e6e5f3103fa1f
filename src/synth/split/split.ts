import { ConfigError } from '../../errors';
import type { Template, TemplateResource } from '../template';
import { functionGroups, referenceGraph } from './groups';
import { LIMITS, limitsExceeded } from './limits';
import { placeResources, ROOT, type Placement, type SplitMode } from './placement';
import { dependsOnList, referencesIn, rewriteReferences, type Reference } from './references';
import { byCodeUnits, byKey } from '../../order';

export interface SplitOptions {
  /** `auto`: split only when the template goes over a limit (or was split before). */
  mode: SplitMode;
  /** The placement of the last package or deployment: what was placed stays where it is. */
  previousPlacement?: Placement;
  /** Logical ids that stay in the root stack (the user's `resources`, the deployment bucket). */
  pinned?: Iterable<string>;
  /** Output keys that stay in the root stack (the user's `resources.Outputs`). */
  pinnedOutputs?: Iterable<string>;
  /** The `TemplateURL` value of a nested template written as `file` beside the root one. */
  templateUrl: (file: string) => unknown;
}

export interface NestedTemplate {
  /** The nested stack's logical id in the root template. */
  name: string;
  /** The file `fw package` writes it to, beside the root template. */
  file: string;
  template: Template;
  /** The template as `fw package` writes it (pretty-printed JSON). */
  text: string;
}

export interface Move {
  logicalId: string;
  from: string;
  to: string;
}

export interface SplitResult {
  root: Template;
  nested: NestedTemplate[];
  /** Every resource's stack (all `root` when the template was left whole). */
  placement: Placement;
  /** Resources that change stacks compared with the previous placement: each is replaced. */
  moves: Move[];
}

interface NestedStack {
  name: string;
  resources: Record<string, TemplateResource>;
  parameters: Record<string, { Type: 'String' }>;
  /** What the root passes for each parameter. */
  passed: Record<string, unknown>;
  outputs: Record<string, Record<string, unknown>>;
  dependsOn: Set<string>;
}

export const nestedTemplateFile = (name: string) => `cloudformation-template-nested-${name}.json`;
const clean = (text: string) => text.replace(/[^A-Za-z0-9]/g, '');
const wiringName = ({ target, attribute }: Reference) => (attribute === undefined ? target : `${target}Att${clean(attribute)}`);

/**
 * Moves resources of a synthesized template into nested stacks (`AWS::CloudFormation::Stack`)
 * so that every stack stays under CloudFormation's limits. A function's resources move together;
 * every `Ref`/`Fn::GetAtt`/`Fn::Sub` across stacks becomes a parameter of the nested stack (fed
 * by the root) or an output of the stack that holds the resource; a `DependsOn` across stacks
 * becomes a dependency on the nested stack. Pure: the same input gives the same output.
 */
export function splitTemplate(template: Template, options: SplitOptions): SplitResult {
  const previous = options.previousPlacement;
  const wasSplit = previous !== undefined && previous.mode === options.mode && Object.values(previous.resources).some(stack => stack !== ROOT);
  if (options.mode === 'auto' && !wasSplit && limitsExceeded(template).length === 0) {
    const whole = new Map(Object.keys(template.Resources).map(id => [id, ROOT]));
    return { root: template, nested: [], placement: { mode: options.mode, resources: Object.fromEntries(whole) }, moves: previous ? movesBetween(previous.resources, whole) : [] };
  }
  const pinned = new Set(options.pinned ?? []);
  const groups = functionGroups(template.Resources, pinned, Object.keys(template.Conditions ?? {}).length > 0);
  const placement = placeResources(template.Resources, groups, options.mode, previous);
  const stackOf = (id: string) => placement.get(id) ?? ROOT;

  const stacks = new Map<string, NestedStack>();
  for (const stack of new Set(placement.values())) {
    if (stack === ROOT) continue;
    if (template.Resources[stack]) throw new Error(`Cannot split the stack: the nested stack's logical id ${stack} is already a resource of the template`);
    stacks.set(stack, { name: stack, resources: {}, parameters: {}, passed: {}, outputs: {}, dependsOn: new Set() });
  }
  const rootParameters = template.Parameters ?? {};
  const whereIs = (target: string) => (target in template.Resources ? stackOf(target) : target in rootParameters ? ROOT : undefined);

  const outputOf = (stack: NestedStack, reference: Reference) => {
    const key = wiringName(reference);
    stack.outputs[key] ??= { Value: reference.attribute === undefined ? { Ref: reference.target } : { 'Fn::GetAtt': [reference.target, reference.attribute] } };
    return key;
  };
  const inRoot = (reference: Reference): unknown => {
    const where = whereIs(reference.target)!;
    if (where === ROOT) return reference.attribute === undefined ? { Ref: reference.target } : { 'Fn::GetAtt': [reference.target, reference.attribute] };
    return { 'Fn::GetAtt': [where, `Outputs.${outputOf(stacks.get(where)!, reference)}`] };
  };
  const replacerOf = (home: string) => (reference: Reference) => {
    const where = whereIs(reference.target);
    if (where === undefined || where === home) return undefined;
    if (home === ROOT) return inRoot(reference);
    const stack = stacks.get(home)!;
    const parameter = wiringName(reference);
    stack.parameters[parameter] = { Type: 'String' };
    stack.passed[parameter] ??= inRoot(reference);
    return { Ref: parameter };
  };
  const replacers = new Map<string, (reference: Reference) => unknown>();
  const replacer = (home: string) => {
    let found = replacers.get(home);
    if (!found) replacers.set(home, (found = replacerOf(home)));
    return found;
  };

  const root: Template = { ...template, Resources: {} };
  const ids = Object.keys(template.Resources);
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    const declaration = template.Resources[id];
    const home = stackOf(id);
    const properties = declaration.Properties === undefined ? undefined : rewriteReferences(declaration.Properties, replacer(home));
    const dependsOn = dependsOnList(declaration.DependsOn);
    // Most resources reference nothing outside their stack: they move as they are, uncopied.
    const resource: TemplateResource = properties === declaration.Properties && dependsOn.length === 0 ? declaration : { ...declaration };
    if (properties !== declaration.Properties) resource.Properties = properties;
    if (dependsOn.length > 0) {
      const kept = new Set<string>();
      for (const target of dependsOn) {
        const where = whereIs(target);
        if (where === undefined || where === home) kept.add(target);
        else if (home === ROOT) kept.add(where);
        else stacks.get(home)!.dependsOn.add(where === ROOT ? target : where);
      }
      if (kept.size === 0) delete resource.DependsOn;
      else resource.DependsOn = typeof declaration.DependsOn === 'string' && kept.size === 1 ? [...kept][0] : [...kept].sort();
    }
    if (home === ROOT) root.Resources[id] = resource;
    else stacks.get(home)!.resources[id] = resource;
  }

  // Outputs stay in the root stack (read through the nested stack's outputs) unless there are too many.
  const rootOutputs: Record<string, Record<string, unknown>> = {};
  const outputs = Object.entries(template.Outputs ?? {});
  const movable = (output: Record<string, unknown>) => {
    const homes = new Set(referencesIn(output.Value).map(reference => whereIs(reference.target) ?? ROOT));
    return homes.size === 1 && !homes.has(ROOT) ? [...homes][0] : undefined;
  };
  // All function versions' outputs go first, then all other movable ones: a whole kind at a time, so adding
  // a function does not move an existing output (and its export) between stacks. The user's stay.
  const pinnedOutputs = new Set(options.pinnedOutputs ?? []);
  const moved = new Map<string, string>();
  const candidates = outputs.flatMap(([key, output]) => {
    const target = output.Condition === undefined && !pinnedOutputs.has(key) ? movable(output) : undefined;
    return target ? [{ key, target, first: key.endsWith('QualifiedArn') }] : [];
  });
  for (const kind of [candidates.filter(c => c.first), candidates.filter(c => !c.first)]) {
    if (outputs.length - moved.size <= LIMITS.outputs) break;
    for (const candidate of kind) moved.set(candidate.key, candidate.target);
  }
  for (const [key, output] of outputs) {
    const target = moved.get(key);
    if (target) stacks.get(target)!.outputs[key] = output;
    else rootOutputs[key] = rewriteReferences(output, replacer(ROOT)) as Record<string, unknown>;
  }
  if (outputs.length > 0) root.Outputs = rootOutputs;

  const nested: NestedTemplate[] = [];
  for (const stack of [...stacks.values()].sort((a, b) => byCodeUnits(a.name, b.name))) {
    const file = nestedTemplateFile(stack.name);
    const child: Template = {
      AWSTemplateFormatVersion: '2010-09-09',
      Description: `${template.Description} (nested stack ${stack.name})`,
      ...(Object.keys(stack.parameters).length > 0 ? { Parameters: sortKeys(stack.parameters) } : {}),
      ...(template.Mappings ? { Mappings: template.Mappings } : {}),
      Resources: stack.resources,
      ...(Object.keys(stack.outputs).length > 0 ? { Outputs: sortKeys(stack.outputs) } : {}),
    };
    const text = JSON.stringify(child, null, 2);
    const over = limitsExceeded(child, text);
    // The configuration is too large for CloudFormation (a huge description or environment value): the user's to fix.
    if (over.length > 0) throw new ConfigError(`Nested stack ${stack.name} would still have ${over.join(', ')}: use provider.stackSplitting: per-function, or make the values in its functions smaller`);
    nested.push({ name: stack.name, file, template: child, text });
    const dependsOn = [...stack.dependsOn].filter(name => name !== stack.name).sort();
    root.Resources[stack.name] = {
      Type: 'AWS::CloudFormation::Stack',
      Properties: {
        TemplateURL: options.templateUrl(file),
        ...(Object.keys(stack.passed).length > 0 ? { Parameters: sortKeys(stack.passed) } : {}),
      },
      ...(dependsOn.length > 0 ? { DependsOn: dependsOn } : {}),
    };
  }
  const over = limitsExceeded(root);
  if (over.length > 0) throw new ConfigError(`The root stack would still have ${over.join(', ')} after moving every function's resources into nested stacks`);
  assertAcyclic(root);
  const resources: Record<string, string> = {};
  for (const id of [...placement.keys()].sort(byCodeUnits)) resources[id] = placement.get(id)!;
  return { root, nested, placement: { mode: options.mode, resources }, moves: previous ? movesBetween(previous.resources, placement) : [] };
}

function movesBetween(before: Record<string, string>, after: Map<string, string>): Move[] {
  const moves: Move[] = [];
  for (const [logicalId, to] of after) {
    const from = before[logicalId];
    if (from !== undefined && from !== to) moves.push({ logicalId, from, to });
  }
  return moves.sort((a, b) => byCodeUnits(a.logicalId, b.logicalId));
}

const sortKeys = <T>(record: Record<string, T>): Record<string, T> => Object.fromEntries(Object.entries(record).sort(byKey));

/** A nested stack that needs a root resource which itself needs that nested stack cannot be deployed: say which. */
function assertAcyclic(root: Template): void {
  const graph = referenceGraph(root.Resources);
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (id: string) => {
    if (state.get(id) === 'done') return;
    if (state.get(id) === 'open') {
      const cycle = [...path.slice(path.indexOf(id)), id];
      throw new Error(`Cannot split the stack: its resources would depend on each other across stacks (${cycle.join(' → ')})`);
    }
    state.set(id, 'open');
    path.push(id);
    for (const target of graph.get(id) ?? []) visit(target);
    path.pop();
    state.set(id, 'done');
  };
  for (const id of Object.keys(root.Resources)) visit(id);
}
