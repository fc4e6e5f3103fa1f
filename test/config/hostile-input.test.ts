import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, ftruncateSync } from 'node:fs';
import { join } from 'node:path';
import { loadService } from '../../src/service/load';
import { packageService } from '../../src/package/service';
import { show } from '../../src/errors';
import { secretValues } from '../../src/secrets';
import { FW_BIN } from './fuzz-run';
import { errorOf, tempService } from './helpers';

const HANDLER = { 'h.js': 'exports.main = async () => 1;\n' };

/** `fw package`'s error for a service folder holding `files`. */
async function packageError(files: Record<string, string>, env: Record<string, string> = {}): Promise<string> {
  const folder = tempService({ ...HANDLER, ...files });
  const saved = { ...process.env };
  const write = process.stderr.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  Object.assign(process.env, env);
  const cwd = process.cwd();
  // Messages name files relative to the working directory, as a user running fw there sees them.
  process.chdir(folder.dir);
  try {
    return await errorOf(() => packageService({ cwd: folder.dir, options: {} }));
  } finally {
    process.chdir(cwd);
    process.stderr.write = write;
    for (const key of Object.keys(env)) if (saved[key] === undefined) delete process.env[key];
    folder.cleanup();
  }
}

const yml = (body: string) => ({ 'fw.yml': `service: app\nprovider:\n  name: aws\n${body}` });
const oneFunction = 'functions:\n  hello:\n    handler: h.main\n';

const crashes = suite('bad input that used to crash fw');

crashes('a runtime that is not a string stops fw even in warn mode', async () => {
  assert.is(
    await packageError(yml(`  runtime: 12\n${oneFunction}`)),
    'Invalid configuration at "provider.runtime": expected a string, got 12 (fw needs it to build the template)',
  );
});

crashes('statements: .inf names the path and the value', async () => {
  assert.is(
    await packageError(yml(`  iam:\n    role:\n      statements: .inf\n${oneFunction}`)),
    'Invalid configuration at "provider.iam.role.statements": expected a list, got Infinity (fw needs it to build the template)',
  );
});

crashes('functions hello and Hello would share logical ids: both config paths are named', async () => {
  assert.is(
    await packageError(yml(`${oneFunction}  Hello:\n    handler: h.main\n`)),
    'Invalid configuration at "functions.Hello": its logical ids (HelloLambdaFunction, …) would be those of "functions.hello" too; rename one of them (fw needs it to build the template)',
  );
});

crashes('a 5 000-character service name is refused by the stack name rule, the value cut', async () => {
  const message = await packageError({ 'fw.yml': `service: a${'b'.repeat(4999)}\nprovider:\n  name: aws\n${oneFunction}` });
  assert.is(
    message,
    `Invalid configuration in 'service': the stack name "{service}-{stage}" must be a letter, then letters, digits and "-", at most 128 characters, got "a${'b'.repeat(77)}… (5004 characters)`,
  );
});

crashes('5 000 levels of nesting stop before the parser, at the line and column', async () => {
  assert.is(
    await packageError(yml(`custom:\n  a: ${'['.repeat(5000)}${']'.repeat(5000)}\n`)),
    'Cannot parse fw.yml:5:204: nested more than 200 levels deep',
  );
  assert.is(
    await packageError({ 'fw.json': `{"service":"app","provider":{"name":"aws"},"custom":${'['.repeat(5000)}${']'.repeat(5000)}}` }),
    "Invalid configuration in 'custom[0][0][0]…[0][0][0]': nested more than 200 levels deep",
  );
});

crashes('a billion-laughs file meets the alias cap', async () => {
  const lines = ['custom:', '  l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
  for (let level = 1; level < 10; level += 1) lines.push(`  l${level}: &l${level} [${Array(9).fill(`*l${level - 1}`).join(', ')}]`);
  assert.is(
    await packageError(yml(`${lines.join('\n')}\n`)),
    'Cannot parse fw.yml: its aliases (*name) expand to too many nodes (the limit, 10000, stops "billion laughs" files that would exhaust memory)',
  );
  assert.is(await packageError(yml('custom: &c\n  self: *c\n')), "Invalid configuration in 'custom.self': it contains itself (a circular reference), which a service file cannot hold");
});

crashes('a JS config with a throwing getter, a cycle or a BigInt names the path', async () => {
  const base = "{ service: 'app', provider: { name: 'aws' }, functions: { hello: { handler: 'h.main' } } }";
  assert.is(
    await packageError({ 'fw.js': `const c = ${base};\nObject.defineProperty(c.provider, 'runtime', { get() { throw new Error('nope'); }, enumerable: true });\nmodule.exports = c;\n` }),
    "Cannot load fw.js: reading 'provider.runtime' threw: nope",
  );
  assert.is(
    await packageError({ 'fw.js': `const c = ${base};\nc.custom = { again: c };\nmodule.exports = c;\n` }),
    "Invalid configuration in 'custom.again': it contains itself (a circular reference), which a service file cannot hold",
  );
  assert.is(
    await packageError({ 'fw.js': `const c = ${base};\nc.functions.hello.timeout = 3n;\nmodule.exports = c;\n` }),
    "Invalid configuration in 'functions.hello.timeout': 3n is a BigInt, which a service file cannot hold (write 3 as a number)",
  );
});

crashes('a 10 MB description warns and is refused as too large for CloudFormation, not as a bug', async () => {
  const warnings: string[] = [];
  const folder = tempService({ ...HANDLER, ...yml(`functions:\n  hello:\n    handler: h.main\n    description: ${'x'.repeat(300)}\n`) });
  try {
    await loadService({ cwd: folder.dir, warn: (line) => warnings.push(line) });
    assert.equal(warnings, [`Warning: invalid configuration at "functions.hello.description": expected a description of at most 256 characters (it has 300), got "${'x'.repeat(78)}…`]);
  } finally {
    folder.cleanup();
  }
  assert.match(
    await packageError(yml(`functions:\n  hello:\n    handler: h.main\n    description: ${'x'.repeat(10_000_000)}\n`)),
    /^Nested stack NestedStack\d would still have 200\d{5} bytes \(limit 1000000\): use provider.stackSplitting: per-function, or make the values in its functions smaller$/,
  );
});

crashes.run();

const names = suite('function names');

names('a name that cannot form a logical id is refused with the escaped name', async () => {
  const cases: Array<[string, string]> = [
    ['"he llo"', 'he llo'],
    ['"a/b"', 'a/b'],
    ['"nul\\0x"', 'nul\\u0000x'],
    ['"line\\nbreak"', 'line\\nbreak'],
    ['"emoji😀"', 'emoji😀'],
    ['"zero\\u200bwidth"', 'zero\\u200bwidth'],
  ];
  const messages = [];
  for (const [yamlKey] of cases) messages.push(await packageError(yml(`functions:\n  ${yamlKey}:\n    handler: h.main\n`)));
  assert.equal(
    messages,
    cases.map(([, shown]) => {
      const path = shown.replace('\\n', '\\u000a');
      return `Invalid configuration at "functions.${path}": a function name must be letters, digits, "-" and "_" (it forms logical ids such as HelloLambdaFunction), got "${shown}" (fw needs it to build the template)`;
    }),
  );
});

names('a name every JavaScript object already has is refused', async () => {
  assert.is(
    await packageError(yml('functions:\n  constructor:\n    handler: h.main\n')),
    'Invalid configuration at "functions.constructor": a function cannot be named "constructor" (every JavaScript object has that property) (fw needs it to build the template)',
  );
});

names('a derived deployed name over Lambda\'s 64 characters packages as v3 packages it, with a warning saying how to shorten it; a name the user wrote is refused', async () => {
  const key = 'f'.repeat(57);
  const folder = tempService({ ...HANDLER, ...yml(`functions:\n  ${key}:\n    handler: h.main\n`) });
  const write = process.stderr.write;
  let stderr = '';
  process.stderr.write = ((chunk: string) => ((stderr += chunk), true)) as typeof process.stderr.write;
  try {
    const { template } = await packageService({ cwd: folder.dir, options: {} });
    const resources = template.Resources as Record<string, { Properties: { FunctionName?: string } }>;
    assert.is(resources[`${'F' + 'f'.repeat(56)}LambdaFunction`].Properties.FunctionName, `app-dev-${key}`);
  } finally {
    process.stderr.write = write;
    folder.cleanup();
  }
  assert.is(
    stderr,
    `Warning: functions.${key}: its deployed name "app-dev-${key}" is 65 characters, over Lambda's 64: AWS refuses it when the stack creates the function (shorten the service, stage or function name, or set functions.${key}.name)\n`,
  );
  assert.is(
    await packageError(yml('functions:\n  hello:\n    handler: h.main\n    name: my fn\n')),
    "Invalid configuration in 'functions.hello.name': expected a Lambda function name of 1 to 64 letters, digits, \"-\" and \"_\", got \"my fn\"",
  );
});

names.run();

const files = suite('files that would hang or choke a reader');

files('${file(/dev/zero)}, a FIFO, a folder and a file over 10 MB are refused before reading', async () => {
  const folder = tempService({ big: '' });
  const fd = openSync(join(folder.dir, 'big'), 'r+');
  ftruncateSync(fd, 11 * 1024 * 1024);
  closeSync(fd);
  await new Promise<void>((resolve, reject) => spawn('mkfifo', [join(folder.dir, 'pipe')]).on('close', (code) => (code === 0 ? resolve() : reject(new Error(`mkfifo: ${code}`)))));
  try {
    assert.equal(
      [
        await packageError(yml('custom:\n  z: ${file(/dev/zero)}\n')),
        await packageError(yml(`custom:\n  z: \${file(${join(folder.dir, 'pipe')})}\n`)),
        await packageError(yml(`custom:\n  z: \${file(${folder.dir})}\n`)),
        await packageError(yml(`custom:\n  z: \${file(${join(folder.dir, 'big')})}\n`)),
      ],
      [
        'Cannot resolve variable at "custom.z": ${file(/dev/zero)}: Cannot read /dev/zero: it is a device, not a regular file',
        `Cannot resolve variable at "custom.z": \${file(${join(folder.dir, 'pipe')})}: Cannot read ${join(folder.dir, 'pipe')}: it is a FIFO, not a regular file`,
        `Cannot resolve variable at "custom.z": \${file(${folder.dir})}: Cannot read ${folder.dir}: it is a folder, not a regular file`,
        `Cannot resolve variable at "custom.z": \${file(${join(folder.dir, 'big')})}: Cannot read ${join(folder.dir, 'big')}: it is 11.0 MB, over the 10 MB a configuration file may have`,
      ],
    );
  } finally {
    folder.cleanup();
  }
});

files('a FIFO named fw.yml, or a .env that is one, is refused before anything reads it', async () => {
  const fifo = tempService({ 'h.js': '' });
  const dotenv = tempService({ 'fw.yml': 'service: app\nuseDotenv: true\nprovider:\n  name: aws\n' });
  const mkfifo = (path: string) =>
    new Promise<void>((resolve, reject) => spawn('mkfifo', [path]).on('close', (code) => (code === 0 ? resolve() : reject(new Error(`mkfifo: ${code}`)))));
  await mkfifo(join(fifo.dir, 'fw.yml'));
  await mkfifo(join(dotenv.dir, '.env'));
  try {
    assert.equal(
      [await errorOf(() => loadService({ cwd: fifo.dir })), await errorOf(() => loadService({ cwd: dotenv.dir }))],
      ['Cannot read fw.yml: it is a FIFO, not a regular file', 'Cannot read .env: it is a FIFO, not a regular file'],
    );
  } finally {
    fifo.cleanup();
    dotenv.cleanup();
  }
});

files.run();

const settle = suite('JS/TS configs that never settle');

settle('in process, a promise that never settles meets FW_CONFIG_TIMEOUT while something else keeps Node busy', async () => {
  const busy = setTimeout(() => {}, 10_000);
  try {
    assert.is(
      await packageError({ 'fw.js': 'module.exports = new Promise(() => {});\n' }, { FW_CONFIG_TIMEOUT: '0.2' }),
      'Cannot load fw.js: its exported promise did not settle within 0.2 s (FW_CONFIG_TIMEOUT sets the limit in seconds)',
    );
  } finally {
    clearTimeout(busy);
  }
});

/** The environment without colour settings, so output is plain text. */
export function withoutColor(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([key]) => key !== 'FORCE_COLOR' && key !== 'NO_COLOR'));
}

/** `fw package` in a child process: exit code and everything printed. */
function cli(cwd: string, env: Record<string, string> = {}, interruptAfterMs?: number): Promise<{ code: number | null; signal: string | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [FW_BIN, 'package'], { cwd, env: { ...withoutColor(process.env), ...env } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    if (interruptAfterMs !== undefined) setTimeout(() => child.kill('SIGINT'), interruptAfterMs);
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, output });
    });
  });
}

settle('through the CLI: nothing left to run is an error at once, a busy loop meets the timeout, neither exits 0', async () => {
  const idle = tempService({ ...HANDLER, 'fw.js': 'module.exports = new Promise(() => {});\n' });
  const busy = tempService({ ...HANDLER, 'fw.js': 'setInterval(() => {}, 1000);\nmodule.exports = () => new Promise(() => {});\n' });
  try {
    assert.equal(await cli(idle.dir), { code: 1, signal: null, output: 'Error: Cannot load fw.js: its exported promise never settles (nothing is left running that could settle it)\n' });
    assert.equal(await cli(busy.dir, { FW_CONFIG_TIMEOUT: '0.5' }), {
      code: 1,
      signal: null,
      output: 'Error: Cannot load fw.js: its exported promise did not settle within 0.5 s (FW_CONFIG_TIMEOUT sets the limit in seconds)\n',
    });
  } finally {
    idle.cleanup();
    busy.cleanup();
  }
});

settle('the compiled copy of an fw.ts with top-level await is removed on error, on timeout and on Ctrl-C', async () => {
  const failing = tempService({ ...HANDLER, 'fw.ts': "const n: number = await Promise.resolve(1);\nthrow new Error('bad ' + n);\n" });
  const waiting = tempService({ ...HANDLER, 'fw.ts': 'setInterval(() => {}, 1000);\nawait new Promise(() => {});\nexport default {};\n' });
  try {
    assert.equal(await cli(failing.dir), { code: 1, signal: null, output: 'Error: Cannot load fw.ts: bad 1\n' });
    assert.equal(readdirSync(failing.dir).sort(), ['fw.ts', 'h.js']);
    assert.equal(await cli(waiting.dir, { FW_CONFIG_TIMEOUT: '0.5' }), {
      code: 1,
      signal: null,
      output: 'Error: Cannot load fw.ts: its exported promise did not settle within 0.5 s (FW_CONFIG_TIMEOUT sets the limit in seconds)\n',
    });
    assert.equal(readdirSync(waiting.dir).sort(), ['fw.ts', 'h.js']);
    assert.equal(await cli(waiting.dir, {}, 1500), { code: null, signal: 'SIGINT', output: '' });
    assert.equal(readdirSync(waiting.dir).sort(), ['fw.ts', 'h.js']);
  } finally {
    failing.cleanup();
    waiting.cleanup();
  }
});

settle.run();

const messages = suite('values in messages');

messages('show() escapes invisible characters, cuts long values with … and masks secrets by origin', () => {
  secretValues.clear();
  secretValues.add('hunter2-db-pass', 'ssm:/sec/db-password');
  try {
    assert.equal(
      [show('a\u0000b\u200bc'), show('x'.repeat(100)), show(10n), show(Infinity), show('hunter2-db-pass'), show('url://u:hunter2-db-pass@h'), show({ p: 'hunter2-db-pass' })],
      [
        '"a\\u0000b\\u200bc"',
        `"${'x'.repeat(78)}…`,
        '10n',
        'Infinity',
        '<secret from ssm:/sec/db-password>',
        '"url://u:<secret from ssm:/sec/db-password>@h"',
        '{"p":"<secret from ssm:/sec/db-password>"}',
      ],
    );
  } finally {
    secretValues.clear();
  }
});

messages.run();
