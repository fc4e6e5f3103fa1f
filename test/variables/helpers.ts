import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { resolveVariables, type ResolveContext } from '../../src/variables';

/** A throwaway service folder holding `files`; removed by `cleanup()`. */
export function serviceDir(files: Record<string, string> = {}): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'fw-vars-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function resolve(
  raw: Record<string, unknown>,
  context: Partial<ResolveContext> & { files?: Record<string, string> } = {},
): Promise<Record<string, unknown>> {
  const { files, ...rest } = context;
  const folder = serviceDir(files);
  try {
    return await resolveVariables(raw, { serviceDir: folder.dir, options: {}, env: {}, instanceId: 'run-1', ...rest });
  } finally {
    folder.cleanup();
  }
}

/** The message of the error `run` throws (fails when it does not throw). */
export async function errorOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected an error, none was thrown');
}
