import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isUserFacing } from '../../src/errors';
import { packageService } from '../../src/package/service';
import type { Mutant } from './fuzz-mutants';

/** How a mutant ended: packaged, or refused with this message. */
export type Outcome = { ok: true } | { ok: false; message: string; userFacing: boolean } | { hang: true };

/** The bin script of the built CLI, from dist/test/config. */
export const FW_BIN = join(__dirname, '..', '..', '..', 'bin', 'fw.js');

function writeService(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'fw-fuzz-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

/**
 * Runs load → resolve → validate → build → package in this process, warnings swallowed,
 * with a time limit (a hang is a finding, not a stuck suite).
 */
export async function runInProcess(mutant: Mutant, timeoutMs = 5000): Promise<Outcome> {
  const dir = writeService(mutant.files);
  const write = process.stderr.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  // In a test process something always keeps Node busy, so a never-settling config meets the timeout.
  const configTimeout = process.env.FW_CONFIG_TIMEOUT;
  process.env.FW_CONFIG_TIMEOUT = '0.3';
  let timer: NodeJS.Timeout | undefined;
  try {
    const work = packageService({ cwd: dir, options: {}, now: new Date(0) }).then(
      (): Outcome => ({ ok: true }),
      (error: unknown): Outcome => ({ ok: false, message: describeError(error), userFacing: isUserFacing(error) }),
    );
    const limit = new Promise<Outcome>((resolve) => {
      timer = setTimeout(() => resolve({ hang: true }), timeoutMs);
    });
    return await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
    process.stderr.write = write;
    if (configTimeout === undefined) delete process.env.FW_CONFIG_TIMEOUT;
    else process.env.FW_CONFIG_TIMEOUT = configTimeout;
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The same through the built CLI (`fw package` in a child process); `FW_CONFIG_TIMEOUT` kept short. */
export async function runCli(mutant: Mutant, timeoutMs = 20_000): Promise<Outcome & { code?: number | null; output?: string }> {
  const dir = writeService(mutant.files);
  try {
    const child = spawn(process.execPath, [FW_BIN, 'package'], { cwd: dir, env: { ...Object.fromEntries(Object.entries(process.env).filter(([key]) => key !== 'FORCE_COLOR')), FW_CONFIG_TIMEOUT: '1', NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null | 'hang'>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve('hang');
      }, timeoutMs);
      child.on('close', (exit) => {
        clearTimeout(timer);
        resolve(exit);
      });
    });
    if (code === 'hang') return { hang: true };
    if (code === 0 && /Packaged/.test(stdout)) return { ok: true, code, output: stdout + stderr };
    // Warnings may come first; the error is the last thing printed.
    const start = stderr.search(/^(Error: |Internal error)/m);
    const message = (start === -1 ? stderr : stderr.slice(start)).replace(/^Error: /, '').replace(/\n$/, '');
    return { ok: false, message, userFacing: start !== -1 && stderr.startsWith('Error: ', start), code, output: stdout + stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const STACK_LINE = /^\s+at .+(:\d+:\d+\)?|\(native\)|<anonymous>\)?)$/m;
/** One problem per line after a heading (`Invalid configuration (configValidationMode: error):`). */
const LIST = /^[^\n]*:\n(  - [^\n]*\n?)+$/;
/** A syntax error's line, marked, with a caret under the column, between up to two lines before and after (`> 4 |   stage: "dev` / `    |          ^`). */
const CODE_FRAME = /^Cannot parse [^\n]*\n(  +\d+ \|[^\n]*\n){0,2}> +\d+ \| [^\n]*\n  +\| *\^(\n  +\d+ \|[^\n]*){0,2}$/;
/** A message line longer than this echoes a value it should have cut with `…`. */
const LONGEST_LINE = 600;

/** Why the outcome is not clean (a stack trace, a hang, a silent exit, an uncut value), or undefined. */
export function verdict(outcome: Outcome & { code?: number | null }): string | undefined {
  if ('hang' in outcome) return 'hangs';
  if (outcome.ok) return undefined;
  if (!outcome.userFacing) return `not a user error: ${outcome.message.split('\n').slice(0, 4).join(' | ')}`;
  if (outcome.code === 0) return 'exits 0 without packaging';
  if (/Internal error/.test(outcome.message) || STACK_LINE.test(outcome.message)) return `stack trace: ${outcome.message.slice(0, 300)}`;
  if (outcome.message.includes('\n') && !LIST.test(outcome.message) && !CODE_FRAME.test(outcome.message)) return `more than one line: ${JSON.stringify(outcome.message.slice(0, 300))}`;
  const long = outcome.message.split('\n').find((line) => line.length > LONGEST_LINE);
  if (long) return `a line of ${long.length} characters: ${JSON.stringify(long.slice(0, 200))}…`;
  return undefined;
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return isUserFacing(error) ? error.message : (error as Error).stack ?? (error as Error).message;
}
