import { ConfigError } from '../errors';
import { closest } from './suggest';
import { deepMerge, isPlainObject } from './merge';
import type { Template } from './template';

/** How each attribute of `resources.extensions.<id>` applies to the generated resource. */
const EXTENSION_RULES: Record<string, 'set' | 'append' | 'merge'> = {
  Condition: 'set',
  CreationPolicy: 'set',
  DeletionPolicy: 'set',
  UpdatePolicy: 'set',
  UpdateReplacePolicy: 'set',
  DependsOn: 'append',
  Metadata: 'merge',
  Properties: 'merge',
};

const TOP_LEVEL_SECTIONS = ['Conditions', 'Mappings', 'Parameters', 'Metadata', 'Rules'] as const;

type UserResources = Record<string, unknown>;

/** Applies the user's `resources` block (one object, or a list of them merged in order) to the template. */
export function applyUserResources(template: Template, resources: unknown): void {
  if (resources === undefined || resources === null) return;
  const blocks = Array.isArray(resources) ? resources : [resources];
  blocks.forEach((block, index) => {
    const path = Array.isArray(resources) ? `resources[${index}]` : 'resources';
    if (!isPlainObject(block)) throw new ConfigError(`Invalid configuration in '${path}': expected an object with Resources, Outputs or extensions, got ${JSON.stringify(block)}`);
    applyBlock(template, block, path);
  });
}

function applyBlock(template: Template, block: UserResources, path: string): void {
  const resources = block.Resources;
  if (resources !== undefined) {
    if (!isPlainObject(resources)) throw new ConfigError(`Invalid configuration in '${path}.Resources': expected an object of resources, got ${JSON.stringify(resources)}`);
    for (const [logicalId, resource] of Object.entries(resources)) {
      // A generated resource with the same logical id is merged into, as the reference does.
      template.Resources[logicalId] = deepMerge(template.Resources[logicalId], resource) as Record<string, unknown>;
    }
  }
  if (block.Outputs !== undefined) {
    if (!isPlainObject(block.Outputs)) throw new ConfigError(`Invalid configuration in '${path}.Outputs': expected an object of outputs, got ${JSON.stringify(block.Outputs)}`);
    template.Outputs = deepMerge(template.Outputs ?? {}, block.Outputs) as Template['Outputs'];
  }
  for (const section of TOP_LEVEL_SECTIONS) {
    const value = block[section];
    if (value === undefined) continue;
    (template as unknown as Record<string, unknown>)[section] = deepMerge((template as unknown as Record<string, unknown>)[section] ?? {}, value);
  }
  if (typeof block.Description === 'string') template.Description = block.Description;
  // The reference writes Transform as a list, even when given one macro.
  if (block.Transform !== undefined) (template as unknown as Record<string, unknown>).Transform = typeof block.Transform === 'string' ? [block.Transform] : block.Transform;
  if (block.extensions !== undefined) applyExtensions(template, block.extensions, `${path}.extensions`);
}

function applyExtensions(template: Template, extensions: unknown, path: string): void {
  if (!isPlainObject(extensions)) throw new ConfigError(`Invalid configuration in '${path}': expected an object keyed by logical id, got ${JSON.stringify(extensions)}`);
  for (const [logicalId, extension] of Object.entries(extensions)) {
    const at = `${path}.${logicalId}`;
    const resource = template.Resources[logicalId];
    if (resource === undefined) {
      const suggestion = closest(logicalId, Object.keys(template.Resources));
      throw new ConfigError(
        `Invalid configuration in '${at}': the template has no resource "${logicalId}" to extend${suggestion ? ` (did you mean "${suggestion}"?)` : ''}`,
      );
    }
    if (!isPlainObject(extension)) throw new ConfigError(`Invalid configuration in '${at}': expected an object of attributes, got ${JSON.stringify(extension)}`);
    for (const [attribute, value] of Object.entries(extension)) {
      const rule = EXTENSION_RULES[attribute];
      if (rule === undefined) {
        throw new ConfigError(
          `Invalid configuration in '${at}.${attribute}': cannot extend the "${attribute}" attribute; an extension may set ${Object.keys(EXTENSION_RULES).sort().join(', ')}`,
        );
      }
      if (rule === 'set') resource[attribute] = value;
      else if (rule === 'append') {
        const current = resource.DependsOn === undefined ? [] : Array.isArray(resource.DependsOn) ? resource.DependsOn : [resource.DependsOn];
        resource.DependsOn = [...current, ...(Array.isArray(value) ? value : [value])];
      } else {
        if (!isPlainObject(value)) throw new ConfigError(`Invalid configuration in '${at}.${attribute}': expected an object, got ${JSON.stringify(value)}`);
        resource[attribute] = { ...(isPlainObject(resource[attribute]) ? resource[attribute] : {}), ...value };
      }
    }
  }
}
