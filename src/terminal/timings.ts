/**
 * Where a `fw dev` round's time goes (`FW_DEV_TIMINGS=1` or `--verbose`): the loop opens a round,
 * packaging and the hotswap time their phases with `timed`, and the round prints one line:
 * `Timings: debounce 100 ms, syntax 3 ms, package 180 ms, package/artifacts 90 ms, … = 420 ms`.
 * Outside an open round `timed` only runs the work.
 */
export class RoundTimings {
  private readonly phases: Array<{ name: string; start: number; ms: number }> = [];

  /** `started`: when the round began (performance.now() of the first change of the burst). */
  constructor(private readonly started = performance.now()) {}

  /** A phase that began at `start` (performance.now()) and took `ms`; a part of another is named `outer/part`. */
  add(name: string, ms: number, start = performance.now() - ms): void {
    this.phases.push({ name, start, ms });
  }

  /** One line: each phase in the order it began (a part after its whole), and the time from `started` to now. */
  format(now = performance.now()): string {
    const ordered = [...this.phases].sort((a, b) => a.start - b.start || a.name.length - b.name.length);
    const phases = ordered.map(phase => `${phase.name} ${Math.round(phase.ms)} ms`).join(', ');
    return `Timings: ${phases} = ${Math.round(now - this.started)} ms`;
  }
}

let current: RoundTimings | undefined;

/** Makes `timings` the round that `timed` records into, until `end` is called. */
export function openRound(timings: RoundTimings): { end: () => void } {
  current = timings;
  return { end: () => (current === timings ? (current = undefined) : undefined) };
}

/** Runs `work` (sync or async) and records its duration under `name` in the open round, if any. */
export function timed<T>(name: string, work: () => T): T {
  const round = current;
  if (!round) return work();
  const start = performance.now();
  const result = work();
  if (result instanceof Promise) {
    return result.finally(() => round.add(name, performance.now() - start, start)) as T;
  }
  round.add(name, performance.now() - start, start);
  return result;
}

/** Records under `name` the time from `start` (performance.now()) to now in the open round, if any. */
export function timedSince(name: string, start: number): void {
  current?.add(name, performance.now() - start, start);
}

/** Whether rounds are timed: `FW_DEV_TIMINGS=1` (or any value but 0/empty) or `--verbose`. */
export function timingsWanted(verbose: boolean, env: NodeJS.ProcessEnv = process.env): boolean {
  return verbose || (env.FW_DEV_TIMINGS !== undefined && env.FW_DEV_TIMINGS !== '' && env.FW_DEV_TIMINGS !== '0');
}
