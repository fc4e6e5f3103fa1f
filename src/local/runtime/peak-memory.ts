import { readFileSync } from 'node:fs';

/**
 * A function environment's peak memory, as Lambda's REPORT line says it (Max Memory Used, in MB):
 * the peak resident set (VmHWM) of the process that runs the function and every process under it
 * (the shell it is started through, what it spawned). Linux only, where /proc says it; undefined
 * elsewhere or once the processes are gone.
 */
export function peakMemoryMb(pid: number | undefined): number | undefined {
  if (pid === undefined || process.platform !== 'linux') return undefined;
  let kilobytes = 0;
  const seen = new Set<number>();
  const visit = (current: number) => {
    if (seen.has(current)) return;
    seen.add(current);
    try {
      const peak = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${current}/status`, 'utf8'))?.[1];
      kilobytes += Number(peak ?? 0);
      for (const child of readFileSync(`/proc/${current}/task/${current}/children`, 'utf8').split(' ')) if (child.trim()) visit(Number(child));
    } catch {
      // The process ended meanwhile: what it used is no longer known.
    }
  };
  visit(pid);
  return kilobytes > 0 ? Math.ceil(kilobytes / 1024) : undefined;
}
