import * as t from '../../config/typanion';
import { anyOf, describe, intrinsicSchema, jsonSchemaOf, type JsonSchema } from '../../config/json-schema';
import { validateEvent } from './schema';

/**
 * Schema helpers shared by the cognitoUserPool, eventBridge, cloudFront and websocket events:
 * intrinsic-aware validators and the conversion of typanion's errors into one-line ConfigErrors.
 */

/** `{ Ref: … }` or `{ "Fn::…": … }`, optionally limited to some functions. */
export function isIntrinsic(allowed?: string[]) {
  const description = allowed ? allowed.map(name => `{ ${name} }`).join(' or ') : 'a CloudFormation intrinsic ({ Ref } or { Fn::… })';
  const schema: JsonSchema = allowed
    ? anyOf(allowed.map(name => ({ type: 'object', properties: { [name]: {} }, required: [name], additionalProperties: false })))
    : intrinsicSchema();
  return describe(t.makeValidator<unknown, Record<string, unknown>>({
    test: (value, state): value is Record<string, unknown> => {
      const keys = value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];
      const ok = keys.length === 1 && (allowed ? allowed.includes(keys[0]) : keys[0] === 'Ref' || keys[0].startsWith('Fn::'));
      if (!ok) state?.errors?.push(`${state.p ?? '.'}: Expected ${description} (got ${JSON.stringify(value)})`);
      return ok;
    },
  }), schema);
}

/** A string, or an intrinsic that resolves to one at deploy time. */
export function isStringLike(allowed?: string[]) {
  const intrinsic = isIntrinsic(allowed);
  const what = allowed ? `a string or ${allowed.map(name => `{ ${name} }`).join(' or ')}` : 'a string or a CloudFormation intrinsic ({ Ref } or { Fn::… })';
  return describe(t.makeValidator<unknown, string | Record<string, unknown>>({
    test: (value, state): value is string | Record<string, unknown> => {
      if (typeof value === 'string' || intrinsic(value)) return true;
      state?.errors?.push(`${state.p ?? '.'}: Expected ${what} (got ${JSON.stringify(value)})`);
      return false;
    },
  }), anyOf([{ type: 'string' }, jsonSchemaOf(intrinsic)]));
}

/** Any JSON object (a CloudFormation fragment the event passes through). */
export const isJsonObject = () => t.isRecord(t.isUnknown());

/** An integer in a range. */
export const isIntegerIn = (min: number, max: number) => t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(min, max)]);

/**
 * Checks `value` against `schema`; on failure, a ConfigError naming the config path of the
 * first problem: `Invalid configuration in 'functions.f.events[0].eventBridge.name': expected …`.
 */
export function validate<T extends t.AnyStrictValidator>(schema: T, value: unknown, path: string): t.InferType<T> {
  return validateEvent(schema as t.StrictValidator<unknown, t.InferType<T>>, value, path);
}

/** 1-based position of an event in its function's `events` list, from the construct id `eventBridge2` (3rd event). */
export function eventPosition(id: string): number {
  const match = /(\d+)$/.exec(id);
  if (!match) throw new Error(`Event construct id "${id}" does not end in its index`);
  return Number(match[1]) + 1;
}

/**
 * A value written either as a string or as an object: checked against the form it is written in,
 * so its errors point inside that form (`route: 3` → `.route: Expected a string`).
 */
export function isStringOrObject<S extends t.AnyStrictValidator, O extends t.AnyStrictValidator>(
  description: string,
  forms: { string: S; object: O },
) {
  return describe(t.makeValidator<unknown, t.InferType<S> | t.InferType<O>>({
    test: (value, state): value is t.InferType<S> | t.InferType<O> => {
      if (typeof value === 'string') return forms.string(value, state);
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) return forms.object(value, state);
      state?.errors?.push(`${state.p ?? '.'}: Expected ${description} (got ${JSON.stringify(value)})`);
      return false;
    },
  }), anyOf([jsonSchemaOf(forms.string), jsonSchemaOf(forms.object)]));
}
