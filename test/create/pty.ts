import { spawnSync } from 'node:child_process';

/**
 * Runs a command in a pseudo-terminal (python3's pty module: no native Node addon needed)
 * and types into it: each step waits for `expect` to appear in the output printed since
 * the previous step, then sends `send`. Returns the exit code and everything printed.
 */
export interface PtyStep {
  expect: string;
  send: string;
}

export interface PtyResult {
  code: number | null;
  output: string;
  /** Set when a step's text never appeared. */
  timedOut?: string;
}

const DRIVER = String.raw`
import json, os, pty, re, select, sys, time
spec = json.loads(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    os.chdir(spec["cwd"])
    env = dict(os.environ, **spec["env"])
    env.pop("FORCE_COLOR", None)
    os.execvpe(spec["command"][0], spec["command"], env)
output = b""
def read(seconds):
    global output
    ready, _, _ = select.select([fd], [], [], seconds)
    if not ready:
        return True
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        return False
    if not chunk:
        return False
    output += chunk
    return True
timed_out = None
start = 0
for step in spec["steps"]:
    deadline = time.time() + spec["timeout"]
    pattern = re.compile(re.escape(step["expect"]))
    while True:
        text = output.decode("utf8", "replace")
        found = pattern.search(text, start)
        if found:
            start = found.end()
            break
        if time.time() > deadline or not read(0.05):
            timed_out = step["expect"]
            break
    if timed_out:
        break
    os.write(fd, step["send"].encode("utf8"))
deadline = time.time() + spec["timeout"]
while time.time() < deadline and read(0.05):
    pass
try:
    os.kill(pid, 9) if timed_out else None
except ProcessLookupError:
    pass
_, status = os.waitpid(pid, 0)
code = os.waitstatus_to_exitcode(status)
print(json.dumps({"code": code, "output": output.decode("utf8", "replace"), "timedOut": timed_out}))
`;

export function runInPty(command: string[], options: { cwd: string; steps: PtyStep[]; env?: Record<string, string>; timeoutSeconds?: number }): PtyResult {
  const spec = {
    command,
    cwd: options.cwd,
    steps: options.steps,
    env: { TERM: 'xterm-256color', NO_COLOR: '1', ...options.env },
    timeout: options.timeoutSeconds ?? 10,
  };
  const run = spawnSync('python3', ['-c', DRIVER, JSON.stringify(spec)], { encoding: 'utf8', timeout: (spec.timeout * (spec.steps.length + 2) + 5) * 1000 });
  if (run.status !== 0) throw new Error(`pty driver failed (${run.status ?? run.signal}): ${run.stderr}`);
  const result = JSON.parse(run.stdout) as PtyResult;
  if (result.timedOut === null) delete result.timedOut;
  return result;
}
