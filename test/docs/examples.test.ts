import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildCli } from '../../src/cli/main';
import { startTestCloud, type TestCloud } from '../helpers/local-cloud';

/**
 * Every shell example in README.md and docs/ is run, or checked as far as it can be without what it needs.
 * A fence says which (```sh <marker>):
 * - ```sh                run: the document's plain blocks in order, in one shell, in a new folder, with the
 *                        built fw on PATH, against one local cloud shared by all documents (it stands for
 *                        `fw local start`, which the PATH's fw answers at once);
 * - ```sh aws            needs an AWS account: each fw command line must be one fw accepts;
 * - ```sh aws-cli        needs the AWS CLI (`npm run interop` drives it): each fw command line must be one fw accepts;
 * - ```sh development    run in a clone of fw: each `npm run`/`npm test` script and `node scripts/…` file must exist;
 * - ```sh cli-reference  a command's own example (docs/reference/cli.md): a command line fw accepts.
 */
const ROOT = join(__dirname, '..', '..', '..');
const FW = join(ROOT, 'bin', 'fw.js');
const MARKERS = new Set(['', 'aws', 'aws-cli', 'development', 'cli-reference']);

interface Block {
  file: string;
  line: number;
  marker: string;
  code: string;
}

function documents(): string[] {
  const docs: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (entry.name.endsWith('.md')) docs.push(relative(ROOT, join(dir, entry.name)));
    }
  };
  walk(join(ROOT, 'docs'));
  return ['README.md', ...docs];
}

function shellBlocks(file: string): Block[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(sh|bash|shell|console)\b ?(.*)$/.exec(lines[i]);
    if (!open) {
      if (lines[i].startsWith('```')) while (++i < lines.length && !lines[i].startsWith('```'));
      continue;
    }
    const start = i;
    const code: string[] = [];
    while (++i < lines.length && !lines[i].startsWith('```')) code.push(lines[i]);
    blocks.push({ file, line: start + 1, marker: open[2].trim(), code: code.join('\n') });
  }
  return blocks;
}

/** The words of a shell command line (quotes removed), without its comment. */
function words(line: string): string[] {
  const out: string[] = [];
  let word = '';
  let quote = '';
  let started = false;
  for (const char of line) {
    if (quote) {
      if (char === quote) quote = '';
      else word += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      started = true;
    } else if (char === '#' && !started) {
      break;
    } else if (/\s/.test(char)) {
      if (started) out.push(word);
      word = '';
      started = false;
    } else {
      word += char;
      started = true;
    }
  }
  if (started) out.push(word);
  return out;
}

/** The fw command lines of a block (`fw …`, `npx fw …`), as argument lists, each up to a shell operator (`|`, `>`, `&&`, …). */
function fwCommands(code: string): string[][] {
  return code
    .split('\n')
    .map(line => words(line.replace(/^\$ /, '')))
    .map(args => {
      const end = args.findIndex(word => /^(?:\||\|\||&&?|;|\d?>>?.*|<.*)$/.test(word));
      return end < 0 ? args : args.slice(0, end);
    })
    .map(args => (args[0] === 'npx' ? args.slice(1) : args))
    .filter(args => args[0] === 'fw')
    .map(args => args.slice(1));
}

const cli = buildCli();
/** Why fw would refuse this command line, or undefined when it accepts it. */
function refusal(args: string[]): string | undefined {
  try {
    cli.process(args);
    return undefined;
  } catch (error) {
    return (error as Error).message.split('\n')[0];
  }
}

const all = documents().flatMap(shellBlocks);
const examples = suite('the shell examples of README.md and docs/');

examples('every shell block says how it is checked', () => {
  assert.equal(all.filter(block => !MARKERS.has(block.marker)).map(block => `${block.file}:${block.line} ${block.marker}`), []);
  assert.ok(all.some(block => block.file === 'README.md' && block.marker === ''), 'README has runnable examples');
});

examples('the examples not run here are command lines fw accepts', () => {
  const refused = all
    .filter(block => block.marker !== '' && block.marker !== 'development')
    .flatMap(block => fwCommands(block.code).map(args => [block, args, refusal(args)] as const))
    .filter(([, , reason]) => reason !== undefined)
    .map(([block, args, reason]) => `${block.file}:${block.line}: fw ${args.join(' ')}: ${reason}`);
  assert.equal(refused, []);
});

examples('the examples in tables (a column named "example") are command lines fw accepts', () => {
  const refused: string[] = [];
  let checked = 0;
  for (const file of documents()) {
    let column = -1;
    readFileSync(join(ROOT, file), 'utf8').split('\n').forEach((line, index) => {
      if (!line.startsWith('|')) return void (column = -1);
      const cells = line.split(/(?<!\\)\|/).slice(1, -1).map(cell => cell.trim());
      if (cells.includes('example')) return void (column = cells.indexOf('example'));
      if (column < 0 || !cells[column]) return;
      for (const [, code] of cells[column].matchAll(/`(fw [^`]+)`/g)) {
        checked++;
        const args = fwCommands(code.replace(/\\\|/g, '|'))[0];
        const reason = args[0]?.includes(':') ? undefined : refusal(args);
        if (reason) refused.push(`${file}:${index + 1}: ${code}: ${reason}`);
      }
    });
  }
  assert.ok(checked >= 30, `${checked} examples found`);
  assert.equal(refused, []);
});

examples('the development examples name scripts and files that exist', () => {
  const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
  const missing: string[] = [];
  for (const block of all.filter(candidate => candidate.marker === 'development')) {
    for (const line of block.code.split('\n')) {
      for (const command of line.split('&&').map(part => words(part))) {
        if (command[0] === 'npm' && command[1] === 'run' && !(command[2] in scripts)) missing.push(`${block.file}:${block.line}: npm run ${command[2]}`);
        if (command[0] === 'npm' && command[1] === 'test' && !scripts.test) missing.push(`${block.file}:${block.line}: npm test`);
        if (command[0] === 'node' && command[1]?.startsWith('scripts/') && !existsSync(join(ROOT, command[1]))) missing.push(`${block.file}:${block.line}: ${command[1]}`);
      }
    }
  }
  assert.equal(missing, []);
});

let cloud: TestCloud;
let work = '';
let bin = '';
examples.before(async () => {
  cloud = await startTestCloud();
  work = mkdtempSync(join(tmpdir(), 'fw-doc-examples-'));
  bin = join(work, 'bin');
  mkdirSync(bin);
  // The built fw, as installed; the shared local cloud stands for `fw local start`.
  writeFileSync(
    join(bin, 'fw'),
    `#!/bin/sh\nif [ "$1 $2" = "local start" ]; then echo "(the examples test's local cloud runs at $FW_LOCAL_PORT)"; exit 0; fi\nexec "${process.execPath}" "${FW}" "$@"\n`,
  );
  chmodSync(join(bin, 'fw'), 0o755);
  // npm test needs only Node.js and npm: where curl or perl is missing, a stand-in in Node.js does
  // what the examples ask of it (curl -s -f -o -w -H URL; perl -pi -e 's/…/…/' FILE).
  for (const [tool, script] of Object.entries(STAND_INS)) {
    if (onPath(tool)) continue;
    writeFileSync(join(bin, tool), `#!${process.execPath}\n${script}`);
    chmodSync(join(bin, tool), 0o755);
  }
});

const onPath = (tool: string) => (process.env.PATH ?? '').split(':').some(dir => existsSync(join(dir, tool)));

const STAND_INS: Record<string, string> = {
  curl: `
const args = process.argv.slice(2);
let url, out, format, fail = false;
const headers = {};
for (let i = 0; i < args.length; i++) {
  const arg = args[i];
  if (arg === '-o') out = args[++i];
  else if (arg === '-w') format = args[++i];
  else if (arg === '-H') { const [name, ...value] = args[++i].split(':'); headers[name.trim()] = value.join(':').trim(); }
  else if (/^-[a-zA-Z]+$/.test(arg)) { if (arg.includes('f')) fail = true; }
  else url = arg;
}
fetch(url, { headers }).then(async (response) => {
  const body = Buffer.from(await response.arrayBuffer());
  if (fail && response.status >= 400) process.exit(22);
  if (out === '/dev/null') {} else if (out) require('node:fs').writeFileSync(out, body); else process.stdout.write(body);
  if (format) process.stdout.write(format.replace('%{http_code}', String(response.status)).replace(/\\\\n/g, '\\n'));
}, () => process.exit(7));
`,
  perl: `
const args = process.argv.slice(2);
const expression = args[args.indexOf('-e') + 1];
const [, find, replace] = /^s\\/(.*?)\\/(.*?)\\/$/.exec(expression) || [];
if (!args.includes('-pi') || find === undefined) { console.error('perl stand-in: only -pi -e s/…/…/ FILE'); process.exit(2); }
const fs = require('node:fs');
for (const file of args.slice(args.indexOf('-e') + 2)) fs.writeFileSync(file, fs.readFileSync(file, 'utf8').split('\\n').map((line) => line.replace(new RegExp(find), replace)).join('\\n'));
`,
};
examples.after(async () => {
  await cloud?.stop();
  rmSync(work, { recursive: true, force: true });
});

function run(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise(resolve => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], { cwd, env });
    let output = '';
    child.stdout.on('data', chunk => (output += chunk));
    child.stderr.on('data', chunk => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.on('close', code => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

const runnable = new Map<string, Block[]>();
for (const block of all.filter(candidate => candidate.marker === '')) runnable.set(block.file, [...(runnable.get(block.file) ?? []), block]);

examples('the tools the examples use besides fw are there: bash, and curl and perl (or their stand-ins)', () => {
  const missing = ['bash', 'curl', 'perl'].filter(tool => !onPath(tool) && !existsSync(join(bin, tool)));
  assert.equal(missing, [], `install ${missing.join(', ')} to run the documentation's examples`);
});

examples('the stand-ins for curl and perl do what the examples ask of them', async () => {
  const folder = join(work, 'stand-ins');
  mkdirSync(folder, { recursive: true });
  for (const [tool, script] of Object.entries(STAND_INS)) writeFileSync(join(folder, tool), `#!${process.execPath}\n${script}`, { mode: 0o755 });
  writeFileSync(join(folder, 'handler.js'), "const items = [{ name: 'Notebook' }];\n");
  const url = `${cloud.cloud.url}/_fw/health`;
  const result = await run(
    `./perl -pi -e 's/Notebook/Sketchbook/' handler.js && cat handler.js && ./curl -s -o /dev/null -w '%{http_code}\\n' "${url}" && ./curl -sf "${url}/missing" || echo "failed with $?"`,
    folder,
    process.env,
  );
  assert.equal(result, { code: 0, output: "const items = [{ name: 'Sketchbook' }];\n200\nfailed with 22\n" });
});

for (const [file, blocks] of runnable) {
  examples(`${file}: its ${blocks.length} runnable block(s) succeed, in order, against the local cloud`, async () => {
    const cwd = join(work, file.replace(/[/.]/g, '-'));
    mkdirSync(join(cwd, '.home'), { recursive: true });
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PATH: `${bin}:${process.env.PATH}`,
      HOME: join(cwd, '.home'),
      NO_COLOR: '1',
      FW_LOCAL_PORT: String(cloud.cloud.port),
      FW_LOCAL_DATA: cloud.dataDir,
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
    };
    delete env.FORCE_COLOR;
    // One shell, as a reader types the blocks one after another; each says where it starts.
    const script = blocks.map(block => `echo ">>> ${block.file}:${block.line}"\n${block.code}`).join('\n');
    const { code, output } = await run(script, cwd, env);
    const failed = [...output.matchAll(/^>>> (.*)$/gm)].at(-1)?.[1];
    assert.is(code, 0, `the block at ${failed} failed (exit ${code}):\n${output.slice(-3000)}`);
  });
}

examples.run();
