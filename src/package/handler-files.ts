import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../errors';
import type { FunctionToPackage, PackageConfig } from './artifacts';

const EXTENSIONS: Array<[RegExp, string[]]> = [
  [/^nodejs/, ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.jsx', '.tsx']],
  [/^python/, ['.py']],
];

/**
 * A Node.js or Python handler whose file is not in the service folder would package, deploy and
 * fail only when invoked: stop at package time with the config path and the files looked for.
 * Not checked where fw does not build the code (a prebuilt `package.artifact`, an image).
 */
export function checkHandlerFiles(serviceDir: string, functions: FunctionToPackage[], servicePackage: PackageConfig | undefined): void {
  if (servicePackage?.artifact) return;
  for (const fn of functions) {
    if (fn.image !== undefined || fn.package?.artifact || typeof fn.handler !== 'string') continue;
    const extensions = EXTENSIONS.find(([runtime]) => runtime.test(fn.runtime))?.[1];
    const dot = fn.handler.lastIndexOf('.');
    if (!extensions || dot <= 0) continue;
    const module = fn.handler.slice(0, dot);
    const candidates = extensions.map(extension => `${module}${extension}`);
    if (candidates.some(file => existsSync(join(serviceDir, file)))) continue;
    throw new ConfigError(
      `Invalid configuration in 'functions.${fn.key}.handler': no file for handler "${fn.handler}" in the service folder (looked for ${candidates.join(', ')})`,
    );
  }
}
