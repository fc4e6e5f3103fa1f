import { readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';

/** A file found under a root, named the way it appears in a zip. */
export class SourceFile {
  constructor(
    /** Forward-slash path relative to the walked root. */
    readonly path: string,
    /** Absolute folder holding the file (shared by its siblings: no string per file). */
    private readonly dir: string,
    private readonly name: string,
  ) {}

  /** Absolute path to read (through symlinks). */
  get abs(): string {
    return `${this.dir}${sep}${this.name}`;
  }
}

export interface WalkOptions {
  /** Relative folder paths (forward slashes) not to descend into: `.git`, the output folder. */
  prune?: ReadonlySet<string> | ((path: string) => boolean);
  warn?: (message: string) => void;
}

/**
 * Every regular file under `root`, sorted by path. Symlinks are followed when they point
 * inside `root` (a cycle is walked once) and skipped with a warning when they point outside,
 * so a zip never carries a file from elsewhere on the machine.
 */
export function walkFiles(root: string, options: WalkOptions = {}): SourceFile[] {
  const realRoot = realpathSync(root);
  const pruned = options.prune ?? new Set<string>();
  const prune = { has: typeof pruned === 'function' ? pruned : (path: string) => pruned.has(path) };
  const files: SourceFile[] = [];
  const insideRoot = (target: string) => target === realRoot || target.startsWith(realRoot + sep);

  const walk = (dir: string, rel: string, ancestors: Set<string>) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      options.warn?.(`Cannot read folder ${rel || '.'}: ${(error as Error).message}; skipped`);
      return;
    }
    for (const entry of entries) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!prune.has(path)) walk(`${dir}${sep}${entry.name}`, path, ancestors);
      } else if (entry.isFile()) {
        files.push(new SourceFile(path, dir, entry.name));
      } else if (entry.isSymbolicLink()) {
        const abs = join(dir, entry.name);
        let target: string;
        try {
          target = realpathSync(abs);
        } catch {
          options.warn?.(`Symbolic link ${path} points to nothing; skipped`);
          continue;
        }
        if (!insideRoot(target)) {
          options.warn?.(`Symbolic link ${path} points outside the service (${target}); not followed`);
          continue;
        }
        const stats = statSync(target);
        if (stats.isFile()) {
          files.push(new SourceFile(path, dirname(target), basename(target)));
        } else if (stats.isDirectory() && !prune.has(path) && !ancestors.has(target)) {
          walk(target, path, new Set(ancestors).add(target));
        }
      }
    }
  };
  walk(realRoot, '', new Set([realRoot]));
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** `dir` relative to `root` with forward slashes, or undefined when it is not inside. */
export function relativeInside(root: string, dir: string): string | undefined {
  const rel = relative(root, dir);
  if (rel === '' || rel.startsWith('..') || rel.includes(':')) return undefined;
  return rel.split(sep).join('/');
}
