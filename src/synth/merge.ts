/** Keys that must never be merged into: they would reach Object.prototype. */
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `{ Ref }`, `{ "Fn::…" }` or `{ Condition }`: replaced whole, never merged into. */
export function isIntrinsic(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && (keys[0] === 'Ref' || keys[0] === 'Condition' || keys[0].startsWith('Fn::'));
}

/**
 * Deep merge of `source` into a copy of `target`: objects merge key by key,
 * anything else (arrays, scalars, intrinsics on either side) is replaced.
 * `null` is kept so the null-stripping step can remove the property afterwards.
 */
export function deepMerge(target: unknown, source: unknown): unknown {
  if (!isPlainObject(target) || !isPlainObject(source) || isIntrinsic(target) || isIntrinsic(source)) return source;
  const result: Record<string, unknown> = { ...target };
  for (const [key, value] of Object.entries(source)) {
    if (UNSAFE_KEYS.has(key)) continue;
    result[key] = key in result ? deepMerge(result[key], value) : value;
  }
  return result;
}

/** Removes every property (and list entry field) whose value is `null`, at any depth. */
export function stripNulls<T>(value: T): T {
  if (Array.isArray(value)) return value.filter(item => item !== null).map(item => stripNulls(item)) as T;
  if (!isPlainObject(value)) return value;
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === null || UNSAFE_KEYS.has(key)) continue;
    result[key] = stripNulls(item);
  }
  return result as T;
}
