/** EventBridge TestEventPattern: the rule matcher PutEvents uses, applied to one event the caller writes. */
import { AwsError } from '../protocol/errors';
import { matchesPattern } from './event-pattern';

/** The fields AWS requires of the tested event (TestEventPattern's `Event` parameter). */
const REQUIRED_EVENT_FIELDS = ['id', 'account', 'source', 'time', 'region', 'resources', 'detail-type'];

const invalidPattern = (reason: string) => new AwsError('InvalidEventPatternException', `Event pattern is not valid. Reason: ${reason}`);

/** A pattern is a JSON object whose leaves are arrays of matchers and whose other values are objects. */
export function parsedEventPattern(text: unknown): Record<string, unknown> {
  let pattern: unknown;
  try {
    pattern = JSON.parse(String(text));
  } catch {
    throw invalidPattern('Filter is not an object');
  }
  if (pattern === null || typeof pattern !== 'object' || Array.isArray(pattern)) throw invalidPattern('Filter is not an object');
  const check = (node: Record<string, unknown>): void => {
    for (const [key, value] of Object.entries(node)) {
      if (Array.isArray(value)) continue;
      if (value === null || typeof value !== 'object') throw invalidPattern(`"${key}" must be an object or an array`);
      check(value as Record<string, unknown>);
    }
  };
  check(pattern as Record<string, unknown>);
  return pattern as Record<string, unknown>;
}

export function testEventPattern(input: Record<string, unknown>): { Result: boolean } {
  const pattern = parsedEventPattern(input.EventPattern);
  let event: unknown;
  try {
    event = JSON.parse(String(input.Event));
  } catch {
    throw new AwsError('ValidationException', 'Parameter Event is not valid.');
  }
  if (event === null || typeof event !== 'object' || Array.isArray(event) || REQUIRED_EVENT_FIELDS.some((field) => !Object.hasOwn(event as object, field))) {
    throw new AwsError('ValidationException', 'Parameter Event is not valid.');
  }
  return { Result: matchesPattern(pattern, event as Record<string, unknown>) };
}
