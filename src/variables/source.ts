import type { SourceRef } from './parse';
import type { ResolveContext } from './index';

/**
 * What a source answers: a value, or why it has none (then the next fallback
 * is tried). `final` marks a value that is already fully resolved (a `self:`
 * subtree) so it is not scanned for variables again; `secret` marks values
 * every message and `fw print` mask (src/variables/secrets.ts).
 */
export type Outcome = { value: unknown; final?: boolean; secret?: boolean } | { missing: string };

/** What the resolver lends a source. */
export interface SourceHelpers {
  context: ResolveContext;
  /** The fully resolved value at a config path (`self:`), or missing. */
  self(path: string[]): Promise<Outcome>;
  /** `--stage` ?? `provider.stage` ?? "dev". */
  stage(): Promise<string>;
  /** `--region` ?? `provider.region` ?? "us-east-1". */
  region(): Promise<string>;
  /** `provider.profile`, when set: one of the places the AWS-backed sources' credentials come from. */
  profile(): Promise<string | undefined>;
  /** Resolves a variable written without its braces: `sls:stage`, `env:X, null`. */
  resolveVariable(text: string): Promise<unknown>;
}

export type Source = (ref: SourceRef, helpers: SourceHelpers) => Promise<Outcome>;

/** `a.b[0].c` or `a.b.0.c` → ["a", "b", "0", "c"]; empty address → []. */
export function addressPath(address: string): string[] {
  return address
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter((segment) => segment !== '');
}

/** Follows a path through plain data; undefined when it leads nowhere. */
export function dig(value: unknown, path: string[]): unknown {
  let current = value;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    if (!Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}
