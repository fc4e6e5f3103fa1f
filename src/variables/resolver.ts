import { ConfigError, show } from '../errors';
import { classifyEntry, hasVariables, parseSourceRef, parseTemplate, type SourceRef, type VariableNode } from './parse';
import { addressPath, type Outcome, type Source, type SourceHelpers } from './source';
import { sources } from './sources';
import { secretValues } from '../secrets';
import type { ResolveContext } from './index';

/** How many times a value may resolve to more variables (a file pointing at a file, …). */
export const MAX_DEPTH = 10;

type Path = string[];

/** `["functions", "hello", "events", "0"]` → `functions.hello.events[0]` */
export function showPath(path: Path): string {
  let text = '';
  for (const segment of path) text = appendSegment(text, segment);
  return text;
}

function appendSegment(text: string, segment: string): string {
  if (/^\d+$/.test(segment)) return `${text}[${segment}]`;
  return text === '' ? segment : `${text}.${segment}`;
}

/** A resolution failure, already phrased with the config path and the variable. */
export class VariableError extends ConfigError {}

interface Missing {
  /** The entry as resolved, `env:TABLE`. */
  text: string;
  /** Why it has no value, `is not set`. */
  reason: string;
}

interface Resolved {
  value: unknown;
  /** Already fully resolved: copy as is, never scan again. */
  final: boolean;
}

/**
 * Resolves the configuration in place, node by node. A node is "settled" once
 * its own value is no longer a variable string; `self:` asks for a path and
 * settles every node on the way, so references resolve in whatever order the
 * file needs. Work is sequential on purpose: the in-progress stack is then
 * exactly the chain a cycle error names.
 */
export class Resolver {
  private readonly root: { value: unknown };
  private readonly settled = new Set<string>();
  private readonly finals = new Set<string>();
  private readonly failed = new Map<string, ConfigError>();
  private readonly depthOf = new Map<string, number>();
  private readonly inProgress: string[] = [];
  private readonly memo: Map<string, Outcome>;
  private readonly helpers: SourceHelpers;

  /**
   * `inPlace`: resolves `raw` itself (whoever holds it sees the values arrive), else a copy.
   * `only`: the sources that may be called; a variable of any other source is left as written.
   */
  constructor(
    raw: Record<string, unknown>,
    private readonly context: ResolveContext,
    private readonly scope: { inPlace?: boolean; only?: ReadonlySet<string> } = {},
  ) {
    this.root = { value: scope.inPlace ? raw : structuredCloneSafe(raw) };
    this.memo = context.answers ?? new Map();
    this.helpers = {
      context,
      self: (path) => this.lookup(path),
      stage: () => this.stage(),
      region: () => this.region(),
      profile: () => this.profile(),
      resolveVariable: (text) => this.resolveFreeVariable(text),
    };
  }

  async resolveAll(): Promise<Record<string, unknown>> {
    const errors: ConfigError[] = [];
    await this.resolveDeep([], errors);
    const messages = [...new Set(errors.map((error) => error.message))];
    if (messages.length === 1) throw errors[0];
    if (messages.length > 1) {
      throw new VariableError(`Cannot resolve ${messages.length} variables:\n${messages.map((message) => `  - ${message}`).join('\n')}`);
    }
    return this.root.value as Record<string, unknown>;
  }

  /** Resolves what it can; a variable that fails (or needs a source outside `only`) stays as written. */
  async resolveAvailable(): Promise<void> {
    await this.resolveDeep([], []);
  }

  // ── the tree ──────────────────────────────────────────────────────────

  private get(path: Path): unknown {
    let current: unknown = this.root.value;
    for (const segment of path) {
      if (current === null || typeof current !== 'object') return undefined;
      if (!Object.hasOwn(current, segment)) return undefined;
      current = (current as Record<string, unknown>)[segment];
    }
    return current;
  }

  private set(path: Path, value: unknown): void {
    if (path.length === 0) {
      this.root.value = value;
      return;
    }
    const parent = this.get(path.slice(0, -1)) as Record<string, unknown>;
    parent[path[path.length - 1]] = value;
  }

  /** True when the node or one of its ancestors was copied already resolved (most configs have none). */
  private isFinal(path: Path): boolean {
    if (this.finals.size === 0) return false;
    let key = '';
    if (this.finals.has(key)) return true;
    for (const segment of path) {
      key = appendSegment(key, segment);
      if (this.finals.has(key)) return true;
    }
    return false;
  }

  /** How many variable results the node sits under (a file whose values are files …). */
  private inheritedDepth(path: Path): number {
    if (this.depthOf.size === 0) return 0;
    let depth = this.depthOf.get('') ?? 0;
    let key = '';
    for (const segment of path.slice(0, -1)) {
      key = appendSegment(key, segment);
      depth = Math.max(depth, this.depthOf.get(key) ?? 0);
    }
    return depth;
  }

  /** Resolves the node at `path` and everything under it; with `errors`, collects failures instead of throwing. */
  private async resolveDeep(path: Path, errors?: ConfigError[]): Promise<void> {
    try {
      await this.settle(path);
    } catch (error) {
      if (!errors || !(error instanceof ConfigError)) throw error;
      errors.push(error);
      return;
    }
    if (this.isFinal(path)) return;
    const value = this.get(path);
    if (value === null || typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value)) {
      // Plain leaves need no work; skipping them keeps large `resources` sections cheap.
      if (typeof child === 'string' ? !child.includes('${') : child === null || typeof child !== 'object') continue;
      await this.resolveDeep([...path, key], errors);
    }
  }

  /** Makes the node at `path` a non-variable value (its children may still hold variables). */
  private async settle(path: Path): Promise<void> {
    const key = showPath(path);
    if (this.settled.has(key)) return;
    const failure = this.failed.get(key);
    if (failure) throw failure;
    const value = this.get(path);
    if (typeof value !== 'string' || !(hasVariables(value) || value.includes('\\${')) || this.isFinal(path)) {
      this.settled.add(key);
      return;
    }
    const start = this.inProgress.indexOf(key);
    if (start !== -1) {
      const cycle = [...this.inProgress.slice(start), key].map((entry) => `"${entry}"`).join(' → ');
      throw new VariableError(`Cannot resolve variable at "${key}": circular reference ${cycle}`);
    }
    this.inProgress.push(key);
    try {
      const resolved = await this.resolveString(value, path, this.inheritedDepth(path));
      this.set(path, resolved.value);
      if (resolved.final) this.finals.add(key);
      else if (resolved.value !== null && typeof resolved.value === 'object') {
        const depth = this.inheritedDepth(path) + 1;
        if (depth > MAX_DEPTH) throw this.tooDeep(key, value);
        this.depthOf.set(key, depth);
      }
      this.settled.add(key);
    } catch (error) {
      const wrapped = error instanceof ConfigError ? error : new VariableError(`Cannot resolve variable at "${key}": ${(error as Error).message}`);
      this.failed.set(key, wrapped);
      throw wrapped;
    } finally {
      this.inProgress.pop();
    }
  }

  private tooDeep(key: string, text: string): VariableError {
    return new VariableError(`Cannot resolve variable at "${key}": ${show(text)} resolves through more than ${MAX_DEPTH} levels of variables`);
  }

  // ── strings and variables ─────────────────────────────────────────────

  /** A whole-value variable keeps its type; variables inside a string must be scalars. */
  private async resolveString(text: string, path: Path, depth: number): Promise<Resolved> {
    if (depth > MAX_DEPTH) throw this.tooDeep(showPath(path), text);
    const template = parseTemplate(text);
    if (template.length === 1 && typeof template[0] !== 'string') {
      const resolved = await this.resolveNode(template[0], path, depth);
      if (!resolved.final && typeof resolved.value === 'string' && hasVariables(resolved.value)) {
        return this.resolveString(resolved.value, path, depth + 1);
      }
      return resolved;
    }
    let result = '';
    for (const part of template) {
      if (typeof part === 'string') {
        result += part;
        continue;
      }
      let { value, final } = await this.resolveNode(part, path, depth);
      if (!final && typeof value === 'string' && hasVariables(value)) value = (await this.resolveString(value, path, depth + 1)).value;
      if (value === null || typeof value === 'object') {
        const kind = value === null ? 'null' : Array.isArray(value) ? 'a list' : 'an object';
        throw new VariableError(
          `Cannot resolve variable at "${showPath(path)}": ${part.text} resolves to ${kind}, but a variable inside a string must resolve to a string, number or boolean`,
        );
      }
      result += String(value);
    }
    return { value: result, final: true };
  }

  /** Tries the source, then each fallback in order; all missing is an error naming the variable. */
  private async resolveNode(node: VariableNode, path: Path, depth: number): Promise<Resolved> {
    const attempt = await this.attemptNode(node, path, depth);
    if ('value' in attempt) return attempt;
    const where = `Cannot resolve variable at "${showPath(path)}"`;
    const [first] = attempt.missing;
    if (node.entries.length === 1 && first.text === node.entries[0]) {
      throw new VariableError(`${where}: ${node.text} ${first.reason} and has no fallback`);
    }
    throw new VariableError(`${where}: ${node.text} has no value (${attempt.missing.map((m) => `${m.text} ${m.reason}`).join('; ')})`);
  }

  private async attemptNode(node: VariableNode, path: Path, depth: number): Promise<Resolved | { missing: Missing[] }> {
    const missing: Missing[] = [];
    for (const [index, entry] of node.entries.entries()) {
      const kind = classifyEntry(entry);
      if (!kind) {
        throw new VariableError(
          `Cannot resolve variable at "${showPath(path)}": ${node.text} has an invalid ${index === 0 ? 'source' : 'fallback'} ${show(entry)} (expected a variable like self:custom.x, a number, true, false, null or a quoted string like 'text')`,
        );
      }
      if (kind.kind === 'literal') return { value: kind.value, final: true };
      if (kind.kind === 'variable') {
        const nested = await this.attemptNode(kind.node, path, depth + 1);
        if ('value' in nested) return nested;
        missing.push(...nested.missing);
        continue;
      }
      const text = hasVariables(kind.text) ? String((await this.resolveString(kind.text, path, depth + 1)).value) : kind.text;
      const ref = parseSourceRef(text);
      if (!ref) throw new VariableError(`Cannot resolve variable at "${showPath(path)}": ${node.text} has an invalid variable ${show(text)}`);
      const outcome = await this.callSource(ref, node, path);
      if ('value' in outcome && outcome.value !== undefined && outcome.value !== null) {
        if (outcome.secret) secretValues.add(outcome.value, text);
        // A copy: the same cached answer may be placed at many paths and resolved in each.
        return { value: structuredCloneSafe(outcome.value), final: outcome.final === true };
      }
      missing.push({ text, reason: 'missing' in outcome ? outcome.missing : 'resolves to null' });
    }
    return { missing };
  }

  private async callSource(ref: SourceRef, node: VariableNode, path: Path): Promise<Outcome> {
    const source: Source | undefined = sources[ref.type];
    if (this.scope.only && !this.scope.only.has(ref.type)) {
      throw new VariableError(`Cannot resolve variable at "${showPath(path)}": ${node.text} is resolved later`);
    }
    if (!source) {
      throw new VariableError(
        `Cannot resolve variable at "${showPath(path)}": ${node.text} uses an unknown source "${ref.type}" (known: ${Object.keys(sources).join(', ')})`,
      );
    }
    // AWS-backed and file sources are called once per distinct address.
    const cacheable = ref.type !== 'self';
    const key = `${ref.type}(${ref.params.join(',')}):${ref.address ?? ''}`;
    if (cacheable && this.memo.has(key)) return this.memo.get(key)!;
    let outcome: Outcome;
    try {
      outcome = await source(ref, this.helpers);
    } catch (error) {
      if (error instanceof VariableError) throw error;
      throw new VariableError(`Cannot resolve variable at "${showPath(path)}": ${node.text}: ${(error as Error).message}`);
    }
    if (cacheable) this.memo.set(key, outcome);
    return outcome;
  }

  // ── helpers lent to sources ───────────────────────────────────────────

  private async lookup(path: Path): Promise<Outcome> {
    for (let i = 0; i < path.length; i += 1) {
      await this.settle(path.slice(0, i));
      const parent = this.get(path.slice(0, i));
      if (parent === null || typeof parent !== 'object' || !Object.hasOwn(parent, path[i])) {
        return { missing: 'points to nothing in the service file' };
      }
    }
    await this.resolveDeep(path);
    const value = this.get(path);
    if (value === undefined || value === null) return { missing: 'points to nothing in the service file' };
    return { value: structuredCloneSafe(value), final: true };
  }

  private async optionOrConfig(option: string, path: Path, fallback: string): Promise<string> {
    const fromCli = this.context.options[option];
    if (typeof fromCli === 'string' && fromCli !== '') return fromCli;
    const fromConfig = await this.lookup(path);
    if ('value' in fromConfig && (typeof fromConfig.value === 'string' || typeof fromConfig.value === 'number')) return String(fromConfig.value);
    return fallback;
  }

  private stage(): Promise<string> {
    return this.optionOrConfig('stage', ['provider', 'stage'], 'dev');
  }

  private region(): Promise<string> {
    return this.optionOrConfig('region', ['provider', 'region'], 'us-east-1');
  }

  private async profile(): Promise<string | undefined> {
    const fromConfig = await this.lookup(['provider', 'profile']);
    return 'value' in fromConfig && typeof fromConfig.value === 'string' && fromConfig.value !== '' ? fromConfig.value : undefined;
  }

  /** For JS resolver functions: `resolveVariable('env:X, null')`. */
  private async resolveFreeVariable(text: string): Promise<unknown> {
    const template = parseTemplate(`\${${text}}`);
    if (template.length !== 1 || typeof template[0] === 'string') throw new ConfigError(`resolveVariable: ${show(text)} is not a variable`);
    const path = this.inProgress.length > 0 ? addressPath(this.inProgress[this.inProgress.length - 1].replace(/\[(\d+)\]/g, '.$1')) : [];
    return (await this.resolveNode(template[0], path, 0)).value;
  }
}

/** A deep copy of plain configuration data (functions from JS configs are kept by reference). */
function structuredCloneSafe<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => structuredCloneSafe(item)) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const copy: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) copy[key] = structuredCloneSafe(child);
    return copy as T;
  }
  return value;
}
