import { cpSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../errors';
import { serviceNameProblem } from './names';
import { targetProblem } from './write';

/**
 * Serverless v3's `create --template-path/--template-url` and `install --url`: a service started
 * from a folder. Local folders and `file:` URLs are copied; a remote URL (https, git) needs the
 * network, which fw does not use for this: the user clones it and gives the folder.
 */

/** Not copied from a template folder: what installing or deploying it made. */
const SKIPPED = new Set(['node_modules', '.git', '.serverless']);

/** The folder a `--template-url`/`--url` names: a local path or a `file:` URL; a remote URL is refused. */
export function templateSource(url: string, cwd: string, option: string): string {
  if (url.startsWith('file:')) return fileURLToPath(url);
  if (/^(https?|git|ssh):\/\/|^git@/.test(url)) {
    throw new ConfigError(
      `${option} ${url}: downloading a template needs network access, which fw does not use for it; clone or download it yourself and pass the folder (${option} ./folder or --template-path ./folder)`,
    );
  }
  return resolve(cwd, url);
}

export interface FolderCopy {
  /** The template folder. */
  source: string;
  /** The service folder to create (absolute). */
  dir: string;
  /** The new service name; undefined keeps the template's. */
  name?: string;
  /** How the option and folder are named in messages. */
  option: string;
  shown: string;
}

/** Copies the template folder to a new service folder and renames the service; returns the files written. */
export function copyTemplateFolder({ source, dir, name, option, shown }: FolderCopy): string[] {
  if (!existsSync(source) || !statSync(source).isDirectory()) throw new ConfigError(`${option} ${source}: no such folder`);
  if (name !== undefined) {
    const problem = serviceNameProblem(name);
    if (problem) throw new ConfigError(`Invalid --name "${name}": ${problem}`);
  }
  const problem = targetProblem(dir, shown);
  if (problem) throw new ConfigError(`Cannot create the service: ${problem}`);
  const copied: string[] = [];
  cpSync(source, dir, {
    recursive: true,
    filter: (path) => {
      if (SKIPPED.has(basename(path))) return false;
      if (statSync(path).isFile()) copied.push(relative(source, path));
      return true;
    },
  });
  if (name !== undefined) renameService(dir, name);
  return copied.sort();
}

/** `service:` in the service file (either form) and `name` in package.json become `name`. */
function renameService(dir: string, name: string): void {
  for (const file of ['serverless.yml', 'serverless.yaml', 'fw.yml', 'fw.yaml']) {
    const path = join(dir, file);
    if (!existsSync(path)) continue;
    const renamed = renameYamlService(readFileSync(path, 'utf8'), name);
    writeFileSync(path, renamed);
  }
  for (const file of ['serverless.json', 'fw.json', 'package.json']) {
    const path = join(dir, file);
    if (!existsSync(path)) continue;
    const json = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    if (file === 'package.json') json.name = name;
    else json.service = typeof json.service === 'object' && json.service !== null ? { ...json.service, name } : name;
    writeFileSync(path, `${JSON.stringify(json, null, 2)}\n`);
  }
}

/** The YAML service file with `service: x` (or `service:` + `  name: x`) set to `name`; comments and the rest kept. */
export function renameYamlService(text: string, name: string): string {
  const lines = text.split('\n');
  const at = lines.findIndex((line) => /^service:/.test(line));
  if (at === -1) return text;
  const valued = /^service:([ \t]*)([^#\s][^#]*?)([ \t]+#.*)?$/.exec(lines[at]);
  if (valued) {
    lines[at] = `service: ${name}${valued[3] ?? ''}`;
    return lines.join('\n');
  }
  for (let index = at + 1; index < lines.length && /^([ \t]|$)/.test(lines[index]); index++) {
    const nested = /^([ \t]+name:)[ \t]*[^#]*?([ \t]+#.*)?$/.exec(lines[index]);
    if (nested) {
      lines[index] = `${nested[1]} ${name}${nested[2] ?? ''}`;
      break;
    }
  }
  return lines.join('\n');
}
