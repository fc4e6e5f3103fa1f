import { JSONPath } from 'jsonpath-plus';
import { runtimeError } from './states-error';

/** `$$.…` reads the context object, `$…` the state's input: what ASL's payload templates and paths address. */
export interface PathScope {
  input: unknown;
  context: unknown;
}

/** A path that can select several nodes (wildcards, deep scan, filters, unions, slices) answers a list, as Step Functions does. */
const INDEFINITE = /\.\.|\*|\[\?|\[[^\]]*[,:][^\]]*\]/;

/**
 * The value of a JSONPath over `value` (jsonpath-plus does the selecting). A definite path that selects
 * nothing is `undefined`; an indefinite one answers the list of what it selected, possibly empty.
 */
export function readPath(path: string, value: unknown): unknown {
  if (path === '$') return value;
  const found = JSONPath({ path, json: value as object, wrap: true }) as unknown[];
  if (INDEFINITE.test(path)) return found;
  return found.length === 0 ? undefined : found[0];
}

/** A path of a payload template or a `*Path` field: `$$.` on the context object, else the input; a missing value is AWS's runtime error. */
export function resolvePath(path: string, scope: PathScope, field: string): unknown {
  const onContext = path.startsWith('$$');
  const found = readPath(onContext ? path.slice(1) : path, onContext ? scope.context : scope.input);
  if (found === undefined) throw runtimeError(`Invalid path '${path}' : No results for path: ${field}`);
  return found;
}
