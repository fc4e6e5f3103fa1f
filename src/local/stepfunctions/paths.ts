import { JSONPath } from 'jsonpath-plus';
import { evaluateIntrinsic, isIntrinsic } from './intrinsics';
import { readPath, resolvePath, type PathScope } from './json-path';
import { runtimeError, StatesError } from './states-error';

/** InputPath and OutputPath: null gives `{}`, absent keeps the whole value. */
export function selectPath(path: string | null | undefined, value: unknown, field: 'InputPath' | 'OutputPath' | 'ItemsPath'): unknown {
  if (path === undefined) return value;
  if (path === null) return {};
  const found = readPath(path, value);
  if (found === undefined) throw runtimeError(`Invalid path '${path}' : No results for path: ${field}`);
  return found;
}

/** A field that holds a path or an intrinsic function (`CausePath: "States.Format(…)"`): its value. */
export function pathOrIntrinsic(text: string, scope: PathScope, field: string): unknown {
  return isIntrinsic(text) ? evaluateIntrinsic(text, scope) : resolvePath(text, scope, field);
}

/**
 * A payload template (Parameters, ResultSelector, ItemSelector, Arguments): fields ending in `.$` are
 * replaced by the value of their path or intrinsic function, under the name without `.$`.
 */
export function applyTemplate(template: unknown, scope: PathScope): unknown {
  if (Array.isArray(template)) return template.map((item) => applyTemplate(item, scope));
  if (template === null || typeof template !== 'object') return template;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(template as Record<string, unknown>)) {
    if (key.endsWith('.$') && typeof value === 'string') {
      const name = key.slice(0, -2);
      result[name] = pathOrIntrinsic(value, scope, `$['${name}']`);
    } else {
      result[key] = applyTemplate(value, scope);
    }
  }
  return result;
}

/** ResultPath: where the result goes in a copy of the raw input (null: the result is discarded; `$`: it replaces the input). */
export function placeResult(resultPath: string | null | undefined, input: unknown, result: unknown): unknown {
  if (resultPath === null) return input;
  if (resultPath === undefined || resultPath === '$') return result;
  const steps = [...JSONPath.toPathArray(resultPath)].slice(1);
  const root = structuredClone(input);
  if (root === null || typeof root !== 'object') throw new StatesError('States.ResultPathMatchFailure', `Unable to apply ResultPath "${resultPath}" to input ${JSON.stringify(input)}`);
  let node = root as Record<string, unknown>;
  for (const [index, step] of steps.entries()) {
    if (index === steps.length - 1) {
      node[step] = result;
      break;
    }
    const next = node[step];
    if (next === undefined) node[step] = {};
    else if (next === null || typeof next !== 'object') throw new StatesError('States.ResultPathMatchFailure', `Unable to apply ResultPath "${resultPath}" to input ${JSON.stringify(input)}`);
    node = node[step] as Record<string, unknown>;
  }
  return root;
}
