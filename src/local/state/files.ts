import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { guardWrite } from './storage-failure';

/**
 * Everything the local cloud stores (templates, parameters, objects, logs, function
 * code) is readable by its user only: files 0600, folders 0700.
 */
export const PRIVATE_FILE = 0o600;
export const PRIVATE_DIR = 0o700;

/** Creates a folder (and missing parents) readable by this user only; an existing one is narrowed to 0700. */
export function makePrivateDir(dir: string): void {
  guardWrite(dir, () => mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR }));
  try {
    chmodSync(dir, PRIVATE_DIR);
  } catch {
    // Not ours to change (a shared folder given with --data): what is created inside is still private.
  }
}

/** Writes a file only this user can read. */
export function writePrivateFile(file: string, content: string | Buffer): void {
  guardWrite(file, () => writeFileSync(file, content, { mode: PRIVATE_FILE }));
}

/**
 * Writes a file so that a crash or a concurrent reader never sees half of it:
 * the content goes to a temporary sibling that is then renamed over the target.
 */
export function writeFileAtomic(file: string, content: string | Buffer): void {
  guardWrite(file, () => mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_DIR }));
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writePrivateFile(temporary, content);
    renameSync(temporary, file);
  } catch (error) {
    // A half-written temporary (a full disk) would hold the space the next write needs.
    rmSync(temporary, { force: true });
    throw error;
  }
}

export function writeJsonAtomic(file: string, value: unknown): void {
  writeFileAtomic(file, JSON.stringify(value));
}

export function readJson<T>(file: string, fallback: T): T {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return fallback;
    throw error;
  }
  return JSON.parse(text) as T;
}
