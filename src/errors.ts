import { UsageError } from 'clipanion';
import { secretValues } from './secrets';

/**
 * A mistake in the user's input: the service file, a flag, a value.
 * Printed as its message alone (no stack trace) and exits 1. Secrets read
 * from ssm:/s3:/cf: are masked in the message however it was built.
 */
export class ConfigError extends UsageError {
  constructor(message: string) {
    super(readable(secretValues.mask(message)));
    this.name = 'ConfigError';
  }

  /**
   * The configuration path the message names (`functions.hello.events[0].sqs.batchSize`), for
   * callers of the library API; undefined for a mistake that is not at one place (a flag, a file).
   */
  get path(): string | undefined {
    return (/^Invalid configuration in '([^']+)'/.exec(this.message) ?? /^Invalid configuration[^\n]*\n {2}- at "([^"]*)"/.exec(this.message))?.[1];
  }
}

/**
 * The last guard on a user error's text, whoever built it: invisible characters escaped (line
 * breaks between listed problems kept) and any run of 120 or more characters without a space
 * (a value, a path with a huge key) cut with `…`.
 */
function readable(message: string): string {
  return escapeInvisible(message, '\n').replace(/\S{120,}/g, (run) => `${run.slice(0, LONGEST_RUN - 1)}…`);
}

const LONGEST_RUN = 120;

/** How long a value shown in a message may be before it is cut with `…`. */
const SHOWN_LENGTH = 80;

/**
 * The value in a message, short enough for one line: JSON-like, a secret as
 * `<secret from ssm:/path>`, characters that would not be seen (control,
 * zero-width, bidirectional) escaped, anything longer than 80 characters cut with `…`.
 */
export function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const secret = secretValues.whole(value);
  if (secret !== undefined) return secret;
  const text = escapeInvisible(secretValues.mask(describe(value)));
  return text.length > SHOWN_LENGTH ? `${text.slice(0, SHOWN_LENGTH - 1)}…` : text;
}

function describe(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return String(value);
    case 'bigint':
      return `${value}n`;
    case 'function':
      return 'a function';
    case 'symbol':
      return value.toString();
    default:
      return jsonWithoutCycles(value);
  }
}

/** JSON.stringify that neither throws on a cycle or a BigInt nor runs long on a huge value. */
function jsonWithoutCycles(value: unknown): string {
  const seen = new WeakSet<object>();
  let budget = 10_000;
  try {
    return JSON.stringify(value, (_key, child: unknown) => {
      if ((budget -= 1) < 0) return undefined;
      if (typeof child === 'bigint') return `${child}n`;
      if (typeof child === 'number' && !Number.isFinite(child)) return String(child);
      if (child !== null && typeof child === 'object') {
        if (seen.has(child)) return '[circular]';
        seen.add(child);
      }
      return child;
    }) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** Characters a terminal shows as nothing (or that reorder the line) as `\u200b`, so the value can be seen and fixed. */
export function escapeInvisible(text: string, keep = ''): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]/g, (char) =>
    keep.includes(char) ? char : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * `functions.hello.events[0]`, for a message: each key escaped and cut at 40 characters,
 * and only the start and end of a very deep path, so the message stays one readable line.
 */
export function showConfigPath(path: readonly string[]): string {
  const segments = path.map((segment, index) => {
    if (/^\d+$/.test(segment)) return `[${segment}]`;
    const key = escapeInvisible(segment);
    const shortened = key.length > 40 ? `${key.slice(0, 39)}…` : key;
    return index === 0 ? shortened : `.${shortened}`;
  });
  return segments.length > 8 ? `${segments.slice(0, 4).join('')}…${segments.slice(-3).join('')}` : segments.join('');
}

/** `Invalid configuration in 'functions.hello.handler': expected "file.function", got "main"` */
export function invalid(path: string, expected: string, got: unknown, didYouMean?: string): ConfigError {
  return new ConfigError(`Invalid configuration in '${path}': expected ${expected}, got ${show(got)}${didYouMean ? ` (did you mean ${show(didYouMean)}?)` : ''}`);
}

/** A failure reported by AWS (or the local cloud), already phrased for the user. */
export class CloudError extends Error {
  readonly clipanion = { type: 'none' } as const;
  constructor(message: string) {
    super(secretValues.mask(message));
    this.name = 'CloudError';
  }
}

/** A stack operation that ended in a failed state: which stack, where it ended, and the first resource that failed and why. */
export class StackError extends CloudError {
  constructor(
    message: string,
    readonly stackName: string,
    readonly status: string,
    readonly resource?: { logicalId: string; type?: string; reason: string },
  ) {
    super(message);
    this.name = 'StackError';
  }

  /** The failed resource of a stack event. */
  static resourceOf(event: { LogicalResourceId?: string; ResourceType?: string; ResourceStatusReason?: string } | undefined): StackError['resource'] {
    return event ? { logicalId: event.LogicalResourceId ?? '', type: event.ResourceType, reason: event.ResourceStatusReason ?? 'no reason given' } : undefined;
  }
}

/** Errors whose message is the whole story for the user. */
export function isUserFacing(error: unknown): error is Error {
  return error instanceof Error && (error as { clipanion?: unknown }).clipanion !== undefined;
}
