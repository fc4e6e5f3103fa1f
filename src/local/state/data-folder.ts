import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isRunning } from '../../processes';
import { PRIVATE_DIR, writeJsonAtomic } from './files';
import { ENDPOINT_FILE, recordedEndpoint } from './running-endpoint';

/**
 * The local cloud's data folder carries a marker that says the local cloud uses it and what was
 * there before, so `fw local reset` removes only what the local cloud made and never a folder
 * someone pointed `--data` at by mistake (`fw local reset --data .` in a thesis folder).
 */
export const MARKER_FILE = '.fw-local-cloud';

/** Where each process running a local cloud on the folder leaves a file named by its pid while it runs. */
const PROCESSES_FOLDER = 'processes';

/** Everything the local cloud writes at the top of its data folder; `fw local reset` removes only these. */
export const LOCAL_CLOUD_ENTRIES: readonly string[] = ['state', 'blobs', 'functions', 'dynamodb', 'kinesis', 'ses', 'issuer', 'runtime', PROCESSES_FOLDER, ENDPOINT_FILE, MARKER_FILE];

interface Marker {
  /** The local cloud made the folder itself (it did not exist, or was empty): reset may remove it once empty. */
  createdFolder: boolean;
  /** Entries that were there before the local cloud first used the folder: never removed. */
  foundThere: string[];
}

/**
 * Marks the folder as the local cloud's, before anything is written into it. A folder an older fw
 * filled (no marker, but the local cloud's stack record) is the local cloud's too; anything else
 * found there is recorded as not ours.
 */
export function claimDataFolder(dataDir: string): void {
  const marker = join(dataDir, MARKER_FILE);
  if (existsSync(marker)) return;
  const entries = existsSync(dataDir) ? readdirSync(dataDir) : [];
  const filledByOlderFw = existsSync(join(dataDir, 'state', 'cloudformation.json'));
  const foundThere = entries.filter((entry) => !(filledByOlderFw && LOCAL_CLOUD_ENTRIES.includes(entry)));
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR });
  const record: Marker = { createdFolder: entries.length === 0 || (filledByOlderFw && foundThere.length === 0), foundThere };
  writeJsonAtomic(marker, record);
}

/** Records that this process runs a local cloud on the folder; the returned function forgets it. */
export function leaseDataFolder(dataDir: string): () => void {
  const folder = join(dataDir, PROCESSES_FOLDER);
  mkdirSync(folder, { recursive: true, mode: PRIVATE_DIR });
  const file = join(folder, String(process.pid));
  writeFileSync(file, '', { mode: 0o600 });
  return () => rmSync(file, { force: true });
}

/** Why the folder cannot be reset now (a local cloud runs on it), else undefined. */
export function dataFolderInUse(dataDir: string): string | undefined {
  const endpoint = recordedEndpoint(dataDir);
  if (endpoint) return `the local cloud at ${endpoint.url} (process ${endpoint.pid}) uses it: stop it first (Ctrl+C in its terminal)`;
  let pids: number[] = [];
  try {
    pids = readdirSync(join(dataDir, PROCESSES_FOLDER)).map(Number).filter(Number.isInteger);
  } catch {
    // No local cloud ever ran with a lease on it.
  }
  const running = pids.find((pid) => isRunning(pid));
  return running === undefined ? undefined : `a local cloud in process ${running} uses it: let that command finish first`;
}

export type ResetPlan = { refused: string } | { remove: string[]; removeFolder: boolean };

/** What `fw local reset` would remove from the folder, or why it refuses. */
export function planReset(dataDir: string): ResetPlan {
  if (!existsSync(dataDir)) return { remove: [], removeFolder: false };
  let marker: Marker;
  try {
    marker = JSON.parse(readFileSync(join(dataDir, MARKER_FILE), 'utf8')) as Marker;
  } catch {
    return { refused: `it holds no ${MARKER_FILE} marker, so the local cloud did not make it` };
  }
  const inUse = dataFolderInUse(dataDir);
  if (inUse) return { refused: inUse };
  const foundThere = new Set(Array.isArray(marker.foundThere) ? marker.foundThere : []);
  const present = readdirSync(dataDir);
  const remove = present.filter((entry) => LOCAL_CLOUD_ENTRIES.includes(entry) && !foundThere.has(entry)).sort();
  const left = present.filter((entry) => !remove.includes(entry));
  return { remove, removeFolder: marker.createdFolder === true && left.length === 0 };
}

/** Carries out a plan from planReset. */
export function resetDataFolder(dataDir: string, plan: { remove: string[]; removeFolder: boolean }): void {
  // The marker goes last: a reset cut short can be run again.
  const ordered = [...plan.remove.filter((entry) => entry !== MARKER_FILE), ...plan.remove.filter((entry) => entry === MARKER_FILE)];
  for (const entry of ordered) rmSync(join(dataDir, entry), { recursive: true, force: true });
  // rmdir, not rm -r: should anything have appeared since the plan, the folder stays.
  if (plan.removeFolder) {
    try {
      rmdirSync(dataDir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOTEMPTY') throw error;
    }
  }
}
