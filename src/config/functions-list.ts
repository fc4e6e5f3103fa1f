/**
 * `functions:` written as a list of maps (what `${file(…)}` includes of one file per function
 * produce) is one map to Serverless v3: the items are merged in order, deeply (a later item's
 * settings for a function go over the earlier ones', lists merge item by item), as lodash's
 * `merge` does. fw merges the same way before anything else reads the functions.
 */
export function mergeFunctionsList(config: Record<string, unknown>): void {
  if (!Array.isArray(config.functions)) return;
  let merged: Record<string, unknown> = {};
  for (const item of config.functions) if (isObject(item)) merged = mergeDeep(merged, item) as Record<string, unknown>;
  config.functions = merged;
}

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function mergeDeep(target: unknown, source: unknown): unknown {
  if (source === undefined) return target;
  if (Array.isArray(target) && Array.isArray(source)) {
    const out = [...target];
    source.forEach((item, i) => (out[i] = mergeDeep(out[i], item)));
    return out;
  }
  if (!isObject(target) || !isObject(source)) return source;
  const out: Record<string, unknown> = { ...target };
  for (const [key, value] of Object.entries(source)) if (!UNSAFE_KEYS.has(key)) out[key] = mergeDeep(out[key], value);
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
