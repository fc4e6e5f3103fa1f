import { PassThrough } from 'node:stream';
import { Cli } from 'clipanion';
import { buildCli } from '../../src/cli/main';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs fw's CLI in this process, in `cwd`, capturing what it prints. */
export async function runFw(args: string[], cwd: string, env: Record<string, string> = {}): Promise<CliResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', chunk => (out += chunk));
  stderr.on('data', chunk => (err += chunk));
  const previousCwd = process.cwd();
  const previousEnv: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(env)) {
    previousEnv[key] = process.env[key];
    process.env[key] = value;
  }
  process.chdir(cwd);
  try {
    const code = await buildCli().run(args, { ...Cli.defaultContext, stdin: process.stdin, stdout, stderr });
    return { code, stdout: out, stderr: err };
  } finally {
    process.chdir(previousCwd);
    for (const [key, value] of Object.entries(previousEnv)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}
