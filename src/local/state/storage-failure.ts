import { AwsError } from '../protocol/errors';

/** Why a write failed that no retry of the same request can fix until the machine changes: the disk, not the request. */
const STORAGE_REASONS: Record<string, string> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  EFBIG: 'file too large',
  EIO: 'input/output error',
};

/**
 * A write the local cloud could not make durable: the client is told (503 ServiceUnavailable, which
 * SDKs retry) instead of an acknowledgement that a restart would take back, and the log gets one line.
 */
export class StorageFailure extends AwsError {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super('ServiceUnavailable', `The local cloud could not save this write: ${reason} (${file})`, 503);
  }
}

/** The error to throw for one a file system call raised: a StorageFailure for a full or broken disk, else the error itself. */
export function storageFailureOf(error: unknown, file: string): unknown {
  const reason = STORAGE_REASONS[(error as NodeJS.ErrnoException | undefined)?.code ?? ''];
  return reason ? new StorageFailure(file, reason) : error;
}

/** Runs a write, turning a full or broken disk into a StorageFailure. */
export function guardWrite<T>(file: string, write: () => T): T {
  try {
    return write();
  } catch (error) {
    throw storageFailureOf(error, file);
  }
}

/**
 * Runs work that only saves space or time (a compaction, a metrics sample): on a full disk it is
 * skipped, with one line saying so, and everything already stored stays as it was.
 */
export function unlessDiskFull(what: string, work: () => void, warn: (line: string) => void): boolean {
  try {
    work();
    return true;
  } catch (error) {
    if (!(error instanceof StorageFailure)) throw error;
    warn(`${what} skipped: ${error.reason} (${error.file})`);
    return false;
  }
}
