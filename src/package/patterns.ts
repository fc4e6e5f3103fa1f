import type picomatchType from 'picomatch';

let picomatch: typeof picomatchType | undefined;
const GLOB_SYNTAX = /[*?[\]{}()!+@\\]/;

/**
 * A matcher for one glob, with picomatch semantics (`dot: true`). The shapes of the default
 * excludes and the service file (a name, `folder/**`, a star within one segment) skip
 * picomatch, which is only loaded for other globs: loading and compiling it costs more than
 * the rest of packaging a small service.
 */
function compile(glob: string): (path: string) => boolean {
  const plain = glob.startsWith('./') ? glob.slice(2) : glob;
  if (!GLOB_SYNTAX.test(plain)) return (path) => path === plain;
  if (plain.endsWith('/**') && !GLOB_SYNTAX.test(plain.slice(0, -3))) {
    const folder = plain.slice(0, -3);
    const prefix = `${folder}/`;
    return (path) => path.startsWith(prefix) || path === folder;
  }
  if (!GLOB_SYNTAX.test(plain.replace(/\*/g, '')) && !plain.includes('**')) {
    // `yarn-*.log`, `.env*`: a star within one path segment, dotfiles included (dot: true)
    const pattern = new RegExp(`^${plain.split('*').map(escapeRegExp).join('[^/]*')}$`);
    return (path) => pattern.test(path);
  }
  picomatch ??= require('picomatch') as typeof picomatchType;
  return picomatch(glob, { dot: true });
}

/** One step of `package.patterns`: `x` includes what it matches, `!x` excludes it. */
export interface PatternRule {
  readonly pattern: string;
  readonly include: boolean;
  readonly test: (path: string) => boolean;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const compiled = new Map<string, (path: string) => boolean>();

/** `src/**` → include rule, `!src/**` → exclude rule; matchers are compiled once per process. */
export function rule(pattern: string): PatternRule {
  const include = !pattern.startsWith('!');
  const glob = include ? pattern : pattern.slice(1);
  let test = compiled.get(glob);
  if (!test) {
    test = compile(glob);
    compiled.set(glob, test);
  }
  return { pattern, include, test };
}

export function rules(patterns: readonly string[]): PatternRule[] {
  return patterns.map(rule);
}

/**
 * Whether a file is packaged: every file starts included and the patterns run in order, so the
 * last one that matches decides (a later `!x` excludes, a later `x` re-includes).
 */
export function isIncluded(path: string, ordered: readonly PatternRule[]): boolean {
  for (let i = ordered.length - 1; i >= 0; i--) {
    if (ordered[i].test(path)) return ordered[i].include;
  }
  return true;
}

/** `x` ↔ `!x`: turns an exclude list into patterns. */
export function negate(pattern: string): string {
  return pattern.startsWith('!') ? pattern.slice(1) : `!${pattern}`;
}

/** `!folder/**` (literal folder) → `folder`. */
function wholeFolderExclude(pattern: string): string | undefined {
  if (!pattern.startsWith('!')) return undefined;
  const glob = pattern.startsWith('!./') ? pattern.slice(3) : pattern.slice(1);
  if (!glob.endsWith('/**')) return undefined;
  const folder = glob.slice(0, -3);
  return folder && !GLOB_SYNTAX.test(folder) ? folder : undefined;
}

/** Whether an include pattern could match some path inside `folder` (conservative: by its literal prefix). */
function mayMatchInside(pattern: string, folder: string): boolean {
  const glob = pattern.startsWith('./') ? pattern.slice(2) : pattern;
  const firstGlob = glob.search(GLOB_SYNTAX);
  const literal = firstGlob < 0 ? glob : glob.slice(0, firstGlob);
  const prefix = `${folder}/`;
  return literal.length >= prefix.length ? literal.startsWith(prefix) : prefix.startsWith(literal);
}

function excludesWholeFolder(patterns: readonly string[], folder: string): boolean {
  for (let i = patterns.length - 1; i >= 0; i--) {
    const pattern = patterns[i];
    const excluded = wholeFolderExclude(pattern);
    if (excluded !== undefined) {
      if (folder === excluded || folder.startsWith(`${excluded}/`)) return true;
    } else if (!pattern.startsWith('!') && mayMatchInside(pattern, folder)) {
      return false;
    }
  }
  return false;
}

/**
 * Folders every pattern list excludes whole (`!folder/**`, nothing later re-including inside):
 * the walk need not enter them. `!node_modules/**` in a bundled service saves reading the
 * whole tree.
 */
export function excludedFolders(lists: ReadonlyArray<readonly string[]>): Set<string> {
  const candidates = new Set<string>();
  for (const list of lists) {
    for (const pattern of list) {
      const folder = wholeFolderExclude(pattern);
      if (folder !== undefined) candidates.add(folder);
    }
  }
  return new Set([...candidates].filter((folder) => lists.length > 0 && lists.every((list) => excludesWholeFolder(list, folder))));
}
