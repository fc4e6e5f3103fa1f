/**
 * Sections Serverless v3 takes as a list of maps and merges into one map before anything reads
 * them: the items are merged in order, deeply (a later item's settings go over the earlier ones',
 * lists merge item by item), as lodash's `merge` does. fw merges the same way.
 *   - `functions:` as a list of maps (what `${file(…)}` includes of one file per function produce);
 *   - `resources:` as a list of blocks (`- ${file(resources/a.yml)}`): v3 merges them into one block,
 *     so two blocks' `DependsOn` lists of one resource merge item by item and plugins that add to
 *     `serverless.service.resources` (Lift) find one block.
 */
export function mergeListSections(config: Record<string, unknown>): void {
  if (Array.isArray(config.functions)) config.functions = mergeItems(config.functions);
  // A block that is not a map stays in its list: fw's error names it (`resources[1]`).
  if (Array.isArray(config.resources) && config.resources.every(isObject)) config.resources = mergeItems(config.resources);
}

function mergeItems(items: unknown[]): Record<string, unknown> {
  let merged: Record<string, unknown> = {};
  for (const item of items) if (isObject(item)) merged = mergeDeep(merged, item) as Record<string, unknown>;
  return merged;
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
