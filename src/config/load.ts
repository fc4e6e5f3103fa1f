import { extname, relative } from 'node:path';
import { ConfigError, show } from '../errors';
import { parseJson } from '../formats/json';
import { asConfigError, importModule } from './module';
import { parseYaml } from '../formats/yaml';
import { plainConfig } from '../formats/plain-data';
import { readServiceFileText } from './read-file';
import { settleConfig } from './settle';
import type { ServiceFile } from './find';

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
