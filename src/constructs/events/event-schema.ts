import * as t from '../../config/typanion';
import { anyOf, describe, intrinsicSchema, jsonSchemaOf, type JsonSchema } from '../../config/json-schema';
import { ConfigError, invalid, show } from '../../errors';
import { isIntrinsic as isIntrinsicValue } from '../../intrinsic';
import type { Json } from '../model';

/**
 * The one schema vocabulary of every event type: typanion validators for the shapes
 * Serverless v3 accepts (CloudFormation intrinsics included), each recording its JSON Schema
 * for `fw schema`, and the conversion of typanion's first error into one ConfigError line
 * naming the config path.
 */

/** Records one problem at the validator's current path, as typanion's own validators do: `Expected <what> (got <value>)`. */
function reject(state: t.ValidationState | undefined, expected: string, value: unknown): false {
  state?.errors?.push(`${state.p ?? '.'}: Expected ${expected} (got ${show(value)})`);
  return false;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

// ---- CloudFormation intrinsics ----

/** `{ Ref: … }` or `{ 'Fn::…': … }`: a value CloudFormation computes at deploy time. */
export type Intrinsic = { Ref: Json } | { [fn: `Fn::${string}`]: Json };

/** `{ Ref } or { Fn::GetAtt }` for `allowed`, else any intrinsic. */
const intrinsicDescription = (allowed?: readonly string[]) =>
  allowed ? allowed.map(name => `{ ${name} }`).join(' or ') : 'a CloudFormation intrinsic ({ Ref } or { "Fn::…" })';

/** A CloudFormation intrinsic; with `allowed`, only those functions (`['Ref', 'Fn::GetAtt']`). */
export function isIntrinsic(allowed?: readonly string[]): t.StrictValidator<unknown, Intrinsic> {
  const schema = (): JsonSchema =>
    allowed ? anyOf(allowed.map(name => ({ type: 'object', properties: { [name]: {} }, required: [name], additionalProperties: false }))) : intrinsicSchema();
  return describe(t.makeValidator<unknown, Intrinsic>({
    test: (value, state): value is Intrinsic => isIntrinsicValue(value, allowed) || reject(state, intrinsicDescription(allowed), value),
  }), schema);
}

/** A string starting with `arn:`. */
export const isArn = () => t.cascade(t.isString(), [t.matchesRegExp(/^arn:/)]);

/** An ARN, or an intrinsic that resolves to one at deploy time; `expected` says which ARN. */
export const isArnOrIntrinsic = (expected: string) => isEither<string | Intrinsic>(expected, [isArn(), isIntrinsic()]);

/** `{ Ref: "Name" }` */
export const isRef = () => t.isObject({ Ref: t.isString() });
/** `{ "Fn::ImportValue": … }` */
export const isImportValue = () => t.isObject({ 'Fn::ImportValue': t.isUnknown() });

/** A string, or an intrinsic (of the `allowed` functions, if given) that resolves to one at deploy time. */
export const isStringLike = (allowed?: readonly string[]) =>
  isEither<string | Intrinsic>(`a string or ${intrinsicDescription(allowed)}`, [
    t.isString(),
    isIntrinsic(allowed),
  ]);

/** Where an intrinsic leads: the `Ref` or `Fn::GetAtt` target, the import name, the last `Fn::Join` part. */
export function intrinsicName(value: Intrinsic): string | undefined {
  const [[fn, argument]] = Object.entries(value);
  if (fn === 'Ref' && typeof argument === 'string') return argument;
  if (fn === 'Fn::GetAtt') {
    if (Array.isArray(argument) && typeof argument[0] === 'string') return argument[0];
    if (typeof argument === 'string') return argument.split('.')[0];
  }
  if (fn === 'Fn::ImportValue' && typeof argument === 'string') return argument;
  if (fn === 'Fn::Join' && Array.isArray(argument) && Array.isArray(argument[1])) {
    const last = argument[1][argument[1].length - 1];
    if (typeof last === 'string') return last;
  }
  return undefined;
}

// ---- One of these forms ----

/** A form checked in depth: a value of its kind (`string` or `object`) gets this form's own errors, which point inside it. */
export interface InDepth<T> {
  kind: 'string' | 'object';
  validator: t.StrictValidator<unknown, T>;
}
export const inDepth = <T>(kind: InDepth<T>['kind'], validator: t.StrictValidator<unknown, T>): InDepth<T> => ({ kind, validator });

type Form<T> = t.StrictValidator<unknown, T> | InDepth<T>;
const validatorOf = <T>(form: Form<T>) => (typeof form === 'function' ? form : form.validator);

/**
 * Matches when one of `forms` does, tried in order. A value no form takes gets one error saying
 * what was `expected` (not one per form), unless a form checked in depth is of its kind:
 * then that form's errors (`healthCheck: { path: 3 }` → `.healthCheck.path: expected a string`).
 */
export function isEither<T>(expected: string, forms: Array<Form<T>>): t.StrictValidator<unknown, T> {
  const ofKind = (kind: InDepth<T>['kind'], value: unknown) => (kind === 'string' ? typeof value === 'string' : isPlainObject(value));
  return describe(t.makeValidator<unknown, T>({
    test: (value, state): value is T => {
      for (const form of forms) {
        if (typeof form === 'function') {
          if (form(value)) return true;
        } else if (ofKind(form.kind, value)) {
          return form.validator(value, state);
        }
      }
      return reject(state, expected, value);
    },
  }), () => {
    const schemas = forms.map(form => jsonSchemaOf(validatorOf(form)));
    return schemas.length === 1 ? schemas[0] : anyOf(schemas);
  });
}

/** `validator`, whose failure reads `expected <description>, got <value>` (one error, not one per alternative). */
export const expecting = <T>(description: string, validator: t.StrictValidator<unknown, T>) => isEither<T>(description, [validator]);

/** One value or a non-empty list of them (the reference coerces a single value into a list). */
export function isOneOrMany<T>(description: string, item: t.StrictValidator<unknown, T>): t.StrictValidator<unknown, T | T[]> {
  return expecting(description, t.isOneOf([item, t.cascade(t.isArray(item), [t.hasMinLength(1)])]));
}

/** `value` as a list: `undefined` → `[]`, a single value → `[value]`. */
export function asList<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

// ---- Objects and numbers ----

/** A JSON object (filter patterns, event patterns, inputs, CloudFormation fragments): any keys, any values. */
export const isJsonObject = () => t.isRecord(t.isUnknown()) as t.StrictValidator<unknown, Record<string, Json>>;

/**
 * An event's object: the listed fields are checked; others are let through, as the
 * reference only warns about them. Its JSON Schema refuses them, as the reference's schema
 * does (see isPartial in src/config/typanion.ts).
 */
export const isEventObject = <T extends Record<string, t.AnyStrictValidator>>(fields: T) => t.isPartial(fields);

/** An integer within bounds, as the reference's schema states them. */
export const isIntegerIn = (min: number, max: number) =>
  expecting(`an integer from ${min} to ${max}`, t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(min, max)]));

/** A number within bounds. */
export const isNumberIn = (min: number, max: number) =>
  expecting(`a number from ${min} to ${max}`, t.cascade(t.isNumber(), [t.isInInclusiveRange(min, max)]));

/** Event filter patterns: 1 to 10 objects, each sent to Lambda as a JSON string. */
export const isFilterPatterns = () =>
  expecting('a list of 1 to 10 filter pattern objects', t.cascade(t.isArray(isJsonObject()), [t.hasMinLength(1), t.hasMaxLength(10)]));

// ---- Checking a config ----

/**
 * Checks an event's config against its schema. The first problem becomes one line naming the
 * config path: `Invalid configuration in 'functions.f.events[1].sqs.batchSize': expected a
 * number, got "ten"`. With alternatives (`isOneOf`), the error that got deepest into the value
 * says most about the mistake.
 */
export function validateEvent<T>(schema: t.StrictValidator<unknown, T>, value: unknown, path: string): T {
  const errors: string[] = [];
  if (schema(value, { errors })) return value as T;
  const parsed = (errors.length > 0 ? errors : ['.: Expected a valid value']).map(error => {
    const match = /^(\.?[^:\s]*?): (.*)$/s.exec(error);
    const where = match ? match[1].replace(/#\d+/g, '') : '';
    return { where: where === '.' ? '' : where.replace(/\.{2,}/g, '.'), message: match ? match[2] : error };
  });
  const depth = (where: string) => (where.match(/[.[]/g) ?? []).length;
  const best = parsed.reduce((a, b) => (depth(b.where) > depth(a.where) ? b : a));
  throw new ConfigError(`Invalid configuration in '${path}${best.where}': ${readable(best.message)}`.split('\n')[0]);
}

/** typanion's `Expected a number (got "ten")` → `expected a number, got "ten"`. */
function readable(message: string): string {
  const expected = /^Expected (.*) \(got (.*)\)$/s.exec(message);
  if (expected) return `expected ${lowerFirst(expected[1])}, got ${expected[2] === 'undefined' ? 'nothing' : expected[2]}`;
  const extraneous = /^Extraneous property \(got (.*)\)$/.exec(message);
  if (extraneous) return `unknown property (got ${extraneous[1]})`;
  return lowerFirst(message);
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/**
 * An event written either as a shorthand (`sqs: arn:…`) or as an object: the object is
 * checked property by property so the message names the property at fault.
 */
export function checkEvent<S, O>(
  config: unknown,
  path: string,
  shorthand: { schema: t.StrictValidator<unknown, S>; expected: string },
  options: t.StrictValidator<unknown, O>,
): { shorthand: S } | { options: O } {
  if (isPlainObject(config) && !isIntrinsicValue(config)) return { options: validateEvent(options, config, path) };
  if (shorthand.schema(config)) return { shorthand: config as S };
  throw invalid(path, shorthand.expected, config);
}

/** 1-based position of an event in its function's `events` list, from the construct id `eventBridge2` (3rd event). */
export function eventPosition(id: string): number {
  const match = /(\d+)$/.exec(id);
  if (!match) throw new Error(`Event construct id "${id}" does not end in its index`);
  return Number(match[1]) + 1;
}
