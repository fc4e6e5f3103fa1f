import { spawnSync } from 'node:child_process';

/**
 * Which program runs a Python function, and whether runtimes run on the version they name.
 * A `python3.12` function runs on `python3.12` when the PATH has it, else on `python3`; a Node.js
 * function runs on the Node.js that runs the local cloud. What runs on another version than the
 * runtime's is said once at deploy (deploy-report.ts), never silently.
 */
export interface Interpreter {
  command: string;
  /** The major.minor version that runs, or undefined when the program is missing. */
  version: string | undefined;
}

const found = new Map<string, Interpreter>();

function pythonVersion(command: string): string | undefined {
  const run = spawnSync(command, ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], { encoding: 'utf8', timeout: 10_000 });
  return run.status === 0 ? run.stdout.trim() : undefined;
}

/** The program a Python runtime runs on (looked up once per runtime). */
export function pythonInterpreter(runtime: string): Interpreter {
  let interpreter = found.get(runtime);
  if (!interpreter) {
    // Asked for its version, not looked up on the PATH: a pyenv shim can be there under the runtime's name without running it.
    const exact = /^python(\d+\.\d+)$/.exec(runtime);
    const version = exact ? pythonVersion(runtime) : undefined;
    interpreter = exact && version === exact[1] ? { command: runtime, version } : { command: 'python3', version: pythonVersion('python3') };
    found.set(runtime, interpreter);
  }
  return interpreter;
}

/** What of the runtime is not what runs it locally, in a few words, or undefined when it is the runtime's own version. */
export function runtimeMismatch(runtime: string): string | undefined {
  const python = /^python(\d+(?:\.\d+)?)$/.exec(runtime);
  if (python) {
    const { version } = pythonInterpreter(runtime);
    if (version === undefined) return `runtime ${runtime} not run: no python3 on the PATH; invoking it fails`;
    return version === python[1] ? undefined : `runtime ${runtime} runs on Python ${version} here (no ${runtime} on the PATH)`;
  }
  const node = /^nodejs(\d+)\.x$/.exec(runtime);
  const running = process.versions.node.split('.')[0];
  if (node && node[1] !== running) return `runtime ${runtime} runs on Node.js ${process.versions.node} here (the local cloud's own)`;
  return undefined;
}

/** OS-only runtimes: their executable speaks the Lambda Runtime API (runtime-api-bootstrap.ts). */
export const usesRuntimeApi = (runtime: string): boolean => /^provided(\.al2|\.al2023)?$/.test(runtime) || runtime === 'go1.x';

/** Whether the local cloud runs functions of this runtime: Node.js, Python, and those of the Runtime API. */
export const runsLocally = (runtime: string): boolean => /^(nodejs|python)/.test(runtime) || usesRuntimeApi(runtime);
