import { ConfigError } from '../../errors';
import { AwsError } from '../protocol/errors';

/** AWS's default concurrency quota of an account in a Region (Lambda quotas: "Concurrent executions: 1,000"). */
export const DEFAULT_ACCOUNT_CONCURRENCY = 1000;
/** What Lambda keeps unreserved: PutFunctionConcurrency refuses a reservation that leaves less. */
export const UNRESERVED_CONCURRENCY_MINIMUM = 100;
export const CONCURRENCY_LIMIT_ENV = 'FW_LOCAL_CONCURRENCY_LIMIT';

export type ThrottleReason = 'ReservedFunctionConcurrentInvocationLimitExceeded' | 'ConcurrentInvocationLimitExceeded';

/** Lambda's throttle: Invoke answers 429 TooManyRequestsException with the reason, and callers retry as AWS's do. */
export class ThrottledError extends AwsError {
  constructor(readonly reason: ThrottleReason) {
    super('TooManyRequestsException', 'Rate Exceeded.', 429, { Reason: reason, Type: 'User' });
  }
}

export function isThrottle(error: unknown): error is ThrottledError {
  return error instanceof AwsError && error.code === 'TooManyRequestsException';
}

/** `--concurrency-limit` / $FW_LOCAL_CONCURRENCY_LIMIT: a whole number of at least 1. */
export function concurrencyLimitFrom(text: string | undefined, source: string): number {
  if (text === undefined || text === '') return DEFAULT_ACCOUNT_CONCURRENCY;
  const limit = Number(text);
  if (!Number.isInteger(limit) || limit < 1) throw new ConfigError(`Invalid ${source}: expected a whole number of concurrent executions of at least 1, got ${JSON.stringify(text)}`);
  return limit;
}

/**
 * Lambda's concurrency model: every running invocation holds one execution environment; a function
 * with reserved concurrency runs at most that many at once and draws on its reservation only, the
 * others share what the account limit leaves unreserved. An invocation over its limit is refused
 * (throttled), never queued.
 */
export class ConcurrencyLimits {
  private readonly running = new Map<string, number>();
  private unreservedRunning = 0;

  constructor(
    readonly accountLimit: number,
    /** The reservations of all functions (name → ReservedConcurrentExecutions). */
    private readonly reservations: () => Map<string, number>,
  ) {}

  /** Takes a slot for one invocation of `name` (whose reservation is `reserved`), or throws the throttle; the returned function gives it back. */
  acquire(name: string, reserved: number | undefined): () => void {
    const running = this.running.get(name) ?? 0;
    if (reserved !== undefined) {
      if (running >= reserved) throw new ThrottledError('ReservedFunctionConcurrentInvocationLimitExceeded');
    } else if (this.unreservedRunning >= this.unreservedLimit()) {
      throw new ThrottledError('ConcurrentInvocationLimitExceeded');
    }
    this.running.set(name, running + 1);
    if (reserved === undefined) this.unreservedRunning++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const now = (this.running.get(name) ?? 1) - 1;
      if (now === 0) this.running.delete(name);
      else this.running.set(name, now);
      if (reserved === undefined) this.unreservedRunning--;
    };
  }

  /** What functions without a reservation share: the account limit less every reservation. */
  unreservedLimit(): number {
    let reserved = 0;
    for (const value of this.reservations().values()) reserved += value;
    return Math.max(0, this.accountLimit - reserved);
  }
}
