/** EventBridge event patterns: exact values, prefix, suffix, anything-but, exists and numeric ranges. */

type Matcher = string | number | boolean | null | Record<string, unknown>;

function matchesOne(matcher: Matcher, value: unknown, present: boolean): boolean {
  if (matcher === null || typeof matcher !== 'object') return present && value === matcher;
  if ('exists' in matcher) return matcher.exists === present;
  if (!present) return false;
  if ('prefix' in matcher) return typeof value === 'string' && value.startsWith(String(matcher.prefix));
  if ('suffix' in matcher) return typeof value === 'string' && value.endsWith(String(matcher.suffix));
  if ('anything-but' in matcher) {
    const excluded = matcher['anything-but'];
    if (Array.isArray(excluded)) return !excluded.includes(value);
    if (excluded !== null && typeof excluded === 'object' && 'prefix' in excluded) return !(typeof value === 'string' && value.startsWith(String((excluded as { prefix: unknown }).prefix)));
    return value !== excluded;
  }
  if ('numeric' in matcher && Array.isArray(matcher.numeric) && typeof value === 'number') {
    const conditions = matcher.numeric as (string | number)[];
    for (let i = 0; i + 1 < conditions.length; i += 2) {
      const bound = Number(conditions[i + 1]);
      const ok = { '<': value < bound, '<=': value <= bound, '=': value === bound, '>': value > bound, '>=': value >= bound }[String(conditions[i])];
      if (!ok) return false;
    }
    return true;
  }
  return false;
}

function matchesField(matchers: unknown, value: unknown, present: boolean): boolean {
  if (!Array.isArray(matchers)) {
    if (matchers !== null && typeof matchers === 'object') return present && value !== null && typeof value === 'object' && matchesPattern(matchers as Record<string, unknown>, value as Record<string, unknown>);
    return false;
  }
  const values = Array.isArray(value) ? value : [value];
  return matchers.some((matcher: Matcher) => values.some((item) => matchesOne(matcher, item, present)));
}

export function matchesPattern(pattern: Record<string, unknown>, event: Record<string, unknown>): boolean {
  return Object.entries(pattern).every(([key, matchers]) => matchesField(matchers, event[key], Object.hasOwn(event, key)));
}
