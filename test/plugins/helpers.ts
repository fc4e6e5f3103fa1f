import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Cli } from 'clipanion';
import { buildCliFor } from '../../src/cli/main';
import { clearPluginSession } from '../../src/plugins';
import type { CliResult } from '../helpers/cli';

// esbuild keeps the working directory it was first loaded in for its service process; load it
// here, in the repository, not inside a temp folder a test removes (its later spawns would fail).
require('esbuild');

/** test/fixtures/plugins, from dist/test/plugins. */
export const FIXTURES = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'plugins');

/** A copy of a fixture service in a temp folder (packaging writes .serverless/ into it). */
export function copyFixture(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `fw-plugins-${name}-`));
  cpSync(join(FIXTURES, name), dir, { recursive: true });
  return dir;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Runs fw the way `bin/fw.js` does (plugin commands registered first), in `cwd`, capturing output. */
export async function runFw(args: string[], cwd: string, env: Record<string, string> = {}): Promise<CliResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', chunk => (out += chunk));
  stderr.on('data', chunk => (err += chunk));
  const previousCwd = process.cwd();
  const previousEnv: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries({ NO_COLOR: '1', ...env })) {
    previousEnv[key] = process.env[key];
    process.env[key] = value;
  }
  process.chdir(cwd);
  try {
    const { cli, argv, error } = await buildCliFor(args, cwd);
    if (error) return { code: 1, stdout: out, stderr: `Error: ${error.message}\n` };
    const code = await cli.run(argv, { ...Cli.defaultContext, stdin: process.stdin, stdout, stderr, colorDepth: 1 });
    return { code, stdout: out, stderr: err };
  } finally {
    clearPluginSession();
    process.chdir(previousCwd);
    for (const [key, value] of Object.entries(previousEnv)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}
