import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { Builtins, type Cli } from 'clipanion';
import { FwCli } from '../../src/cli/fw-cli';
import { CreateCommand, DefaultCommand, type CreateContext } from '../../src/cli/create';

/** The repository root (this file runs from dist/test/create/). */
export const repoRoot = resolve(__dirname, '..', '..', '..');
export const fwBin = join(repoRoot, 'bin', 'fw.js');

const made: string[] = [];

export function tempDir(label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `fw-create-${label}-`));
  made.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Every file under `dir`, relative, sorted; folders end with "/" when empty. */
export function tree(dir: string): string[] {
  const found: string[] = [];
  const visit = (folder: string) => {
    const entries = readdirSync(folder);
    if (entries.length === 0 && folder !== dir) found.push(`${relative(dir, folder)}/`);
    for (const entry of entries) {
      const path = join(folder, entry);
      if (statSync(path).isDirectory()) visit(path);
      else found.push(relative(dir, path));
    }
  };
  visit(dir);
  return found.sort();
}

/** A writable that keeps what is written, at once (a PassThrough would hand it over later). */
export function capture(): Writable & { text(): string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  }) as Writable & { text(): string };
  stream.text = () => Buffer.concat(chunks).toString('utf8');
  return stream;
}

/**
 * The create commands as `fw` registers them, run in-process in `cwd`. DefaultCommand
 * comes first: clipanion's `usage()` shows only the default command's usage when a
 * default command is registered after the documented ones.
 */
export function createCli(): Cli<CreateContext> {
  const cli = new FwCli<CreateContext>({ binaryLabel: 'fw', binaryName: 'fw', binaryVersion: '0.0.0', enableColors: false });
  cli.register(DefaultCommand);
  cli.register(Builtins.HelpCommand);
  cli.register(CreateCommand);
  return cli;
}

export { childEnv } from '../helpers/env';

export async function runCreateCli(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = capture();
  const stderr = capture();
  const stdin = new PassThrough();
  const code = await createCli().run(args, { stdin, stdout, stderr, cwd, env: { NO_COLOR: '1' }, colorDepth: 1 });
  stdin.end();
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}
