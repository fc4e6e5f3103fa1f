import { isIntrinsic } from '../intrinsic';

/** Keys that must never be merged into: they would reach Object.prototype. */
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
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

/**
 * The value without every property (and list entry) whose value is `null`, at any depth. What
 * holds no null is returned as it is, not copied: this walks a whole template on every package,
 * and copying it was a tenth of the allocation of a 300-function service (the template may then
 * share objects with the configuration; plugins get a copy of their own, see plugins/finalize).
 * Plain index loops, because `for…of` over entries allocates per property while code runs cold.
 */
export function stripNulls<T>(value: T): T {
  if (Array.isArray(value)) {
    let result: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      const stripped = item === null ? item : stripNulls(item);
      if (result === undefined && (item === null || stripped !== item)) result = value.slice(0, i);
      if (result !== undefined && item !== null) result.push(stripped);
    }
    return (result ?? value) as T;
  }
  if (!isPlainObject(value)) return value;
  let result: Record<string, unknown> | undefined;
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const item = value[key];
    const dropped = item === null || UNSAFE_KEYS.has(key);
    const stripped = dropped ? item : stripNulls(item);
    if (result === undefined && (dropped || stripped !== item)) {
      result = {};
      for (let j = 0; j < i; j++) result[keys[j]] = value[keys[j]];
    }
    if (result !== undefined && !dropped) result[key] = stripped;
  }
  return (result ?? value) as T;
}
