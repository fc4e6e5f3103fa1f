import { readPath, resolvePath, type PathScope } from './json-path';
import { runtimeError } from './states-error';

/** A Choice state's rule: a comparison on `Variable`, or And/Or/Not of rules. */
type Rule = Record<string, unknown>;

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

const isTimestamp = (value: unknown): value is string => typeof value === 'string' && TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value));

/** StringMatches: `*` matches any run of characters, `\*` and `\\` are a literal star and backslash. */
function wildcard(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '\\' && i + 1 < pattern.length) source += pattern[++i].replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    else if (char === '*') source += '.*';
    else source += char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 's');
}

function compare(kind: string, test: string, value: unknown, expected: unknown): boolean {
  if (kind === 'String' && (typeof value !== 'string' || typeof expected !== 'string')) return false;
  if (kind === 'Numeric' && (typeof value !== 'number' || typeof expected !== 'number')) return false;
  if (kind === 'Boolean') return typeof value === 'boolean' && value === expected;
  let left: number | string = value as number | string;
  let right: number | string = expected as number | string;
  if (kind === 'Timestamp') {
    if (!isTimestamp(value) || !isTimestamp(expected)) return false;
    left = Date.parse(value);
    right = Date.parse(expected);
  }
  switch (test) {
    case 'Equals':
      return left === right;
    case 'LessThan':
      return left < right;
    case 'GreaterThan':
      return left > right;
    case 'LessThanEquals':
      return left <= right;
    default:
      return left >= right;
  }
}

/** Whether a rule holds for the state's input. */
export function matches(rule: Rule, scope: PathScope): boolean {
  if (Array.isArray(rule.And)) return (rule.And as Rule[]).every((inner) => matches(inner, scope));
  if (Array.isArray(rule.Or)) return (rule.Or as Rule[]).some((inner) => matches(inner, scope));
  if (rule.Not !== undefined) return !matches(rule.Not as Rule, scope);
  const variable = String(rule.Variable);
  const onContext = variable.startsWith('$$');
  const value = readPath(onContext ? variable.slice(1) : variable, onContext ? scope.context : scope.input);
  if (rule.IsPresent !== undefined) return (value !== undefined) === rule.IsPresent;
  if (value === undefined) throw runtimeError(`Invalid path '${variable}': The choice state's condition path references an invalid value.`);
  if (rule.IsNull !== undefined) return (value === null) === rule.IsNull;
  if (rule.IsNumeric !== undefined) return (typeof value === 'number') === rule.IsNumeric;
  if (rule.IsString !== undefined) return (typeof value === 'string') === rule.IsString;
  if (rule.IsBoolean !== undefined) return (typeof value === 'boolean') === rule.IsBoolean;
  if (rule.IsTimestamp !== undefined) return isTimestamp(value) === rule.IsTimestamp;
  if (rule.StringMatches !== undefined) return typeof value === 'string' && wildcard(String(rule.StringMatches)).test(value);
  for (const [key, operand] of Object.entries(rule)) {
    const found = /^(String|Numeric|Boolean|Timestamp)(Equals|LessThan|GreaterThan|LessThanEquals|GreaterThanEquals)(Path)?$/.exec(key);
    if (!found) continue;
    const expected = found[3] ? resolvePath(String(operand), scope, key) : operand;
    return compare(found[1], found[2], value, expected);
  }
  return false;
}
