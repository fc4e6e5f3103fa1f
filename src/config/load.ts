import { readFileSync } from 'node:fs';
import { extname, relative } from 'node:path';
import { ConfigError } from '../errors';
import { parseYaml } from './yaml';
import type { ServiceFile } from './find';

/** Reads the service file into its raw (unresolved) configuration object. */
export async function loadRawConfig(file: ServiceFile): Promise<Record<string, unknown>> {
  const shown = relative(process.cwd(), file.path) || file.path;
  const text = readFileSync(file.path, 'utf8');
  let raw: unknown;
  switch (extname(file.path)) {
    case '.yml':
    case '.yaml':
      raw = parseYaml(text, shown);
      break;
    case '.json':
      try {
        raw = JSON.parse(text);
      } catch (error) {
        throw new ConfigError(`Cannot parse ${shown}: ${(error as Error).message}`);
      }
      break;
    default:
      throw new ConfigError(`Cannot load ${shown}: this file type is not supported yet`);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ConfigError(`Invalid configuration in ${shown}: expected an object at the top level, got ${Array.isArray(raw) ? 'a list' : JSON.stringify(raw)}`);
  }
  return raw as Record<string, unknown>;
}
