import { readFileSync, statSync } from 'node:fs';
import { ConfigError } from '../errors';

/** The largest service file, or file read by `${file(…)}`: far above any real one, far below what would stall a run. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

/**
 * Refuses what reading would hang on or choke on before it is read: a FIFO, a device such
 * as /dev/zero, a folder, or a file over 10 MB. `shown` is the path as the user wrote it.
 */
export function checkReadableFile(path: string, shown: string): void {
  const stats = statSync(path);
  if (!stats.isFile()) {
    const kind = stats.isDirectory() ? 'a folder' : stats.isFIFO() ? 'a FIFO' : stats.isSocket() ? 'a socket' : 'a device';
    throw new ConfigError(`Cannot read ${shown}: it is ${kind}, not a regular file`);
  }
  if (stats.size > MAX_FILE_BYTES) {
    throw new ConfigError(`Cannot read ${shown}: it is ${(stats.size / 1024 / 1024).toFixed(1)} MB, over the ${MAX_FILE_BYTES / 1024 / 1024} MB a configuration file may have`);
  }
}

/** The file's text, after `checkReadableFile`. */
export function readConfigText(path: string, shown: string): string {
  checkReadableFile(path, shown);
  return readFileSync(path, 'utf8');
}

/** What says a file was not changed since it was read: its size and modification time. */
export function fileStamp(path: string): string {
  const stats = statSync(path);
  return `${stats.size}:${stats.mtimeMs}`;
}

/** The service file's text as last read, with the size and modification time it had. */
let lastServiceFile: { path: string; stamp: string; text: string } | undefined;

/**
 * The service file's text, read from disk once per process while it does not change: the CLI's
 * look for plugins at start and the loading of the configuration share one read.
 */
export function readServiceFileText(path: string, shown: string): string {
  checkReadableFile(path, shown);
  const stamp = fileStamp(path);
  if (lastServiceFile?.path === path && lastServiceFile.stamp === stamp) return lastServiceFile.text;
  const text = readFileSync(path, 'utf8');
  lastServiceFile = { path, stamp, text };
  return text;
}
