import { UsageError } from 'clipanion';

/**
 * A mistake in the user's input: the service file, a flag, a value.
 * Printed as its message alone (no stack trace) and exits 1.
 */
export class ConfigError extends UsageError {
  constructor(message: string) {
    super(message);
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

/** The value in a message, short enough for one line. */
export function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** `Invalid configuration in 'functions.hello.handler': expected "file.function", got "main"` */
export function invalid(path: string, expected: string, got: unknown): ConfigError {
  return new ConfigError(`Invalid configuration in '${path}': expected ${expected}, got ${show(got)}`);
}

/** A failure reported by AWS (or the local cloud), already phrased for the user. */
export class CloudError extends Error {
  readonly clipanion = { type: 'none' } as const;
  constructor(message: string) {
    super(message);
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
