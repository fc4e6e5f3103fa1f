import { existsSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { ConfigError } from '../errors';
import { checkReadableFile } from './read-file';

/** fw's own names first, then Serverless Framework's, so existing projects work unchanged. */
export const SERVICE_FILE_NAMES = [
  'fw.yml', 'fw.yaml', 'fw.json', 'fw.js', 'fw.mjs', 'fw.cjs', 'fw.ts',
  'serverless.yml', 'serverless.yaml', 'serverless.json', 'serverless.js', 'serverless.mjs', 'serverless.cjs', 'serverless.ts',
];

export interface ServiceFile {
  /** Absolute path of the service file. */
  path: string;
  /** The folder it lives in: the service root. */
  dir: string;
}

/** The service file named by `--config`, or the first known name in `cwd`. */
export function findServiceFile(cwd: string, explicit?: string): ServiceFile {
  if (explicit !== undefined) {
    const path = resolve(cwd, explicit);
    if (!existsSync(path)) throw new ConfigError(`Service file "${explicit}" (--config) does not exist`);
    checkReadableFile(path, explicit);
    return { path, dir: dirname(path) };
  }
  for (const name of SERVICE_FILE_NAMES) {
    const path = resolve(cwd, name);
    if (!existsSync(path)) continue;
    // Refused before anything reads it: a FIFO or device named fw.yml would block the first read.
    checkReadableFile(path, name);
    return { path, dir: cwd };
  }
  throw new ConfigError(
    `No service file in ${cwd}: expected one of ${SERVICE_FILE_NAMES.slice(0, 3).join(', ')} (or serverless.yml); run "fw" to create a service`,
  );
}

export function serviceFileName(file: ServiceFile): string {
  return basename(file.path);
}
