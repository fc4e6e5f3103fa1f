import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isRunning } from '../../processes';
import { writeJsonAtomic } from './files';

/**
 * Where `fw local start` listens, recorded in its data folder while it runs, so that `--local`
 * finds it on whatever port it was given (`fw local start --port 4713`).
 */
export interface RunningEndpoint {
  url: string;
  port: number;
  pid: number;
}

export const ENDPOINT_FILE = 'endpoint.json';

/** Records the endpoint; the returned function removes the record (only if it is still this process's). */
export function recordEndpoint(dataDir: string, endpoint: Omit<RunningEndpoint, 'pid'>): () => void {
  const file = join(dataDir, ENDPOINT_FILE);
  writeJsonAtomic(file, { ...endpoint, pid: process.pid });
  return () => {
    if (readRecord(file)?.pid === process.pid) rmSync(file, { force: true });
  };
}

/** The endpoint recorded in the data folder, when the process that recorded it still runs. */
export function recordedEndpoint(dataDir: string): RunningEndpoint | undefined {
  const record = readRecord(join(dataDir, ENDPOINT_FILE));
  return record && isRunning(record.pid) ? record : undefined;
}

function readRecord(file: string): RunningEndpoint | undefined {
  try {
    const record = JSON.parse(readFileSync(file, 'utf8')) as Partial<RunningEndpoint>;
    return typeof record.url === 'string' && Number.isInteger(record.port) && Number.isInteger(record.pid) ? (record as RunningEndpoint) : undefined;
  } catch {
    return undefined;
  }
}
