import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildCli } from '../../src/cli/main';
import { V3_COMMANDS_IN_FW } from '../../src/cli/v3-command-notes';

const ROOT = join(__dirname, '..', '..', '..');

/** Every command of Serverless v3.40.0 and its options, extracted by scripts/v3-commands.js. */
const reference = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'v3-cli', 'commands.json'), 'utf8')) as {
  reference: string;
  commands: Array<{ command: string; options: Array<{ name: string; shortcut?: string }> }>;
};

/** The v3 commands fw does not have, as the compatibility table says ("not supported"). */
const NOT_SUPPORTED = ['', 'help'];

/** Options fw spells differently, per command ('*': every command), as the compatibility reference says. */
const DIFFERENT: Record<string, string[]> = {
  // fw's -v is --verbose on the commands that reach a cloud (v3: --version); --version is accepted everywhere.
  '*': ['-v'],
};

const cli = buildCli();
const definitions = new Map(cli.definitions().map(definition => [definition.path, definition]));

/** The option names (`--stage`, `-s`) fw's command at `path` accepts. */
function acceptedOptions(path: string): Set<string> {
  const definition = definitions.get(path);
  const names = new Set<string>();
  for (const option of definition?.options ?? []) {
    for (const name of option.definition.split(' ')[0].split(',')) names.add(name);
  }
  return names;
}

const accepted = suite('Serverless v3 commands and options are accepted by fw');

accepted('the extract covers the reference commands schema', () => {
  assert.is(reference.reference, 'serverless@3.40.0');
  assert.ok(reference.commands.length >= 30);
});

for (const { command, options } of reference.commands) {
  if (NOT_SUPPORTED.includes(command)) continue;
  accepted(`fw ${command} accepts every option v3 gives it`, () => {
    const path = `fw ${command}`;
    assert.ok(definitions.has(path), `fw has no command "${command}"`);
    const names = acceptedOptions(path);
    const different = [...DIFFERENT['*'], ...(DIFFERENT[command] ?? [])];
    const missing = options
      .flatMap(option => [`--${option.name}`, ...(option.shortcut ? [`-${option.shortcut}`] : [])])
      .filter(name => name !== '--help' && name !== '-h' && !different.includes(name) && !names.has(name));
    assert.equal(missing, [], `fw ${command} lacks ${missing.join(', ')}`);
  });
}

accepted('the compatibility table has a row for every v3 command, and says which are not supported', () => {
  for (const { command } of reference.commands) {
    const name = command === '' ? 'serverless' : `serverless ${command}`;
    const row = V3_COMMANDS_IN_FW.find(candidate => candidate.v3.includes(name));
    assert.ok(row, `src/cli/v3-command-notes.ts lacks a row for v3's "${command}"`);
    assert.is(row!.fw.includes('not supported'), NOT_SUPPORTED.includes(command), `row for "${command}": ${row!.fw}`);
  }
  const v3Names = new Set(reference.commands.map(({ command }) => (command === '' ? 'serverless' : `serverless ${command}`)));
  assert.equal(V3_COMMANDS_IN_FW.flatMap(row => row.v3).filter(name => !v3Names.has(name)), []);
});

accepted.run();
