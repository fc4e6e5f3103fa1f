import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { ConfigError, show } from '../errors';

/** One entry of `plugins:`, and the file it resolved to. */
export interface PluginSpec {
  /** As written in `plugins:`. */
  name: string;
  /** The module file to load. */
  file: string;
}

/**
 * `plugins:` as a list of names, from its two forms: a list, or `{ localPath, modules }`.
 * Only literal names: plugins load before variables are resolved (they may add variable sources).
 */
export function pluginNames(raw: Record<string, unknown>, shownFile: string): { names: string[]; localPath?: string } {
  const plugins = raw.plugins;
  if (plugins === undefined || plugins === null) return { names: [] };
  let names: unknown;
  let localPath: unknown;
  if (Array.isArray(plugins)) names = plugins;
  else if (typeof plugins === 'object') ({ modules: names, localPath } = plugins as { modules?: unknown; localPath?: unknown });
  if (!Array.isArray(names) || names.some((name) => typeof name !== 'string' || name === '')) {
    throw new ConfigError(`Invalid configuration in '${shownFile}' at 'plugins': expected a list of plugin names or { localPath, modules }, got ${show(plugins)}`);
  }
  for (const name of names as string[]) {
    if (name.includes('${')) throw new ConfigError(`Invalid configuration at 'plugins': ${show(name)} uses a variable; plugins must be named literally (they load before variables are resolved)`);
  }
  return { names: names as string[], localPath: typeof localPath === 'string' ? localPath : undefined };
}

const EXTENSIONS = ['', '.js', '.ts', '.mjs', '.cjs', '.mts', '.cts'];

/**
 * Where a plugin's code is: a local path (`./plugins/audit`, with or without extension, or a
 * folder with package.json/index), a module in `localPath` (default `.serverless_plugins`, as
 * Serverless v3), or an npm package resolved from the service folder's `node_modules`.
 */
export function resolvePlugin(name: string, serviceDir: string, localPath?: string): PluginSpec {
  const local = name.startsWith('.') || isAbsolute(name);
  if (local) {
    const base = resolve(serviceDir, name);
    const file = resolveLocal(base);
    if (file) return { name, file };
    throw new ConfigError(
      `Plugin "${name}" not found: looked for ${shown(base)} with ${EXTENSIONS.filter(Boolean).join(', ')} or as a folder with package.json or index.js/index.ts`,
    );
  }
  const pluginFolder = resolve(serviceDir, localPath ?? '.serverless_plugins');
  const inLocalPath = resolveLocal(join(pluginFolder, name));
  if (inLocalPath) return { name, file: inLocalPath };
  try {
    return { name, file: createRequire(join(serviceDir, 'package.json')).resolve(name) };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== 'MODULE_NOT_FOUND') throw new ConfigError(`Plugin "${name}" cannot be resolved: ${(error as Error).message}`);
    throw new ConfigError(
      `Plugin "${name}" not found: looked in ${shown(join(serviceDir, 'node_modules', name))} (and the node_modules of the folders above) and in ${shown(join(pluginFolder, name))}; install it with "npm install --save-dev ${name}"`,
    );
  }
}

function resolveLocal(base: string): string | undefined {
  for (const extension of EXTENSIONS) {
    const file = base + extension;
    if (existsSync(file) && statSync(file).isFile()) return file;
  }
  if (!existsSync(base) || !statSync(base).isDirectory()) return undefined;
  try {
    const main = (JSON.parse(readFileSync(join(base, 'package.json'), 'utf8')) as { main?: string }).main;
    if (main) return resolveLocal(resolve(base, main));
  } catch {
    // no package.json: an index file
  }
  for (const index of ['index.js', 'index.ts', 'index.mjs', 'index.cjs']) {
    if (existsSync(join(base, index))) return join(base, index);
  }
  return undefined;
}

function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') ? rel : path;
}
