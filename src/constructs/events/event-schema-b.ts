import * as t from '../../config/typanion';
import { anyOf, describe, intrinsicSchema, jsonSchemaOf } from '../../config/json-schema';
import { validateEvent } from './schema';
import { show } from '../../errors';

/**
 * Schema helpers for the event types of group B: typanion validators for the shapes the
 * reference accepts (CloudFormation intrinsics included), and the conversion of
 * typanion's first error into one ConfigError line that names the config path.
 */

/** Records one problem at the validator's current path, as typanion's own validators do. */
function report(state: t.ValidationState | undefined, message: string): false {
  state?.errors?.push(`${state.p ?? '.'}: ${message}`);
  return false;
}

/** `{ Ref: "Name" }` */
export const isRef = t.isObject({ Ref: t.isString() });
/** `{ "Fn::ImportValue": … }` */
export const isImportValue = t.isObject({ 'Fn::ImportValue': t.isUnknown() });

/** Any single-key `{ Ref }` or `{ "Fn::…" }` object: a value CloudFormation computes at deploy time. */
export const isIntrinsic = describe(t.makeValidator<unknown, Record<string, unknown>>({
  test: (value, state): value is Record<string, unknown> => {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const keys = Object.keys(value);
      if (keys.length === 1 && (keys[0] === 'Ref' || keys[0].startsWith('Fn::'))) return true;
    }
    return report(state, `expected a CloudFormation intrinsic ({ Ref } or { "Fn::…" }), got ${show(value)}`);
  },
}), intrinsicSchema());

/** Wraps a validator so that its failure reads `expected <description>, got <value>` (one error, not one per alternative). */
export function expecting<T>(description: string, validator: t.StrictValidator<unknown, T>): t.StrictValidator<unknown, T> {
  return describe(t.makeValidator<unknown, T>({
    test: (value, state): value is T => validator(value) || report(state, `expected ${description}, got ${show(value)}`),
  }), jsonSchemaOf(validator));
}

/**
 * A scalar, or an object checked field by field (so a wrong nested field is named):
 * `healthCheck: true` or `healthCheck: { path: … }`.
 */
export function isScalarOrObject<S, O>(
  description: string,
  scalar: t.StrictValidator<unknown, S>,
  object: t.StrictValidator<unknown, O>,
): t.StrictValidator<unknown, S | O> {
  return describe(t.makeValidator<unknown, S | O>({
    test: (value, state): value is S | O => {
      if (scalar(value)) return true;
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) return object(value, state);
      return report(state, `expected ${description}, got ${show(value)}`);
    },
  }), anyOf([jsonSchemaOf(scalar), jsonSchemaOf(object)]));
}

/** One value or a list of them (the reference coerces a single value into a list). */
export function isOneOrMany<T>(description: string, item: t.StrictValidator<unknown, T>): t.StrictValidator<unknown, T | T[]> {
  return expecting(description, t.isOneOf([item, t.cascade(t.isArray(item), [t.hasMinLength(1)])]));
}

/** `value` as a list: `undefined` → `[]`, a single value → `[value]`. */
export function asList<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** An integer within bounds, as the reference's schema states them. */
export const isIntegerIn = (min: number, max: number) =>
  expecting(`an integer from ${min} to ${max}`, t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(min, max)]));

/** A number within bounds. */
export const isNumberIn = (min: number, max: number) =>
  expecting(`a number from ${min} to ${max}`, t.cascade(t.isNumber(), [t.isInInclusiveRange(min, max)]));

/** Event filter patterns: 1 to 10 objects, each sent to Lambda as a JSON string. */
export const isFilterPatterns = expecting(
  'a list of 1 to 10 filter pattern objects',
  t.cascade(t.isArray(t.isRecord(t.isUnknown())), [t.hasMinLength(1), t.hasMaxLength(10)]),
);

/**
 * An event's object: the listed fields are checked; others are let through, as the
 * reference only warns about them. Its JSON Schema refuses them, as the reference's schema
 * does (see isPartial in src/config/typanion.ts).
 */
export function isEventObject<T extends Record<string, t.AnyStrictValidator>>(fields: T) {
  return describe(t.isObject(fields, { extra: t.isRecord(t.isUnknown()) }), t.objectSchema(fields, undefined));
}

/**
 * Validates `value` against `schema`; the first problem becomes
 * `Invalid configuration in 'functions.f.events[0].msk.batchSize': expected a number, got "ten"`.
 */
export { validateEvent };
