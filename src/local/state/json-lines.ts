import { appendFileSync, existsSync, readFileSync, statSync, truncateSync } from 'node:fs';
import { dirname } from 'node:path';
import { makePrivateDir, PRIVATE_FILE } from './files';
import { guardWrite } from './storage-failure';

/**
 * Append-only logs of JSON lines: one line per write, appended (~13 µs) instead of rewriting a
 * snapshot, replayed on load. A line torn by a crash is skipped: the write it held never answered
 * its client.
 */
export function readJsonLines<T>(file: string): T[] {
  if (!existsSync(file)) return [];
  const values: T[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line === '') continue;
    try {
      values.push(JSON.parse(line) as T);
    } catch {
      // torn by a crash
    }
  }
  return values;
}

/** Folders already made private by this process: a write costs no mkdir and chmod after the first. */
const madeFolders = new Set<string>();

export function appendJsonLine(file: string, value: unknown): void {
  appendJsonLines(file, [value]);
}

/** Appends several values in one write, or none of them (a full disk leaves the file as it was). */
export function appendJsonLines(file: string, values: unknown[]): void {
  if (values.length === 0) return;
  const folder = dirname(file);
  if (!madeFolders.has(folder) || !existsSync(folder)) {
    makePrivateDir(folder);
    madeFolders.add(folder);
  }
  const size = existsSync(file) ? statSync(file).size : 0;
  guardWrite(file, () => {
    try {
      appendFileSync(file, values.map((value) => `${JSON.stringify(value)}\n`).join(''), { mode: PRIVATE_FILE });
    } catch (error) {
      // A line cut short by a full disk would glue the next line onto it: the file goes back to its last whole line.
      if (existsSync(file)) truncateSync(file, size);
      throw error;
    }
  });
}
