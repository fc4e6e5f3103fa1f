import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PRIVATE_DIR } from '../state/files';
import { guardWrite, unlessDiskFull } from '../state/storage-failure';

/** One invocation as CloudWatch counts it in the AWS/Lambda namespace. */
export interface InvocationSample {
  /** When it started (ms since the epoch). */
  timestamp: number;
  functionName: string;
  durationMs: number;
  error: boolean;
  throttled: boolean;
}

const SAMPLES_KEPT = 100_000;
/** Samples reach the file at most this long after their invocation. */
const WRITE_DELAY_MS = 100;

/**
 * The local Lambda runtime's invocation metrics (Invocations, Errors, Throttles, Duration), what the
 * local CloudWatch metrics API answers from. One JSON line per invocation under the data folder, so a
 * command that ran its own local cloud (`fw invoke --local`) leaves them for the next (`fw metrics --local`).
 */
export class InvocationMetrics {
  private readonly file: string;
  private samples?: InvocationSample[];
  /**
   * How many samples at the start of `samples` are past the SAMPLES_KEPT newest and no longer count:
   * dropping the oldest with a splice moved the whole array (800 kB) on every invocation once it was
   * full, a fifth of a busy server's time; it is compacted once the dropped ones are as many as the kept.
   */
  private dropped = 0;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'state', 'invocation-metrics.jsonl');
  }

  record(sample: InvocationSample): void {
    const samples = this.load();
    samples.push(sample);
    if (samples.length - this.dropped > SAMPLES_KEPT) this.dropped = samples.length - SAMPLES_KEPT;
    if (this.dropped >= SAMPLES_KEPT) {
      this.samples = samples.slice(this.dropped);
      this.dropped = 0;
    }
    // Appended in batches: one write per invocation was a tenth of a busy local cloud's time.
    // The line JSON.stringify(sample) would write, without walking the object for it.
    this.unwritten += `{"timestamp":${sample.timestamp},"functionName":${JSON.stringify(sample.functionName)},"durationMs":${sample.durationMs},"error":${sample.error},"throttled":${sample.throttled}}\n`;
    if (this.writeTimer) return;
    this.writeTimer = setTimeout(() => this.flush(), WRITE_DELAY_MS);
    this.writeTimer.unref();
  }

  /** Appends the samples recorded since the last write (the local cloud calls it when it stops). */
  flush(): void {
    clearTimeout(this.writeTimer);
    this.writeTimer = undefined;
    if (!this.unwritten) return;
    const lines = this.unwritten;
    this.unwritten = '';
    // Samples are not worth failing anything for: on a full disk they stay in memory only.
    unlessDiskFull('invocation metrics samples', () => guardWrite(this.file, () => {
      if (!existsSync(dirname(this.file))) mkdirSync(dirname(this.file), { recursive: true, mode: PRIVATE_DIR });
      appendFileSync(this.file, lines, { mode: 0o600 });
    }), () => {});
  }

  private unwritten = '';
  private writeTimer?: NodeJS.Timeout;

  /** The samples of a function (every function when none is named) that started in [start, end). */
  between(start: number, end: number, functionName?: string): InvocationSample[] {
    const samples = this.load();
    const found: InvocationSample[] = [];
    for (let index = this.dropped; index < samples.length; index++) {
      const s = samples[index];
      if (s.timestamp >= start && s.timestamp < end && (functionName === undefined || s.functionName === functionName)) found.push(s);
    }
    return found;
  }

  private load(): InvocationSample[] {
    if (this.samples) return this.samples;
    this.samples = [];
    if (!existsSync(this.file)) return this.samples;
    for (const line of readFileSync(this.file, 'utf8').split('\n')) {
      if (!line) continue;
      try {
        this.samples.push(JSON.parse(line) as InvocationSample);
      } catch {
        // A line cut off by a crash: the others still count.
      }
    }
    return this.samples;
  }
}
