/**
 * Lambda's asynchronous invocation: what Invoke with `InvocationType: Event` and the services that
 * invoke functions that way (S3, SNS, EventBridge, schedules) hand over. As Lambda does, the event
 * is queued and acknowledged, then run:
 * - a function error is retried `MaximumRetryAttempts` times (2 unless the function's event invoke
 *   configuration says otherwise), one minute before the second attempt and two before the third;
 * - a throttle is retried with a growing wait, without spending a retry attempt;
 * - an event older than `MaximumEventAgeInSeconds` (6 hours unless configured) is not run again;
 * - the outcome goes to the configured destination (OnSuccess / OnFailure: an SQS queue, SNS
 *   topic, function or event bus) as Lambda's invocation record, and an event that finally fails
 *   goes to the function's dead-letter queue or topic (`DeadLetterConfig`).
 * Acknowledged events are journaled (state/async-invocations.jsonl) before the acknowledgement, so
 * a restart of the local cloud runs what had not run yet, as Lambda's queue survives.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { InvokeOutcome } from '../service-interfaces';
import { writeFileAtomic } from '../state/files';
import { appendJsonLine, readJsonLines } from '../state/json-lines';

/** What the queue needs to know of a function when it runs one of its events. */
export interface AsyncSettings {
  /** The ARN Lambda's invocation record names: the function's, with the version or alias run. */
  functionArn: string;
  maxRetries: number;
  maxAgeMs: number;
  onSuccess?: string;
  onFailure?: string;
  deadLetter?: string;
}

export interface AsyncHost {
  invoke(reference: string, event: unknown, qualifier: string | undefined, requestId: string): Promise<InvokeOutcome>;
  /** The settings of the function, or undefined when it no longer exists (its events are dropped). */
  settings(reference: string, qualifier: string | undefined): AsyncSettings | undefined;
  /** Sends to a destination by ARN; for an event bus, `entry` gives the event's source and detail type. */
  deliver(arn: string, message: string, entry?: { source: string; detailType: string; resources: string[] }, attributes?: Record<string, { DataType: string; StringValue?: string }>): void;
  isThrottle(error: unknown): boolean;
  log(line: string): void;
}

interface Queued {
  id: string;
  reference: string;
  qualifier?: string;
  event: unknown;
  queuedAt: number;
  /** Attempts that ran the function (a throttle is not one). */
  attempts: number;
}

type JournalLine = { queued: Queued } | { attempts: [string, number] } | { done: string };

/** The wait before a function error's retry: one minute before the second attempt, two before the third (`FW_LOCAL_ASYNC_RETRY_SECONDS` sets the minute). */
function retryDelayMs(attempts: number): number {
  const unit = Number(process.env.FW_LOCAL_ASYNC_RETRY_SECONDS);
  return (Number.isFinite(unit) && unit >= 0 ? unit : 60) * 1000 * attempts;
}

const FIRST_THROTTLE_DELAY_MS = 1_000;
const MAX_THROTTLE_DELAY_MS = 300_000;
/** Journal lines of finished events after which the journal is rewritten with the pending ones only. */
const COMPACT_AFTER = 1_000;

export class AsyncInvocations {
  private readonly file: string;
  private readonly pending = new Map<string, Queued>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private finished = 0;
  private closed = false;

  constructor(
    dataDir: string,
    private readonly host: AsyncHost,
  ) {
    this.file = join(dataDir, 'state', 'async-invocations.jsonl');
    this.load();
    // What was queued before a restart runs once the local cloud has started.
    for (const entry of this.pending.values()) this.later(entry, 500);
  }

  /** Queues an event (journaled before this returns) and runs it soon. */
  enqueue(reference: string, event: unknown, qualifier?: string): string {
    const entry: Queued = { id: randomUUID(), reference, ...(qualifier !== undefined ? { qualifier } : {}), event, queuedAt: Date.now(), attempts: 0 };
    this.pending.set(entry.id, entry);
    this.append({ queued: entry });
    this.later(entry, 0);
    return entry.id;
  }

  /** Stops running events; those not finished stay in the journal for the next start. */
  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private later(entry: Queued, delayMs: number, throttleDelayMs = FIRST_THROTTLE_DELAY_MS): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.run(entry, throttleDelayMs);
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  private async run(entry: Queued, throttleDelayMs: number): Promise<void> {
    if (this.closed) return;
    const settings = this.host.settings(entry.reference, entry.qualifier);
    if (!settings) {
      this.host.log(`async invoke of ${entry.reference} dropped: the function no longer exists`);
      return this.finish(entry);
    }
    const age = () => Date.now() - entry.queuedAt;
    let outcome: InvokeOutcome;
    try {
      outcome = await this.host.invoke(entry.reference, entry.event, entry.qualifier, entry.id);
    } catch (error) {
      if (this.closed) return;
      if (!this.host.isThrottle(error)) {
        this.host.log(`async invoke of ${entry.reference} failed: ${(error as Error).message}`);
        return this.finish(entry);
      }
      if (age() + throttleDelayMs > settings.maxAgeMs) {
        this.host.log(`async invoke of ${entry.reference} dropped: throttled until the event was older than its maximum age`);
        this.failed(entry, settings, 'EventAgeExceeded', undefined);
        return this.finish(entry);
      }
      return this.later(entry, throttleDelayMs, Math.min(MAX_THROTTLE_DELAY_MS, throttleDelayMs * 2));
    }
    entry.attempts += 1;
    if (!outcome.functionError) {
      if (settings.onSuccess) this.toDestination(settings.onSuccess, this.record(entry, settings, 'Success', outcome), true);
      return this.finish(entry);
    }
    const delay = retryDelayMs(entry.attempts);
    if (entry.attempts <= settings.maxRetries && age() + delay <= settings.maxAgeMs) {
      this.append({ attempts: [entry.id, entry.attempts] });
      return this.later(entry, delay);
    }
    this.failed(entry, settings, entry.attempts <= settings.maxRetries ? 'EventAgeExceeded' : 'RetriesExhausted', outcome);
    this.finish(entry);
  }

  /** An event that will not run again: its on-failure destination, else its dead-letter queue or topic. */
  private failed(entry: Queued, settings: AsyncSettings, condition: string, outcome: InvokeOutcome | undefined): void {
    if (settings.onFailure) {
      this.toDestination(settings.onFailure, this.record(entry, settings, condition, outcome), false);
    } else if (settings.deadLetter) {
      const message = outcome ? errorMessageOf(outcome) : 'Event age exceeded';
      try {
        this.host.deliver(settings.deadLetter, JSON.stringify(entry.event), undefined, {
          RequestID: { DataType: 'String', StringValue: entry.id },
          ErrorCode: { DataType: 'Number', StringValue: '200' },
          ErrorMessage: { DataType: 'String', StringValue: message.slice(0, 1024) },
        });
      } catch (error) {
        this.host.log(`async invoke of ${entry.reference}: its dead-letter target ${settings.deadLetter} could not be reached: ${(error as Error).message}`);
      }
    }
  }

  /** Lambda's invocation record, what a destination receives. */
  private record(entry: Queued, settings: AsyncSettings, condition: string, outcome: InvokeOutcome | undefined): Record<string, unknown> {
    return {
      version: '1.0',
      timestamp: new Date().toISOString(),
      requestContext: { requestId: entry.id, functionArn: settings.functionArn, condition, approximateInvokeCount: entry.attempts },
      requestPayload: entry.event,
      ...(outcome
        ? {
            responseContext: { statusCode: 200, executedVersion: settings.functionArn.split(':').pop() === '$LATEST' ? '$LATEST' : settings.functionArn.split(':').pop(), ...(outcome.functionError ? { functionError: outcome.functionError } : {}) },
            responsePayload: parsed(outcome.payload),
          }
        : {}),
    };
  }

  private toDestination(arn: string, record: Record<string, unknown>, success: boolean): void {
    const functionArn = String((record.requestContext as { functionArn: string }).functionArn);
    try {
      this.host.deliver(arn, JSON.stringify(record), { source: 'lambda', detailType: `Lambda Function Invocation Result - ${success ? 'Success' : 'Failure'}`, resources: [arn, functionArn.replace(/:\$LATEST$/, '')] });
    } catch (error) {
      this.host.log(`async invoke: destination ${arn} could not be reached: ${(error as Error).message}`);
    }
  }

  private finish(entry: Queued): void {
    this.pending.delete(entry.id);
    this.append({ done: entry.id });
    if (++this.finished >= COMPACT_AFTER) this.compact();
  }

  private append(line: JournalLine): void {
    appendJsonLine(this.file, line);
  }

  private compact(): void {
    this.finished = 0;
    writeFileAtomic(this.file, [...this.pending.values()].map((entry) => `${JSON.stringify({ queued: entry })}\n`).join(''));
  }

  private load(): void {
    const lines = readJsonLines<JournalLine>(this.file);
    if (lines.length === 0) return;
    for (const line of lines) {
      if ('queued' in line) this.pending.set(line.queued.id, line.queued);
      else if ('attempts' in line) {
        const entry = this.pending.get(line.attempts[0]);
        if (entry) entry.attempts = line.attempts[1];
      } else if ('done' in line) this.pending.delete(line.done);
    }
    this.compact();
  }
}

function parsed(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    return payload;
  }
}

function errorMessageOf(outcome: InvokeOutcome): string {
  const payload = parsed(outcome.payload) as { errorMessage?: unknown } | undefined;
  return typeof payload?.errorMessage === 'string' ? payload.errorMessage : outcome.payload;
}
