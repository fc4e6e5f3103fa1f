import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ConfigError } from '../errors';
import { byCodeUnits } from '../order';

export interface Template {
  name: string;
  /** One line, shown by `fw create --list` and the guided creation. */
  description: string;
  /** Absolute path of the template folder. */
  dir: string;
}

/** Describes a template; never copied into the new service. */
export const TEMPLATE_MANIFEST = 'template.json';

/**
 * The `templates/` folder at the root of the fw package, found from wherever this code
 * runs: compiled (dist/src/create/) or bundled (dist/fw.js).
 */
export function templatesRoot(from: string = __dirname): string {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'templates'))) return join(dir, 'templates');
    if (dirname(dir) === dir) throw new Error(`fw is installed without its templates folder (looked above ${from})`);
  }
}

/** Every template under `root`, sorted by name. */
export function listTemplates(root: string = templatesRoot()): Template[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, entry.name, TEMPLATE_MANIFEST)))
    .map((entry) => readTemplate(join(root, entry.name), entry.name))
    .sort((a, b) => byCodeUnits(a.name, b.name));
}

export function findTemplate(name: string, root: string = templatesRoot()): Template {
  const templates = listTemplates(root);
  const found = templates.find((template) => template.name === name);
  if (found === undefined) {
    throw new ConfigError(`Unknown template "${name}": expected one of ${templates.map((t) => t.name).join(', ')}`);
  }
  return found;
}

function readTemplate(dir: string, name: string): Template {
  const manifest = JSON.parse(readFileSync(join(dir, TEMPLATE_MANIFEST), 'utf8')) as { description?: unknown };
  if (typeof manifest.description !== 'string' || manifest.description.includes('\n')) {
    throw new Error(`Template ${name} needs a one-line "description" in ${TEMPLATE_MANIFEST}`);
  }
  return { name, description: manifest.description, dir };
}
