import { isIntrinsic } from '../../intrinsic';
import { validationError } from '../protocol/errors';

/** What `Ref`, `Fn::GetAtt` and friends look things up in while a stack operation runs. */
export interface ResolveContext {
  pseudo: Record<string, unknown>;
  parameters: Record<string, unknown>;
  mappings: Record<string, Record<string, Record<string, unknown>>>;
  condition(name: string): boolean;
  ref(logicalId: string): unknown;
  getAtt(logicalId: string, attribute: string): unknown;
  importValue(name: string): unknown;
}

/** `AWS::NoValue`: the property or list item it stands for disappears. */
export const NO_VALUE = Symbol('AWS::NoValue');

const AZ_SUFFIXES = ['a', 'b', 'c', 'd', 'e', 'f'];

function fail(message: string): never {
  throw validationError(`Template error: ${message}`);
}

function asString(value: unknown, where: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return fail(`${where} must resolve to a string, got ${JSON.stringify(value)}`);
}

function asList(value: unknown, where: string): unknown[] {
  if (Array.isArray(value)) return value;
  return fail(`${where} must be a list, got ${JSON.stringify(value)}`);
}

/** `${Name}`, `${Resource.Attribute}`; `${!Literal}` stays `${Literal}`. */
export function substitute(text: string, lookup: (name: string) => string): string {
  return text.replace(/\$\{([^}]*)\}/g, (_whole, inner: string) => {
    if (inner.startsWith('!')) return `\${${inner.slice(1)}}`;
    return lookup(inner.trim());
  });
}

/** The names a `Fn::Sub` string refers to (parameters, resources, `Resource.Attribute`). */
export function subVariables(text: string): string[] {
  return [...text.matchAll(/\$\{([^}!][^}]*)\}/g)].map((match) => match[1].trim());
}

export function resolve(value: unknown, context: ResolveContext): unknown {
  if (Array.isArray(value)) {
    return value.map((item) => resolve(item, context)).filter((item) => item !== NO_VALUE);
  }
  if (value === null || typeof value !== 'object') return value;
  if (isIntrinsic(value)) {
    const [name, argument] = Object.entries(value)[0];
    return resolveFunction(name, argument, context);
  }
  const result: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const resolved = resolve(child, context);
    if (resolved !== NO_VALUE) result[key] = resolved;
  }
  return result;
}

function refValue(name: string, context: ResolveContext): unknown {
  if (name === 'AWS::NoValue') return NO_VALUE;
  if (name in context.pseudo) return context.pseudo[name];
  if (Object.hasOwn(context.parameters, name)) return context.parameters[name];
  return context.ref(name);
}

function resolveFunction(name: string, argument: unknown, context: ResolveContext): unknown {
  switch (name) {
    case 'Ref':
      return refValue(asString(resolve(argument, context), 'Ref'), context);
    case 'Condition':
      return context.condition(asString(argument, 'Condition'));
    case 'Fn::GetAtt': {
      const parts = typeof argument === 'string' ? splitOnce(argument) : asList(argument, 'Fn::GetAtt').map((part) => resolve(part, context));
      if (parts.length !== 2) fail(`Fn::GetAtt takes [LogicalId, Attribute], got ${JSON.stringify(argument)}`);
      return context.getAtt(asString(parts[0], 'Fn::GetAtt'), asString(parts[1], 'Fn::GetAtt'));
    }
    case 'Fn::Sub':
      return resolveSub(argument, context);
    case 'Fn::Join': {
      const [delimiter, items] = asList(argument, 'Fn::Join');
      const list = asList(resolve(items, context), 'Fn::Join');
      return list.map((item) => asString(item, 'Fn::Join')).join(asString(delimiter, 'Fn::Join'));
    }
    case 'Fn::Select': {
      const [index, items] = asList(argument, 'Fn::Select');
      const list = asList(resolve(items, context), 'Fn::Select');
      const position = Number(resolve(index, context));
      if (!Number.isInteger(position) || position < 0 || position >= list.length) fail(`Fn::Select cannot select nonexistent value at index ${position}`);
      return list[position];
    }
    case 'Fn::Split': {
      const [delimiter, text] = asList(argument, 'Fn::Split');
      return asString(resolve(text, context), 'Fn::Split').split(asString(delimiter, 'Fn::Split'));
    }
    case 'Fn::If': {
      const [condition, whenTrue, whenFalse] = asList(argument, 'Fn::If');
      return resolve(context.condition(asString(condition, 'Fn::If')) ? whenTrue : whenFalse, context);
    }
    case 'Fn::Equals': {
      const [left, right] = asList(argument, 'Fn::Equals').map((item) => resolve(item, context));
      return JSON.stringify(normalize(left)) === JSON.stringify(normalize(right));
    }
    case 'Fn::And':
      return asList(argument, 'Fn::And').every((item) => conditionValue(item, context));
    case 'Fn::Or':
      return asList(argument, 'Fn::Or').some((item) => conditionValue(item, context));
    case 'Fn::Not':
      return !conditionValue(asList(argument, 'Fn::Not')[0], context);
    case 'Fn::FindInMap': {
      const [map, top, second] = asList(argument, 'Fn::FindInMap').map((item) => asString(resolve(item, context), 'Fn::FindInMap'));
      const found = context.mappings[map]?.[top]?.[second];
      if (found === undefined) fail(`Unable to get mapping for ${map}::${top}::${second}`);
      return found;
    }
    case 'Fn::ImportValue':
      return context.importValue(asString(resolve(argument, context), 'Fn::ImportValue'));
    case 'Fn::Base64':
      return Buffer.from(asString(resolve(argument, context), 'Fn::Base64')).toString('base64');
    case 'Fn::GetAZs': {
      const region = asString(resolve(argument, context), 'Fn::GetAZs') || String(context.pseudo['AWS::Region']);
      return AZ_SUFFIXES.slice(0, 3).map((suffix) => `${region}${suffix}`);
    }
    case 'Fn::ToJsonString':
      return JSON.stringify(resolve(argument, context));
    case 'Fn::Length':
      return asList(resolve(argument, context), 'Fn::Length').length;
    default:
      return fail(`Unrecognized function ${name}`);
  }
}

function splitOnce(text: string): string[] {
  const dot = text.indexOf('.');
  return dot === -1 ? [text] : [text.slice(0, dot), text.slice(dot + 1)];
}

function normalize(value: unknown): unknown {
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
}

function conditionValue(item: unknown, context: ResolveContext): boolean {
  const value = resolve(item, context);
  if (typeof value !== 'boolean') fail(`a condition function must resolve to true or false, got ${JSON.stringify(value)}`);
  return value;
}

function resolveSub(argument: unknown, context: ResolveContext): string {
  const [text, variables] = typeof argument === 'string' ? [argument, {}] : asList(argument, 'Fn::Sub');
  const local = resolve(variables ?? {}, context) as Record<string, unknown>;
  return substitute(asString(text, 'Fn::Sub'), (name) => {
    if (Object.hasOwn(local, name)) return asString(local[name], `Fn::Sub variable ${name}`);
    const dot = name.indexOf('.');
    if (dot !== -1 && !name.startsWith('AWS::')) return asString(context.getAtt(name.slice(0, dot), name.slice(dot + 1)), `Fn::Sub \${${name}}`);
    const value = refValue(name, context);
    return Array.isArray(value) ? value.join(',') : asString(value, `Fn::Sub \${${name}}`);
  });
}
