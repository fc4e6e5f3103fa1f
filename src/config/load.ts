import { extname, relative } from 'node:path';
import { ConfigError, show } from '../errors';
import { parseJson } from '../formats/json';
import { asConfigError, importModule } from './module';
import { parseYaml } from '../formats/yaml';
import { plainConfig } from '../formats/plain-data';
import { readServiceFileText } from './read-file';
import { settleConfig } from './settle';
import { findServiceFile, type ServiceFile } from './find';

export interface LoadOptions {
  /** CLI options, handed to a service file that exports a function. */
  options?: Record<string, unknown>;
}

/**
 * Reads the service file into its raw (unresolved) configuration object.
 * A JS/TS file exports the object (default export or `module.exports`), a
 * promise of it, or a function (sync or async) called with `{ options }`.
 */
export async function loadRawConfig(file: ServiceFile, { options = {} }: LoadOptions = {}): Promise<Record<string, unknown>> {
  const shown = relative(process.cwd(), file.path) || file.path;
  let raw: unknown;
  switch (extname(file.path)) {
    case '.yml':
    case '.yaml':
      raw = parseYaml(readServiceFileText(file.path, shown), shown);
      break;
    case '.json':
      raw = parseJson(readServiceFileText(file.path, shown), shown);
      break;
    case '.js':
    case '.cjs':
    case '.mjs':
    case '.ts':
      raw = await settleConfig(importModule(file.path), shown);
      try {
        if (typeof raw === 'function') raw = (raw as (api: { options: Record<string, unknown> }) => unknown)({ options: { ...options } });
        raw = await settleConfig(raw, shown);
      } catch (error) {
        throw asConfigError(error, file.path, shown);
      }
      break;
    default:
      throw new ConfigError(`Cannot load ${shown}: expected a .yml, .yaml, .json, .js, .cjs, .mjs or .ts file`);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ConfigError(`Invalid configuration in ${shown}: expected an object at the top level, got ${Array.isArray(raw) ? 'a list' : show(raw)}`);
  }
  return plainConfig(raw, shown) as Record<string, unknown>;
}

/** A service file and its configuration as written, loaded once and handed down the steps that follow. */
export interface LoadedSource {
  file: ServiceFile;
  raw: Record<string, unknown>;
}

/** Finds and loads the service file (`--config`, else the first of fw.yml, …, serverless.*). */
export async function loadSource(cwd: string, options: Record<string, unknown>): Promise<LoadedSource> {
  const file = findServiceFile(cwd, typeof options.config === 'string' ? options.config : undefined);
  return { file, raw: await loadRawConfig(file, { options }) };
}

/** A copy of a configuration's objects and lists (anything else, a function of an fw.ts among them, is shared). */
export function copyConfig<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copyConfig) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, copyConfig(item)])) as T;
  }
  return value;
}
