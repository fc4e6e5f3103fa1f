import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './paths';

type Namespace = Record<string, unknown>;

/**
 * `import()` for ES modules: service files, plugins, handlers. The bundled CLI runs from V8's
 * code cache (see bin/fw.js), where code cannot call `import()` itself, so a two-line module
 * written beside the bundle does it; the compiled tree (dist/src) imports directly.
 */
export function importEsm(url: string): Promise<Namespace> {
  const helper = join(packageRoot, 'dist', 'import-module.js');
  if (existsSync(helper)) return (require(helper) as (specifier: string) => Promise<Namespace>)(url);
  return import(url) as Promise<Namespace>;
}
