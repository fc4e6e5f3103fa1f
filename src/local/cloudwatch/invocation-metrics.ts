import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PRIVATE_DIR, writeFileAtomic } from '../state/files';
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
const ERROR = 1;
const THROTTLED = 2;

/**
 * The local Lambda runtime's invocation metrics (Invocations, Errors, Throttles, Duration), what the
 * local CloudWatch metrics API answers from. One JSON line per invocation under the data folder, so a
 * command that ran its own local cloud (`fw invoke --local`) leaves them for the next (`fw metrics --local`).
 *
 * The newest SAMPLES_KEPT are held in a ring of typed arrays (2 MB, whatever the traffic): as an
 * object each, a busy local cloud held 200,000 of them (15 MB) for the collector to walk, and the
 * memory an idle local cloud kept grew with every request it had served. The file is rewritten
 * with the kept samples once it holds twice as many lines, so it stays bounded too.
 */
export class InvocationMetrics {
  private readonly file: string;
  private loaded = false;
  private readonly timestamps = new Float64Array(SAMPLES_KEPT);
  private readonly durations = new Float64Array(SAMPLES_KEPT);
  private readonly flags = new Uint8Array(SAMPLES_KEPT);
  private readonly functions = new Uint32Array(SAMPLES_KEPT);
  private readonly functionNames: string[] = [];
  private readonly functionIndexes = new Map<string, number>();
  /** Where the next sample goes, and how many the ring holds. */
  private next = 0;
  private size = 0;
  /** Lines the file holds (those read on load and those appended since). */
  private lines = 0;
  private unwritten = '';
  private unwrittenCount = 0;
  private writeTimer?: NodeJS.Timeout;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'state', 'invocation-metrics.jsonl');
  }

  record(sample: InvocationSample): void {
    this.load();
    this.add(sample);
    // Appended in batches: one write per invocation was a tenth of a busy local cloud's time.
    // The line JSON.stringify(sample) would write, without walking the object for it.
    this.unwritten += `{"timestamp":${sample.timestamp},"functionName":${JSON.stringify(sample.functionName)},"durationMs":${sample.durationMs},"error":${sample.error},"throttled":${sample.throttled}}\n`;
    this.unwrittenCount++;
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
    const count = this.unwrittenCount;
    this.unwritten = '';
    this.unwrittenCount = 0;
    // Samples are not worth failing anything for: on a full disk they stay in memory only.
    unlessDiskFull('invocation metrics samples', () => guardWrite(this.file, () => {
      if (!existsSync(dirname(this.file))) mkdirSync(dirname(this.file), { recursive: true, mode: PRIVATE_DIR });
      if (this.lines + count > 2 * SAMPLES_KEPT) {
        this.rewrite();
        this.lines = this.size;
      } else {
        appendFileSync(this.file, lines, { mode: 0o600 });
        this.lines += count;
      }
    }), () => {});
  }

  /** The samples of a function (every function when none is named) that started in [start, end). */
  between(start: number, end: number, functionName?: string): InvocationSample[] {
    this.load();
    const wanted = functionName === undefined ? undefined : this.functionIndexes.get(functionName);
    if (functionName !== undefined && wanted === undefined) return [];
    const found: InvocationSample[] = [];
    for (let n = 0; n < this.size; n++) {
      const index = this.slot(n);
      const timestamp = this.timestamps[index];
      if (timestamp < start || timestamp >= end || (wanted !== undefined && this.functions[index] !== wanted)) continue;
      found.push(this.sampleAt(index));
    }
    return found;
  }

  /** Where the ring holds its n-th sample, the oldest being the 0th. */
  private slot(n: number): number {
    return (this.next - this.size + n + SAMPLES_KEPT) % SAMPLES_KEPT;
  }

  private sampleAt(index: number): InvocationSample {
    const flags = this.flags[index];
    return {
      timestamp: this.timestamps[index],
      functionName: this.functionNames[this.functions[index]],
      durationMs: this.durations[index],
      error: (flags & ERROR) !== 0,
      throttled: (flags & THROTTLED) !== 0,
    };
  }

  private add(sample: InvocationSample): void {
    let functionIndex = this.functionIndexes.get(sample.functionName);
    if (functionIndex === undefined) {
      functionIndex = this.functionNames.push(sample.functionName) - 1;
      this.functionIndexes.set(sample.functionName, functionIndex);
    }
    const index = this.next;
    this.timestamps[index] = sample.timestamp;
    this.durations[index] = sample.durationMs;
    this.flags[index] = (sample.error ? ERROR : 0) | (sample.throttled ? THROTTLED : 0);
    this.functions[index] = functionIndex;
    this.next = (index + 1) % SAMPLES_KEPT;
    this.size = Math.min(SAMPLES_KEPT, this.size + 1);
  }

  /** The file with the kept samples only, replacing the one grown to twice as many lines. */
  private rewrite(): void {
    const lines: string[] = [];
    for (let n = 0; n < this.size; n++) lines.push(JSON.stringify(this.sampleAt(this.slot(n))));
    writeFileAtomic(this.file, lines.length ? `${lines.join('\n')}\n` : '');
  }

  private load(): void {
    if (this.loaded) return;
    this.loaded = true;
    if (!existsSync(this.file)) return;
    for (const line of readFileSync(this.file, 'utf8').split('\n')) {
      if (!line) continue;
      this.lines++;
      try {
        const sample = JSON.parse(line) as InvocationSample;
        if (typeof sample.timestamp === 'number' && typeof sample.functionName === 'string') this.add(sample);
      } catch {
        // A line cut off by a crash: the others still count.
      }
    }
  }
}
