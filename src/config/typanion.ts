import * as t from 'typanion';
import { anyOf, describe, jsonSchemaOf, type JsonSchema } from './json-schema';

/**
 * The typanion builders fw's schemas use, each recording the JSON Schema of the validator it
 * returns (src/config/json-schema.ts). Same validators, same types, same errors as typanion's:
 * a schema module imports `* as t from '…/config/typanion'` instead of `'typanion'`.
 */

export type {
  AnyStrictValidator,
  InferType,
  LooseTest,
  LooseValidator,
  StrictTest,
  StrictValidator,
  Trait,
  ValidationState,
} from 'typanion';
export { makeValidator } from 'typanion';

/** Validators that accept `undefined`: properties that may be left out. */
const optional = new WeakSet<object>();

/** Whether an object property checked by `validator` may be left out. */
export const isOptionalProperty = (validator: unknown): boolean => typeof validator === 'function' && optional.has(validator);

export const isUnknown: typeof t.isUnknown = () => describe(t.isUnknown(), {});
export const isString: typeof t.isString = () => describe(t.isString(), { type: 'string' });
export const isNumber: typeof t.isNumber = () => describe(t.isNumber(), { type: 'number' });
export const isBoolean: typeof t.isBoolean = () => describe(t.isBoolean(), { type: 'boolean' });
export const isLiteral = ((expected: unknown) => describe(t.isLiteral(expected), { const: expected })) as typeof t.isLiteral;
export const isEnum = ((values: readonly unknown[] | Record<string, unknown>) =>
  describe(t.isEnum(values as readonly string[]), { enum: Array.isArray(values) ? [...values] : Object.values(values) })) as typeof t.isEnum;

export const isOptional: typeof t.isOptional = (spec) => {
  const validator = describe(t.isOptional(spec), () => jsonSchemaOf(spec));
  optional.add(validator);
  return validator;
};

export const isArray: typeof t.isArray = (spec, options) => describe(t.isArray(spec, options), () => ({ type: 'array', items: jsonSchemaOf(spec) }));

export const isRecord: typeof t.isRecord = (spec, options) => describe(t.isRecord(spec, options), () => ({ type: 'object', additionalProperties: jsonSchemaOf(spec) }));

export const isOneOf = ((specs: t.AnyStrictValidator[], options?: { exclusive?: boolean }) =>
  describe(t.isOneOf(specs, options), () => anyOf(specs.map(jsonSchemaOf)))) as typeof t.isOneOf;

/** `{ type: object, properties, required }`; extra properties as the `extra` validator says, none without one. */
export function objectSchema(props: Record<string, unknown>, extra: unknown): JsonSchema {
  const required = Object.keys(props).filter((key) => !isOptionalProperty(props[key]));
  const schema: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries(Object.entries(props).map(([key, validator]) => [key, jsonSchemaOf(validator)])),
  };
  if (required.length > 0) schema.required = required;
  schema.additionalProperties = extra === undefined || extra === null ? false : (jsonSchemaOf(extra).additionalProperties ?? true);
  return schema;
}

export const isObject = ((props: Record<string, t.AnyStrictValidator>, options?: { extra?: t.AnyStrictValidator | null }) =>
  describe(t.isObject(props, options), () => objectSchema(props, options?.extra))) as typeof t.isObject;

/**
 * Known properties checked, others let through (fw takes them as Serverless v3 does, with no
 * effect). The JSON Schema refuses them, as v3's own schema does, so an editor flags a
 * misspelled field (`batchsize`) that would otherwise be dropped silently.
 */
export const isPartial = ((props: Record<string, t.AnyStrictValidator>) => describe(t.isPartial(props), () => objectSchema(props, undefined))) as typeof t.isPartial;

// Cascading predicates: the constraints they add, merged into the spec's schema by `cascade`.
export const isInteger: typeof t.isInteger = (options) => describe(t.isInteger(options), { type: 'integer' });
export const isInInclusiveRange: typeof t.isInInclusiveRange = (a, b) => describe(t.isInInclusiveRange(a, b), { minimum: a, maximum: b });
export const isAtLeast: typeof t.isAtLeast = (n) => describe(t.isAtLeast(n), { minimum: n });
export const matchesRegExp: typeof t.matchesRegExp = (regExp) => describe(t.matchesRegExp(regExp), { pattern: regExp.source });
export const hasMinLength: typeof t.hasMinLength = (length) => describe(t.hasMinLength(length), { minLength: length });
export const hasMaxLength: typeof t.hasMaxLength = (length) => describe(t.hasMaxLength(length), { maxLength: length });

const FOR_ARRAYS: Record<string, string> = { minLength: 'minItems', maxLength: 'maxItems' };

export const cascade = ((spec: t.AnyStrictValidator, ...rest: unknown[]) => {
  const followups = (Array.isArray(rest[0]) ? rest[0] : rest) as Array<t.LooseTest<unknown>>;
  return describe(t.cascade(spec, followups), () => {
    const base = jsonSchemaOf(spec);
    const merged: JsonSchema = { ...base };
    for (const followup of followups) {
      for (const [keyword, value] of Object.entries(jsonSchemaOf(followup))) {
        merged[base.type === 'array' ? (FOR_ARRAYS[keyword] ?? keyword) : keyword] = value;
      }
    }
    return merged;
  });
}) as typeof t.cascade;
