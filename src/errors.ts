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

/** Errors whose message is the whole story for the user. */
export function isUserFacing(error: unknown): error is Error {
  return error instanceof Error && (error as { clipanion?: unknown }).clipanion !== undefined;
}
