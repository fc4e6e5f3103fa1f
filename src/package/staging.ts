import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isRunning } from '../processes';

/** `.serverless.tmp-<pid>` (being written) and `.serverless.old-<pid>` (being swapped out): one run's own folders. */
const RUN_FOLDER = /^\.serverless\.(tmp|old)-(\d+)$/;


/** Removes the staging folders of runs that were killed (their process no longer exists). Returns their names. */
export function removeStaleStaging(serviceDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(serviceDir);
  } catch {
    return [];
  }
  const stale = names.filter(name => {
    const pid = Number(RUN_FOLDER.exec(name)?.[2]);
    return pid > 0 && pid !== process.pid && !isRunning(pid);
  });
  for (const name of stale) rmSync(join(serviceDir, name), { recursive: true, force: true });
  return stale;
}

/**
 * While packaging writes into `staging`, Ctrl-C (SIGINT) or SIGTERM removes it and ends
 * the process with 130 and one line, instead of leaving up to hundreds of MB behind.
 * Returns the function that stops listening once packaging is over.
 */
export function removeStagingOnSignal(staging: string, stderr: NodeJS.WritableStream = process.stderr): () => void {
  const stop = (signal: NodeJS.Signals) => {
    rmSync(staging, { recursive: true, force: true });
    stderr.write(`\nInterrupted (${signal}) while packaging; removed the unfinished ${staging}.\n`);
    process.exit(130);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  };
}
