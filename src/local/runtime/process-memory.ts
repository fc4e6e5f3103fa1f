import { readFileSync } from 'node:fs';

/** The process ids a process started (Linux: /proc/PID/task/PID/children), none where that cannot be read. */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * The resident memory of a process and all its descendants, in bytes (Linux /proc: each process's
 * VmRSS from `status`), or undefined where /proc cannot tell (not Linux, the process gone).
 * Pages shared between the processes count once per process, as a cgroup would not: an over-estimate
 * for processes that fork without exec.
 */
export function processTreeResidentBytes(root: number): number | undefined {
  let total = 0;
  const pending = [root];
  let read = false;
  while (pending.length > 0) {
    const pid = pending.pop()!;
    try {
      const kilobytes = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      total += Number(kilobytes ?? 0) * 1024;
      read = true;
    } catch {
      continue;
    }
    pending.push(...childrenOf(pid));
  }
  return read ? total : undefined;
}
