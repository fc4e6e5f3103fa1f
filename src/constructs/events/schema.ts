import * as t from '../../config/typanion';
import { ConfigError } from '../../errors';

/**
 * Checks an event's config against its typanion schema. The first problem becomes one line
 * naming the config path: `Invalid configuration in 'functions.f.events[1].sqs.batchSize':
 * expected a number, got "ten"`. With alternatives (`isOneOf`), the error that got deepest
 * into the value says most about the mistake.
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
  throw new ConfigError(`Invalid configuration in '${path}${best.where}': ${describe(best.message)}`.split('\n')[0]);
}

/** typanion's `Expected a number (got "ten")` → `expected a number, got "ten"`. */
function describe(message: string): string {
  const expected = /^Expected (.*) \(got (.*)\)$/s.exec(message);
  if (expected) return `expected ${lowerFirst(expected[1])}, got ${expected[2] === 'undefined' ? 'nothing' : expected[2]}`;
  const extraneous = /^Extraneous property \(got (.*)\)$/.exec(message);
  if (extraneous) return `unknown property (got ${extraneous[1]})`;
  return lowerFirst(message);
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
