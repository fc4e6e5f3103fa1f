import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { KEYS } from '../../src/terminal/prompt';
import { fwBin, removeTempDirs, repoRoot, tempDir, tree } from './helpers';
import { runInPty } from './pty';

/**
 * `fw` with only the create commands registered (as src/cli/main.ts registers them),
 * so the guided flow is tested in a real terminal whatever else the CLI holds.
 */
const fwWithCreate = [
  process.execPath,
  '-e',
  `const { createCli } = require(${JSON.stringify(join(repoRoot, 'dist', 'test', 'create', 'helpers.js'))});
   createCli().run(process.argv.slice(1), require(${JSON.stringify(require.resolve('clipanion'))}).Cli.defaultContext).then((code) => { process.exitCode = code; });`,
];

const guided = suite('guided creation in a terminal');
guided.after.each(removeTempDirs);

guided('picks a template with the arrow keys, checks the name, and writes the service', () => {
  const cwd = tempDir('guided');
  const result = runInPty(fwWithCreate, {
    cwd,
    steps: [
      { expect: '? Template', send: KEYS.down },
      { expect: '❯ node-rest-api', send: KEYS.enter },
      { expect: '? Service name', send: `9notes${KEYS.enter}` },
      { expect: '"9notes" must start with a letter', send: `${KEYS.backspace.repeat(6)}notes${KEYS.enter}` },
      { expect: '? Folder (notes)', send: KEYS.enter },
    ],
  });
  assert.is(result.timedOut, undefined, result.output);
  assert.is(result.code, 0, result.output);
  assert.ok(result.output.includes('✔ Template node-rest-api'), result.output);
  assert.ok(result.output.includes('✔ Created notes from node-rest-api in notes (6 files)\r\n\r\nNext:\r\n  cd notes\r\n  fw deploy --local  # deploy to the local cloud on this machine\r\n  fw deploy          # deploy to AWS with your credentials\r\n'), result.output);
  assert.equal(tree(cwd), ['notes/.gitignore', 'notes/README.md', 'notes/fw.yml', 'notes/handler.js', 'notes/package.json', 'notes/test/handler.test.js']);
  assert.ok(readFileSync(join(cwd, 'notes', 'fw.yml'), 'utf8').startsWith('service: notes\n'));
});

guided('refuses a folder that is not empty and takes another one', () => {
  const cwd = tempDir('guided');
  mkdirSync(join(cwd, 'cron'));
  writeFileSync(join(cwd, 'cron', 'keep.txt'), 'mine');
  const result = runInPty(fwWithCreate, {
    cwd,
    steps: [
      { expect: '? Template', send: KEYS.up + KEYS.up + KEYS.up + KEYS.up },
      { expect: '❯ node-scheduled', send: KEYS.enter },
      { expect: '? Service name', send: `cron${KEYS.enter}` },
      { expect: '? Folder (cron)', send: KEYS.enter },
      { expect: 'the folder "cron" already exists and is not empty', send: `jobs/cron${KEYS.enter}` },
    ],
  });
  assert.is(result.code, 0, result.output);
  assert.equal(tree(join(cwd, 'cron')), ['keep.txt']);
  assert.ok(readFileSync(join(cwd, 'jobs', 'cron', 'fw.yml'), 'utf8').startsWith('service: cron\n'));
});

for (const [where, steps] of [
  ['the template list', [{ expect: '? Template', send: KEYS.down + KEYS.ctrlC }]],
  ['the last question', [
    { expect: '? Template', send: KEYS.enter },
    { expect: '? Service name', send: `shop${KEYS.enter}` },
    { expect: '? Folder (shop)', send: `sh${KEYS.ctrlC}` },
  ]],
] as const) {
  guided(`leaves nothing behind on Ctrl-C at ${where}, with exit code 130`, () => {
    const cwd = tempDir('guided');
    const result = runInPty(fwWithCreate, { cwd, steps: [...steps] });
    assert.is(result.code, 130, result.output);
    assert.ok(result.output.includes('Cancelled: nothing was written.'), result.output);
    assert.equal(readdirSync(cwd), []);
  });
}

// The installed entry point: `fw` alone. Passes once src/cli/main.ts registers DefaultCommand.
guided('starts from plain "fw" (bin/fw.js) in a terminal', () => {
  const cwd = tempDir('guided');
  const result = runInPty([process.execPath, fwBin], {
    cwd,
    steps: [
      { expect: '? Template', send: KEYS.enter },
      { expect: '? Service name', send: `api${KEYS.enter}` },
      { expect: '? Folder (api)', send: KEYS.enter },
    ],
  });
  assert.is(result.timedOut, undefined, `fw never asked for "${result.timedOut}"; it printed:\n${result.output}`);
  assert.is(result.code, 0, result.output);
  assert.ok(readFileSync(join(cwd, 'api', 'fw.yml'), 'utf8').startsWith('service: api\n'));
});

guided.run();
