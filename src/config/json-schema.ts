/**
 * JSON Schema descriptions attached to typanion validators. A typanion validator is a function,
 * so what it accepts cannot be read back from it; the builders fw uses (src/config/typanion.ts,
 * the combinators of src/config/schema.ts and the events' helpers) record here, next to each
 * validator they return, the JSON Schema of what it accepts. `fw schema` assembles the schema
 * of the whole service file from them: one source of truth for validation, editors and types.
 */

/** A JSON Schema (draft-07) node. */
export type JsonSchema = { [keyword: string]: unknown };

/** A schema, or how to make it: most are only ever needed by `fw schema`, so they are made on first use. */
type Description = JsonSchema | (() => JsonSchema);

const descriptions = new WeakMap<object, Description>();

/**
 * Records what `validator` accepts and returns the validator itself. Pass a function where
 * the schema takes work to build (`() => anyOf(…)`): every command builds the validators,
 * only `fw schema` and the editor tests read their schemas.
 */
export function describe<V extends object>(validator: V, schema: Description): V {
  descriptions.set(validator, schema);
  return validator;
}

/**
 * The JSON Schema of a validator. One built without a description (a one-off
 * `makeValidator` inside an event's schema) accepts any value: the editor then checks
 * nothing there, and fw still does.
 */
export function jsonSchemaOf(validator: unknown): JsonSchema {
  if (typeof validator !== 'function') return {};
  const description = descriptions.get(validator);
  if (typeof description !== 'function') return description ?? {};
  const schema = description();
  descriptions.set(validator, schema);
  return schema;
}

/** Whether `validator` was described (tests use it to find gaps). */
export function isDescribed(validator: unknown): boolean {
  return typeof validator === 'function' && descriptions.has(validator);
}

/** Where the service file's schema keeps its shared definitions. */
export const INTRINSIC_REF = '#/definitions/intrinsic';
export const VARIABLE_REF = '#/definitions/variable';

export const intrinsicSchema = (): JsonSchema => ({ $ref: INTRINSIC_REF });

/** A `{ Ref }`, `{ Condition }` or `{ "Fn::…" }` object, one key: a value CloudFormation computes. */
export const INTRINSIC_DEFINITION: JsonSchema = {
  description: 'A CloudFormation intrinsic function: { Ref: … }, { "Fn::GetAtt": … }, { "Fn::Sub": … }, …',
  type: 'object',
  minProperties: 1,
  maxProperties: 1,
  patternProperties: { '^(Ref|Condition|Fn::[A-Za-z0-9]+)$': {} },
  additionalProperties: false,
};

/** A string holding a Serverless `${source:address}` variable, resolved before fw validates. */
export const VARIABLE_DEFINITION: JsonSchema = {
  description: 'A variable such as ${self:custom.x}, ${env:NAME}, ${ssm:/path} or ${param:name}, resolved before validation',
  type: 'string',
  pattern: '\\$\\{.+\\}',
};

/** `anyOf` of the alternatives, flattened: nested `anyOf`s without other keywords become one list. */
export function anyOf(alternatives: JsonSchema[]): JsonSchema {
  const flat = alternatives.flatMap((alternative) => (Object.keys(alternative).length === 1 && Array.isArray(alternative.anyOf) ? (alternative.anyOf as JsonSchema[]) : [alternative]));
  const unique = flat.filter((alternative, index) => flat.findIndex((other) => JSON.stringify(other) === JSON.stringify(alternative)) === index);
  if (unique.some((alternative) => Object.keys(alternative).length === 0)) return {};
  return unique.length === 1 ? unique[0] : { anyOf: unique };
}

/** Whether every string passes `schema` (so a `${…}` variable needs no alternative of its own). */
function acceptsAnyString(schema: JsonSchema): boolean {
  if (Object.keys(schema).length === 0 || schema.$ref === VARIABLE_REF) return true;
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as JsonSchema[]).some(acceptsAnyString);
  const constrained = ['enum', 'const', 'pattern', 'minLength', 'maxLength', 'format', '$ref', 'not', 'allOf'].some((keyword) => keyword in schema);
  return !constrained && (schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string')));
}

const mapValues = (values: Record<string, JsonSchema>, map: (value: JsonSchema) => JsonSchema) =>
  Object.fromEntries(Object.entries(values).map(([key, value]) => [key, map(value)]));

/**
 * A Serverless v3 file may put a `${…}` variable wherever a value goes: resolved before fw
 * validates, it may become a number, a list or an object. Every value position of `schema`
 * (but the root) therefore also accepts a string holding a variable.
 */
export function allowVariables(schema: JsonSchema, isValue = false): JsonSchema {
  const result: JsonSchema = { ...schema };
  if (result.properties) result.properties = mapValues(result.properties as Record<string, JsonSchema>, (child) => allowVariables(child, true));
  if (result.patternProperties) result.patternProperties = mapValues(result.patternProperties as Record<string, JsonSchema>, (child) => allowVariables(child, true));
  if (result.additionalProperties && typeof result.additionalProperties === 'object') result.additionalProperties = allowVariables(result.additionalProperties as JsonSchema, true);
  if (result.items && typeof result.items === 'object') result.items = allowVariables(result.items as JsonSchema, true);
  if (Array.isArray(result.anyOf)) result.anyOf = (result.anyOf as JsonSchema[]).map((alternative) => allowVariables(alternative));
  if (!isValue || acceptsAnyString(result)) return result;
  const { description, ...rest } = result;
  const alternatives = anyOf([rest, { $ref: VARIABLE_REF }]);
  return description === undefined ? alternatives : { description, ...alternatives };
}
