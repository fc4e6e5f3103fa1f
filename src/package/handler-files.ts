import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FunctionToPackage, PackageConfig } from './artifacts';

const EXTENSIONS: Array<[RegExp, string[]]> = [
  [/^nodejs/, ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.jsx', '.tsx']],
  [/^python/, ['.py']],
];

/**
 * A Node.js or Python handler whose file is not in the service folder packages, deploys and fails
 * only when invoked: said at package time with the config path and the files looked for, as a
 * warning, since Serverless v3 packages such a service (its build step may write the file later,
 * as a Kotlin/JS or compiled service's does). Not checked where fw does not build the code
 * (a prebuilt `package.artifact`, an image). Returns the warnings.
 */
export function missingHandlerFiles(serviceDir: string, functions: FunctionToPackage[], servicePackage: PackageConfig | undefined): string[] {
  const warnings: string[] = [];
  if (servicePackage?.artifact) return warnings;
  for (const fn of functions) {
    if (fn.image !== undefined || fn.package?.artifact || typeof fn.handler !== 'string') continue;
    const extensions = EXTENSIONS.find(([runtime]) => runtime.test(fn.runtime))?.[1];
    const dot = fn.handler.lastIndexOf('.');
    if (!extensions || dot <= 0) continue;
    const module = fn.handler.slice(0, dot);
    const candidates = extensions.map(extension => `${module}${extension}`);
    if (candidates.some(file => existsSync(join(serviceDir, file)))) continue;
    warnings.push(`functions.${fn.key}.handler: no file for handler "${fn.handler}" in the service folder (looked for ${candidates.join(', ')}): the function fails when invoked`);
  }
  return warnings;
}
