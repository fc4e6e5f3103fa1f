import { readFileSync, writeFileSync } from 'node:fs';
import { extname } from 'node:path';
import { ConfigError } from '../errors';

/** What `fw plugin install/uninstall` did to the service file's `plugins`. */
export type PluginsEdit = { changed: boolean } | { manual: string };

/**
 * Adds `name` to (or removes it from) the service file's `plugins`, as a list or as `{ modules: [...] }`.
 * YAML is edited through the `yaml` library's document, so comments, order and formatting stay; JSON is
 * rewritten with two-space indentation; a JS or TS file is code: the line to change is returned instead.
 */
export function editServicePlugins(file: string, name: string, action: 'add' | 'remove'): PluginsEdit {
  const extension = extname(file);
  if (extension === '.json') return editJson(file, name, action);
  if (extension === '.yml' || extension === '.yaml') return editYaml(file, name, action);
  return { manual: action === 'add' ? `add '${name}' to plugins in ${file}` : `remove '${name}' from plugins in ${file}` };
}

function editYaml(file: string, name: string, action: 'add' | 'remove'): PluginsEdit {
  const yaml = require('yaml') as typeof import('yaml');
  const text = readFileSync(file, 'utf8');
  // CloudFormation tags (!Ref, !GetAtt…) are kept as written: unknown tags stay on their nodes.
  const doc = yaml.parseDocument(text, { keepSourceTokens: true, uniqueKeys: false });
  if (doc.errors.length > 0) throw new ConfigError(`Cannot edit ${file}: ${doc.errors[0].message.split('\n')[0]}`);
  if (!yaml.isMap(doc.contents)) throw new ConfigError(`Cannot edit ${file}: its top level is not a mapping`);
  let plugins = doc.get('plugins', true) as unknown;
  let list: import('yaml').YAMLSeq | undefined;
  if (yaml.isMap(plugins)) {
    const modules = plugins.get('modules', true);
    if (modules !== undefined && !yaml.isSeq(modules)) throw new ConfigError(`Cannot edit plugins.modules in ${file}: expected a list`);
    list = modules as import('yaml').YAMLSeq | undefined;
    if (!list && action === 'add') {
      plugins.set('modules', doc.createNode([name]));
      writeFileSync(file, doc.toString());
      return { changed: true };
    }
  } else if (yaml.isSeq(plugins)) {
    list = plugins;
  } else if (plugins !== undefined && !(yaml.isScalar(plugins) && plugins.value === null)) {
    throw new ConfigError(`Cannot edit plugins in ${file}: expected a list or { modules: [...] }`);
  }
  if (!list) {
    if (action === 'remove') return { changed: false };
    plugins = doc.createNode([name]);
    doc.set('plugins', plugins);
    writeFileSync(file, doc.toString());
    return { changed: true };
  }
  const index = list.items.findIndex(item => (yaml.isScalar(item) ? item.value : item) === name);
  if (action === 'add' ? index !== -1 : index === -1) return { changed: false };
  if (action === 'add') list.add(doc.createNode(name));
  else list.delete(index);
  writeFileSync(file, doc.toString());
  return { changed: true };
}

function editJson(file: string, name: string, action: 'add' | 'remove'): PluginsEdit {
  let config: Record<string, unknown>;
  try {
    config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(`Cannot edit ${file}: ${(error as Error).message}`);
  }
  const plugins = config.plugins;
  const holder = Array.isArray(plugins) ? undefined : (plugins as { modules?: unknown } | undefined);
  const list = Array.isArray(plugins) ? (plugins as unknown[]) : Array.isArray(holder?.modules) ? (holder!.modules as unknown[]) : undefined;
  if (plugins !== undefined && !list && !(holder && typeof holder === 'object' && holder.modules === undefined)) {
    throw new ConfigError(`Cannot edit plugins in ${file}: expected a list or { "modules": [...] }`);
  }
  const present = list?.includes(name) ?? false;
  if (action === 'add' ? present : !present) return { changed: false };
  if (action === 'remove') list!.splice(list!.indexOf(name), 1);
  else if (list) list.push(name);
  else if (holder) holder.modules = [name];
  else config.plugins = [name];
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  return { changed: true };
}
