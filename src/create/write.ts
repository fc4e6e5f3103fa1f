import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { packageRoot } from '../paths';
import { ConfigError } from '../errors';
import { serviceNameProblem } from './names';
import { TEMPLATE_MANIFEST, type Template } from './templates';

/**
 * Written in templates as they appear in the service; replaced on create.
 * The lower-case form is for names that must be lower case (npm packages, S3 buckets).
 */
export const NAME_PLACEHOLDER = '__SERVICE_NAME__';
export const LOWER_NAME_PLACEHOLDER = '__SERVICE_NAME_LOWER__';

/**
 * npm drops `.gitignore` from published packages, so templates ship these files
 * under another name and get their real one back on create.
 */
const RENAMED: Record<string, string> = { _gitignore: '.gitignore' };

/** Why a new service cannot be written to `dir`, or undefined when it can. */
export function targetProblem(dir: string, shown: string = dir): string | undefined {
  if (!existsSync(dir)) return undefined;
  if (!statSync(dir).isDirectory()) return `"${shown}" exists and is not a folder`;
  if (readdirSync(dir).length > 0) return `the folder "${shown}" already exists and is not empty`;
  return undefined;
}

export interface CreateRequest {
  template: Template;
  name: string;
  /** Absolute path of the service folder to create. */
  dir: string;
  /** How the folder is named in messages (as the user typed it). */
  shown?: string;
}

/**
 * Writes the template into `dir` as a new service. Everything goes into a temporary
 * folder beside `dir` first and is renamed into place at the end, so an error or an
 * interrupt never leaves a half-written service behind.
 * Returns the files written, relative to `dir`, sorted.
 */
export function writeService(request: CreateRequest): string[] {
  const { template, name, dir } = request;
  const nameProblem = serviceNameProblem(name);
  if (nameProblem !== undefined) throw new ConfigError(`Invalid service name: ${nameProblem}`);
  const folderProblem = targetProblem(dir, request.shown);
  if (folderProblem !== undefined) throw new ConfigError(`Cannot create the service: ${folderProblem}`);

  mkdirSync(dirname(dir), { recursive: true });
  // mkdirSync, not mkdtempSync (always 0700): the service folder gets the mode the user's umask gives any new folder.
  const staging = join(dirname(dir), `.${basename(dir)}.fw-create-${randomBytes(4).toString('hex')}`);
  mkdirSync(staging);
  try {
    const files = copyTemplate(template.dir, staging, name, dir);
    if (existsSync(dir)) rmdirSync(dir); // empty, checked above; rename cannot replace a folder everywhere
    renameSync(staging, dir);
    return files.map((file) => relative(staging, file)).sort();
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
}

function copyTemplate(from: string, to: string, name: string, serviceDir: string): string[] {
  const written: string[] = [];
  const visit = (source: string, target: string, top: boolean) => {
    for (const entry of readdirSync(source, { withFileTypes: true })) {
      if (top && entry.name === TEMPLATE_MANIFEST) continue;
      const sourcePath = join(source, entry.name);
      const targetPath = join(target, RENAMED[entry.name] ?? entry.name);
      if (entry.isDirectory()) {
        mkdirSync(targetPath);
        visit(sourcePath, targetPath, false);
      } else if (entry.isFile()) {
        copyFile(sourcePath, targetPath, name, serviceDir);
        written.push(targetPath);
      }
    }
  };
  visit(from, to, true);
  return written;
}

function copyFile(source: string, target: string, name: string, serviceDir: string): void {
  const bytes = readFileSync(source);
  if (bytes.includes(0)) {
    copyFileSync(source, target);
    return;
  }
  writeFileSync(target, renderText(bytes.toString('utf8'), name, serviceDir));
}

/** Where a template's package.json names fw itself (a TypeScript service type-checks against its types). */
export const FW_DEPENDENCY_PLACEHOLDER = '__FW_DEPLOY_DEPENDENCY__';

/**
 * The fw a new service depends on: the installed one, by a relative `file:` path, so that
 * `npm install` needs no registry entry for fw-deploy (npm links the folder, offline).
 */
export function fwDependency(serviceDir: string): string {
  const path = relative(resolve(serviceDir), packageRoot).split(sep).join('/');
  return `file:${path === '' ? '.' : path}`;
}

export function renderText(text: string, name: string, serviceDir?: string): string {
  const rendered = text.replaceAll(LOWER_NAME_PLACEHOLDER, name.toLowerCase()).replaceAll(NAME_PLACEHOLDER, name);
  return serviceDir === undefined ? rendered : rendered.replaceAll(FW_DEPENDENCY_PLACEHOLDER, fwDependency(serviceDir));
}
