import { any, anyObject, bool, either, list, num, oneOfValues, record, shape, str, type Schema } from '../config/schema';
import type { ConfigSchema } from './types';

type JsonSchema = Record<string, unknown>;

/** A typanion validator (a function) is used as is; a JSON schema (v3 plugins' form) is translated. */
export function toSchema(schema: ConfigSchema): Schema {
  return typeof schema === 'function' ? (schema as Schema) : fromJsonSchema(schema as JsonSchema);
}

/**
 * The subset of JSON schema Serverless v3 plugins write: `type`, `properties`, `required`,
 * `additionalProperties`, `patternProperties` (keys outside `properties` take its schemas; their
 * patterns are not checked), `items`, `enum`, `const`, `anyOf`/`oneOf`. A `$ref` into v3's own
 * definitions (`#/definitions/awsArn`) is accepted as any value: fw checks those places itself.
 */
export function fromJsonSchema(schema: JsonSchema | boolean | undefined): Schema {
  if (schema === undefined || schema === true || schema === null || typeof schema !== 'object') return any;
  if (Array.isArray(schema.enum)) return oneOfValues(schema.enum);
  if ('const' in schema) return oneOfValues([schema.const]);
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(alternatives)) return either(describe(schema), ...alternatives.map(fromJsonSchema));
  if (typeof schema.$ref === 'string') return any;
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];
  if (types.length > 1) return either(describe(schema), ...types.map((type) => fromJsonSchema({ ...schema, type })));
  switch (types[0]) {
    case 'string':
      return str;
    case 'number':
    case 'integer':
      return num;
    case 'boolean':
      return bool;
    case 'null':
      return oneOfValues([null]);
    case 'array':
      return list(fromJsonSchema(schema.items as JsonSchema | undefined));
    case 'object':
      return objectSchema(schema);
    default:
      return schema.properties ? objectSchema(schema) : any;
  }
}

function objectSchema(schema: JsonSchema): Schema {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  // Lift's `constructs`: any id matching its pattern, `additionalProperties: false` for the rest.
  const patterns = Object.values((schema.patternProperties ?? {}) as Record<string, JsonSchema>);
  const additional = patterns.length === 0 ? (schema.additionalProperties as JsonSchema | boolean | undefined) : patterns.length === 1 ? patterns[0] : { anyOf: patterns };
  if (Object.keys(properties).length === 0 && additional !== false) {
    return additional === undefined || additional === true ? anyObject : record(fromJsonSchema(additional));
  }
  return shape(
    Object.fromEntries(Object.entries(properties).map(([key, child]) => [key, fromJsonSchema(child)])),
    {
      required: Array.isArray(schema.required) ? (schema.required as string[]) : [],
      extra: additional === false ? undefined : fromJsonSchema(additional === undefined ? true : additional),
    },
  );
}

function describe(schema: JsonSchema): string {
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [];
  return types.length > 0 ? types.map((type) => `a ${type}`).join(' or ') : 'one of the allowed forms';
}

/** The properties of an object schema (`{ properties: { a: … } }`), each translated. */
export function propertiesOf(schema: ConfigSchema): Record<string, Schema> {
  if (typeof schema === 'function') return {};
  const properties = ((schema as JsonSchema).properties ?? {}) as Record<string, JsonSchema>;
  return Object.fromEntries(Object.entries(properties).map(([key, child]) => [key, fromJsonSchema(child)]));
}
