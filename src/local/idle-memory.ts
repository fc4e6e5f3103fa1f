import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** How often the local cloud looks whether it has gone quiet. */
const CHECK_MS = 1_000;
/**
 * Quiet: under 5% of a core over a check. A loaded local cloud uses most of one; an idle one with
 * a hundred warm environments about 2% (watching their memory), with none well under 1%.
 */
const QUIET_CPU_SHARE = 0.05;
/** Quiet checks after a collection (a burst's environments retired between them) before the one that lets V8 shrink the young generation. */
const SETTLE_CHECKS = 5;
/** Worth giving back: the heap has grown this much since it was last given back (or since start). */
const GROWTH_BYTES = 16 * 1024 * 1024;

type CollectGarbage = (options?: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * V8's collector, which Node.js hands out only with --expose-gc: the flag is set for the moment the
 * function is fetched from a new context (what jest does to measure leaks), then unset.
 */
function collector(): CollectGarbage | undefined {
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as CollectGarbage;
  } catch {
    return undefined;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/**
 * Gives the memory a burst of traffic grew back once the local cloud is quiet. V8 keeps the heap it
 * grew under load (the young generation at its largest, old pages of garbage) as long as nothing
 * allocates, and the timers of an idle local cloud keep V8's own memory reducer from seeing it
 * idle: after a 100-client burst an idle local cloud held three times its live data. When a check
 * finds the process quiet and the heap grown since it last gave memory back, it collects the
 * garbage, and where V8 can (Node.js 22 on), shrinks the heap to it ("last resort": the young
 * generation shrunk, free pages returned): tens of milliseconds at a time nothing else is waiting.
 * Returns the function that stops it. `checkMs` and `collected` are for tests.
 */
export function releaseMemoryWhenIdle(options: { checkMs?: number; collected?: (why: 'grown' | 'settled') => void } = {}): () => void {
  const checkMs = options.checkMs ?? CHECK_MS;
  const quietMicros = QUIET_CPU_SHARE * checkMs * 1000;
  const collect = collector();
  if (!collect) return () => {};
  let lastCpu = process.cpuUsage();
  let baseline = getHeapStatistics().total_heap_size;
  /** Quiet checks since the last collection, or -1 once the one after SETTLE_CHECKS ran. */
  let quietSince = -1;
  const release = () => {
    // A full collection (Node.js 20's V8 runs none when given options), then the memory-reducing
    // one (V8 12 and later: Node.js 22 on).
    collect();
    collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    baseline = getHeapStatistics().total_heap_size;
    lastCpu = process.cpuUsage();
  };
  const timer = setInterval(() => {
    const cpu = process.cpuUsage(lastCpu);
    lastCpu = process.cpuUsage();
    if (cpu.user + cpu.system > quietMicros) return;
    if (getHeapStatistics().total_heap_size >= baseline + GROWTH_BYTES) {
      release();
      quietSince = 0;
      options.collected?.('grown');
    } else if (quietSince >= 0 && ++quietSince >= SETTLE_CHECKS) {
      // Once the burst is seconds behind, V8 measures a low allocation rate and gives back the
      // young generation it grew for the burst (32 of Node.js 20's 34 MB), which it keeps while
      // the rate it measured is high, as it still is right after the burst.
      release();
      quietSince = -1;
      options.collected?.('settled');
    }
  }, checkMs);
  timer.unref();
  return () => clearInterval(timer);
}
