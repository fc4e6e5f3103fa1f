import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { extname, isAbsolute, relative, resolve } from 'node:path';
import { importModule } from '../../config/module';
import { parseJson } from '../../formats/json';
import { parseYaml } from '../../formats/yaml';
import { plainConfig } from '../../formats/plain-data';
import { readConfigText } from '../../config/read-file';
import { settleConfig } from '../../config/settle';
import { ConfigError } from '../../errors';
import { addressPath, dig, type Outcome, type Source, type SourceHelpers } from '../source';

const SCRIPTS = new Set(['.js', '.cjs', '.mjs', '.ts', '.mts', '.cts']);

/**
 * `${file(./config.yml):some.path}`: YAML, JSON, or a JS/TS module whose export
 * (or the property at the address) may be a function, called with
 * `{ options, resolveVariable, resolveConfigurationProperty }`. Any other file
 * is its text. A missing file or address has no value (a fallback applies).
 */
export const file: Source = async (ref, helpers) => {
  const given = ref.params[0];
  if (!given) throw new ConfigError('file() needs a path: ${file(./config.yml)}');
  const serviceDir = helpers.context.serviceDir;
  const path = given.startsWith('~/') ? resolve(homedir(), given.slice(2)) : isAbsolute(given) ? given : resolve(serviceDir, given);
  if (!existsSync(path)) return { missing: `points to a file that does not exist (${relative(serviceDir, path) || path})` };
  const shown = isAbsolute(given) || given.startsWith('~/') ? given : relative(serviceDir, path) || path;
  const extension = extname(path).toLowerCase();
  let content: unknown;
  if (extension === '.yml' || extension === '.yaml') content = parseYaml(readConfigText(path, shown), shown);
  else if (extension === '.json') content = parseJson(readConfigText(path, shown), shown);
  else if (SCRIPTS.has(extension)) {
    content = await callIfFunction(await settleConfig(importModule(path), shown), helpers, shown);
  } else content = readConfigText(path, shown);
  return pick(plainConfig(content, shown), ref.address, shown, helpers);
};

async function pick(content: unknown, address: string | undefined, shown: string, helpers: SourceHelpers): Promise<Outcome> {
  if (address === undefined || address === '') return { value: withoutFunctions(content) };
  let value = dig(content, addressPath(address));
  value = plainConfig(await callIfFunction(value, helpers, shown), shown);
  if (value === undefined) return { missing: `has no value at "${address}" in ${shown}` };
  return { value: withoutFunctions(value) };
}

async function callIfFunction(value: unknown, helpers: SourceHelpers, shown: string): Promise<unknown> {
  if (typeof value !== 'function') return value;
  return settleConfig((value as (api: unknown) => unknown)({
    options: { ...helpers.context.options },
    resolveVariable: (text: string) => helpers.resolveVariable(text),
    resolveConfigurationProperty: async (path: string[]) => {
      const outcome = await helpers.self(path.map(String));
      return 'value' in outcome ? outcome.value : undefined;
    },
  }), shown);
}

/** Functions left in an exported object are not configuration (the reference drops them too). */
function withoutFunctions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutFunctions);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const copy: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) if (typeof child !== 'function') copy[key] = withoutFunctions(child);
    return copy;
  }
  return value;
}
