import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyFixture, removeDir, runFw } from './helpers';

const commands = suite('Commands added by plugins');

commands('a TypeScript plugin adds a command with options, which gets the resolved config and the options', async () => {
  const dir = copyFixture('command');
  try {
    const result = await runFw(['greet', '--name', 'Ada', '--stage', 'prod'], dir);
    assert.is(result.stderr, '');
    assert.is(result.stdout, 'Hello, Ada (stage prod)\n');
    assert.is(result.code, 0);
    const loud = await runFw(['greet', '-n', 'Ada', '--shout'], dir);
    assert.is(loud.stdout, 'HELLO, ADA (STAGE DEV)!\n');
  } finally {
    removeDir(dir);
  }
});

commands('a required option of a plugin command is checked before it runs', async () => {
  const dir = copyFixture('command');
  try {
    const result = await runFw(['greet'], dir);
    assert.is(result.code, 1);
    assert.is(result.stderr, 'Error: "fw greet" needs --name <name>. Run "fw greet --help" for its options.\n');
  } finally {
    removeDir(dir);
  }
});

commands('fw --help lists the plugin command with its description, under its own heading', async () => {
  const dir = copyFixture('command');
  try {
    const result = await runFw(['--help'], dir);
    assert.match(result.stdout, /\nCommands of plugins\n  greet +Greets someone with the service greeting \(from \.\/plugins\/greet\)\n/);
  } finally {
    removeDir(dir);
  }
});

commands.run();
