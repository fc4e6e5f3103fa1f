import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SourceFile } from './files';

interface Manifest {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  bin?: string | Record<string, string>;
  name?: string;
}

/** Which node_modules files belong to development dependencies only. */
export interface DevDependencies {
  /** Package folders (relative, forward slashes) needed by devDependencies and by nothing in production. */
  readonly packages: ReadonlySet<string>;
  /** `node_modules/.bin/<name>` links of those packages. */
  readonly bins: ReadonlySet<string>;
}

const NONE: DevDependencies = { packages: new Set(), bins: new Set() };

/**
 * Finds the development-only packages from the package.json files and node_modules on disk,
 * resolving each dependency the way Node does (the nearest `node_modules/<name>` going up),
 * without running npm. Every package.json outside node_modules is a root, as with the
 * reference. A package is left out when devDependencies reach it and production ones
 * (`dependencies`, `optionalDependencies`, and the peers of what they reach) do not;
 * a package nobody declares is kept.
 */
export function findDevDependencies(root: string, files: readonly SourceFile[]): DevDependencies {
  const present = new Set<string>();
  const roots: string[] = [];
  let hasNodeModules = false;
  for (const file of files) {
    if (!file.path.endsWith('package.json')) continue;
    if (file.path !== 'package.json' && !file.path.endsWith('/package.json')) continue;
    const dir = file.path.length === 12 ? '' : file.path.slice(0, -13);
    present.add(dir);
    if (dir === 'node_modules' || dir.startsWith('node_modules/') || dir.includes('/node_modules/')) hasNodeModules = true;
    else roots.push(dir);
  }
  if (!hasNodeModules || roots.length === 0) return NONE;

  const manifests = new Map<string, Manifest | undefined>();
  const manifest = (dir: string): Manifest | undefined => {
    if (manifests.has(dir)) return manifests.get(dir);
    let parsed: Manifest | undefined;
    try {
      parsed = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as Manifest;
    } catch {
      parsed = undefined;
    }
    manifests.set(dir, parsed);
    return parsed;
  };

  const resolve = (name: string, from: string): string | undefined => {
    let dir = from;
    for (;;) {
      if (!(dir === 'node_modules' || dir.endsWith('/node_modules'))) {
        const candidate = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
        if (present.has(candidate)) return candidate;
      }
      if (dir === '') return undefined;
      const slash = dir.lastIndexOf('/');
      dir = slash < 0 ? '' : dir.slice(0, slash);
    }
  };

  const reach = (names: Iterable<string>, from: string, into: Set<string>) => {
    const queue: Array<[string, string]> = [];
    for (const name of names) queue.push([name, from]);
    while (queue.length > 0) {
      const [name, fromDir] = queue.pop()!;
      const dir = resolve(name, fromDir);
      if (dir === undefined || into.has(dir)) continue;
      into.add(dir);
      const pkg = manifest(dir);
      if (!pkg) continue;
      for (const deps of [pkg.dependencies, pkg.optionalDependencies, pkg.peerDependencies]) {
        if (deps) for (const dep of Object.keys(deps)) queue.push([dep, dir]);
      }
    }
  };

  const production = new Set<string>();
  const development = new Set<string>();
  for (const dir of roots) {
    const pkg = manifest(dir);
    if (!pkg) continue;
    reach([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {})], dir, production);
    reach(Object.keys(pkg.devDependencies ?? {}), dir, development);
  }

  const packages = new Set<string>();
  const bins = new Set<string>();
  for (const dir of development) {
    if (production.has(dir)) continue;
    packages.add(dir);
    const pkg = manifest(dir);
    const at = dir.lastIndexOf('node_modules/') + 'node_modules/'.length;
    const binDir = `${dir.slice(0, at)}.bin`;
    const packageName = dir.slice(at);
    if (typeof pkg?.bin === 'string') bins.add(`${binDir}/${packageName.split('/').pop()}`);
    else if (pkg?.bin && typeof pkg.bin === 'object') for (const name of Object.keys(pkg.bin)) bins.add(`${binDir}/${name}`);
  }
  return { packages, bins };
}

/** Whether `path` lies in one of the development-only packages (or is one of their bin links). */
export function isDevDependencyFile(path: string, dev: DevDependencies): boolean {
  if (dev.packages.size === 0 || !path.includes('node_modules/')) return false;
  if (dev.bins.has(path)) return true;
  const segments = path.split('/');
  for (let i = 0; i < segments.length - 2; i++) {
    if (segments[i] !== 'node_modules') continue;
    const end = segments[i + 1].startsWith('@') ? i + 3 : i + 2;
    if (end >= segments.length) break;
    if (dev.packages.has(segments.slice(0, end).join('/'))) return true;
  }
  return false;
}
