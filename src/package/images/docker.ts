import { spawn } from 'node:child_process';

/** What one `docker` command printed. */
export interface DockerOutput {
  stdout: string;
  stderr: string;
}

/** A `docker` command that could not start (`missing`) or ended with a failure. */
export class DockerFailure extends Error {
  constructor(
    readonly missing: boolean,
    readonly output: DockerOutput,
    message: string,
  ) {
    super(message);
  }

  /** The line a person needs: docker's last error line (the one that says why), secrets masked. */
  get reason(): string {
    const lines = `${this.output.stderr}\n${this.output.stdout}`.split('\n').map(line => line.trim()).filter(Boolean);
    const errorLine = [...lines].reverse().find(line => /error|cannot|denied|unauthorized|failed|not found|no such/i.test(line));
    return errorLine ?? lines.at(-1) ?? this.message;
  }

  /** Docker's CLI runs but its daemon does not answer. */
  get daemonDown(): boolean {
    return /Cannot connect to the Docker daemon|Is the docker daemon running|error during connect|docker daemon is not running/i.test(`${this.output.stderr}\n${this.output.stdout}`);
  }
}

/**
 * Runs the `docker` CLI found on PATH in `cwd`, with `input` on its stdin (how the registry
 * password reaches `docker login`: never on the command line). Resolves with its output when it
 * exits 0; `secrets` never appear in what a failure carries.
 */
export function runDocker(args: string[], options: { cwd: string; input?: string; secrets?: string[] }): Promise<DockerOutput> {
  const mask = (text: string) => (options.secrets ?? []).filter(Boolean).reduce((masked, secret) => masked.split(secret).join('****'), text);
  return new Promise((resolve, reject) => {
    const child = spawn('docker', args, { cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    // A command that stops reading its stdin early must not fail the write.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
    child.on('error', (error: NodeJS.ErrnoException) => {
      const missing = error.code === 'ENOENT';
      reject(new DockerFailure(missing, { stdout: '', stderr: '' }, missing ? '"docker" was not found on PATH' : mask(error.message)));
    });
    child.on('close', code => {
      const output = { stdout: mask(stdout), stderr: mask(stderr) };
      if (code === 0) resolve(output);
      else reject(new DockerFailure(false, output, `docker ${args[0]} exited with ${code}`));
    });
  });
}
