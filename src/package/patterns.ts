import type picomatchType from 'picomatch';

let picomatch: typeof picomatchType | undefined;
const GLOB_SYNTAX = /[*?[\]{}()!+@\\]/;

/**
 * A matcher for one glob, with picomatch semantics (`dot: true`). The two shapes almost every
 * pattern has (the default excludes, the service file) skip picomatch, which is only loaded
 * for real globs: its compile costs more than the rest of packaging a small service.
 */
function compile(glob: string): (path: string) => boolean {
  const plain = glob.startsWith('./') ? glob.slice(2) : glob;
  if (!GLOB_SYNTAX.test(plain)) return (path) => path === plain;
  if (plain.endsWith('/**') && !GLOB_SYNTAX.test(plain.slice(0, -3))) {
    const folder = plain.slice(0, -3);
    const prefix = `${folder}/`;
    return (path) => path.startsWith(prefix) || path === folder;
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
