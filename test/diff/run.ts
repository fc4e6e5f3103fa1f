import { PassThrough } from 'node:stream';
import { Cli, type CommandClass } from 'clipanion';
import type { CliResult } from '../helpers/cli';

/**
 * Runs fw commands that `buildCli` may not register yet (`fw diff`), in `cwd`, capturing
 * what they print; otherwise the same as `runFw`.
 */
export async function runCommands(commands: CommandClass[], args: string[], cwd: string, env: Record<string, string> = {}): Promise<CliResult> {
  const cli = new Cli({ binaryName: 'fw' });
  for (const command of commands) cli.register(command);
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
    const code = await cli.run(args, { ...Cli.defaultContext, stdin: process.stdin, stdout, stderr });
    return { code, stdout: out, stderr: err };
  } finally {
    process.chdir(previousCwd);
    for (const [key, value] of Object.entries(previousEnv)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}
