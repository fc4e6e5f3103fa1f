import { existsSync } from 'node:fs';
import { readConfigText } from '../config/read-file';
import { join } from 'node:path';

/**
 * `useDotenv: true`: the variables of `.env.{stage}`, or of `.env` when there
 * is no stage file (only one file is read, as in Serverless Framework v3).
 * Values already in the environment win; `$NAME`/`${NAME}` expand.
 */
export function loadDotenv(serviceDir: string, stage: string, env: NodeJS.ProcessEnv): { file?: string; values: Record<string, string> } {
  for (const name of [`.env.${stage}`, '.env']) {
    const path = join(serviceDir, name);
    if (existsSync(path)) return { file: name, values: expand(parseDotenv(readConfigText(path, name)), env) };
  }
  return { values: {} };
}

/** KEY=value lines; `export`, comments, single/double/back quotes and multi-line double quotes as dotenv reads them. */
export function parseDotenv(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  const pattern = /^\s*(?:export\s+)?([\w.-]+)\s*=\s*('(?:\\'|[^'])*'|"(?:\\"|[^"])*"|`(?:\\`|[^`])*`|[^#\r\n]*)?\s*(?:#.*)?$/gm;
  for (const match of text.replace(/\r\n?/g, '\n').matchAll(pattern)) {
    let value = (match[2] ?? '').trim();
    const quote = value[0];
    if ((quote === '"' || quote === "'" || quote === '`') && value.endsWith(quote) && value.length >= 2) {
      value = value.slice(1, -1);
      if (quote === '"') value = value.replace(/\\n/g, '\n').replace(/\\r/g, '\r');
    }
    values[match[1]] = value;
  }
  return values;
}

function expand(values: Record<string, string>, env: NodeJS.ProcessEnv): Record<string, string> {
  const result: Record<string, string> = {};
  const lookup = (name: string): string => env[name] ?? result[name] ?? values[name] ?? '';
  for (const [key, value] of Object.entries(values)) {
    result[key] = value.replace(/(\\)?\$(?:\{([\w.-]+)(?::-([^}]*))?\}|([A-Za-z_]\w*))/g, (whole, escaped?: string, braced?: string, fallback?: string, bare?: string) => {
      if (escaped) return whole.slice(1);
      const found = lookup((braced ?? bare)!);
      return found === '' && fallback !== undefined ? fallback : found;
    });
  }
  return result;
}
