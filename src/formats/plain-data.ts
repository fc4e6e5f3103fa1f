import { ConfigError, show, showConfigPath } from '../errors';

/**
 * How deep a configuration may nest. Real files stay under 20 levels (a CloudFormation
 * condition inside a `Fn::If` inside a property); the cap keeps every later step, all of which
 * walk the tree recursively, far from the stack's limit.
 */
export const MAX_NESTING = 200;

/**
 * A copy of a loaded configuration as plain data, or a one-line error naming the path: what
 * a JS/TS service file exports may hold a getter that throws, a cycle, a BigInt, or nesting
 * no configuration needs; a YAML alias may point at its own ancestor. Functions (`addConstructs`,
 * resolvers for `${file(x.js)}`) and objects that are not plain (a Date) are kept as they are.
 */
export function plainConfig(value: unknown, source: string): unknown {
  return copy(value, [], new Set(), source);
}

function copy(value: unknown, path: string[], ancestors: Set<object>, source: string): unknown {
  if (typeof value === 'bigint') {
    throw new ConfigError(`Invalid configuration in '${where(path)}': ${show(value)} is a BigInt, which a service file cannot hold (write ${value} as a number)`);
  }
  if (value === null || typeof value !== 'object') return value;
  const plain = Array.isArray(value) || [Object.prototype, null].includes(Object.getPrototypeOf(value));
  if (!plain) return value;
  if (ancestors.has(value)) {
    throw new ConfigError(`Invalid configuration in '${where(path)}': it contains itself (a circular reference), which a service file cannot hold`);
  }
  if (path.length >= MAX_NESTING) {
    throw new ConfigError(`Invalid configuration in '${where(path)}': nested more than ${MAX_NESTING} levels deep`);
  }
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      return Array.from({ length: value.length }, (_, index) => copy(read(value, String(index), [...path, String(index)], source), [...path, String(index)], ancestors, source));
    }
    const result: Record<string, unknown> = {};
    for (const key of ownKeys(value, path, source)) {
      const child = read(value, key, [...path, key], source);
      if (child !== undefined) result[key] = copy(child, [...path, key], ancestors, source);
    }
    return result;
  } finally {
    ancestors.delete(value);
  }
}

function ownKeys(value: object, path: string[], source: string): string[] {
  try {
    return Object.keys(value);
  } catch (error) {
    throw threw(error, path, source);
  }
}

function read(value: object, key: string, path: string[], source: string): unknown {
  try {
    return (value as Record<string, unknown>)[key];
  } catch (error) {
    throw threw(error, path, source);
  }
}

function threw(error: unknown, path: string[], source: string): ConfigError {
  const reason = error instanceof Error ? error.message : String(error);
  return new ConfigError(`Cannot load ${source}: reading '${where(path)}' threw: ${reason.split('\n')[0]}`);
}

function where(path: string[]): string {
  return path.length === 0 ? '(the whole configuration)' : showConfigPath(path);
}
