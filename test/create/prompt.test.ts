import { PassThrough } from 'node:stream';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { KEYS, PromptAborted, select, splitKeys, text, type Terminal } from '../../src/terminal/prompt';
import { capture } from './helpers';

/** A terminal whose keys the test types and whose raw-mode switches it records. */
function fakeTerminal() {
  const input = new PassThrough() as PassThrough & { isTTY: boolean; setRawMode(raw: boolean): void };
  const rawModes: boolean[] = [];
  input.isTTY = true;
  input.setRawMode = (raw: boolean) => { rawModes.push(raw); };
  const output = capture();
  const terminal: Terminal = { input, output, colors: false };
  const type = (...keys: string[]) => input.write(keys.join(''));
  return { terminal, type, rawModes, output };
}

const choices = [
  { label: 'alpha', hint: 'the first', value: 'a' },
  { label: 'beta', hint: 'the second', value: 'b' },
  { label: 'gamma', value: 'c' },
];

const selectPrompt = suite('select');

selectPrompt('moves with the arrow keys, wraps around, and picks with Enter', async () => {
  const { terminal, type, rawModes, output } = fakeTerminal();
  const answer = select(terminal, 'Pick', choices);
  type(KEYS.down, KEYS.down, KEYS.down, KEYS.up, KEYS.enter);
  assert.is(await answer, 'c');
  assert.is(rawModes[0], true);
  assert.is(rawModes.at(-1), false, 'the terminal is left in cooked mode');
  assert.ok(output.text().includes('❯ alpha  the first'));
  assert.ok(output.text().endsWith('✔ Pick gamma\n'));
});

selectPrompt('starts on the first choice', async () => {
  const { terminal, type } = fakeTerminal();
  const answer = select(terminal, 'Pick', choices);
  type(KEYS.enter);
  assert.is(await answer, 'a');
});

selectPrompt('gives up on Ctrl-C and restores the terminal', async () => {
  const { terminal, type, rawModes } = fakeTerminal();
  const answer = select(terminal, 'Pick', choices);
  type(KEYS.down, KEYS.ctrlC);
  try {
    await answer;
    assert.unreachable('should have been cancelled');
  } catch (error) {
    assert.instance(error, PromptAborted);
  }
  assert.is(rawModes.at(-1), false);
});

selectPrompt('gives up when the input ends', async () => {
  const { terminal } = fakeTerminal();
  const answer = select(terminal, 'Pick', choices);
  (terminal.input as PassThrough).end();
  try {
    await answer;
    assert.unreachable('should have been cancelled');
  } catch (error) {
    assert.instance(error, PromptAborted);
  }
});

const textPrompt = suite('text');

textPrompt('reads what is typed, with backspace', async () => {
  const { terminal, type } = fakeTerminal();
  const answer = text(terminal, 'Name');
  type('shox', KEYS.backspace, 'p', KEYS.enter);
  assert.is(await answer, 'shop');
});

textPrompt('takes the default on a bare Enter', async () => {
  const { terminal, type, output } = fakeTerminal();
  const answer = text(terminal, 'Name', { initial: 'my-service' });
  type(KEYS.enter);
  assert.is(await answer, 'my-service');
  assert.ok(output.text().endsWith('✔ Name my-service\n'));
});

textPrompt('shows why a value is refused and waits for a better one', async () => {
  const { terminal, type, output } = fakeTerminal();
  const answer = text(terminal, 'Name', { validate: (value) => (/^[a-z]+$/.test(value) ? undefined : `"${value}" is not lower-case`) });
  type('Ab', KEYS.enter, KEYS.backspace, KEYS.backspace, 'ab', KEYS.enter);
  assert.is(await answer, 'ab');
  assert.ok(output.text().includes('✖ "Ab" is not lower-case'));
});

textPrompt('keeps keys typed ahead for the next prompt', async () => {
  const { terminal, type } = fakeTerminal();
  type('one\rtwo\r');
  assert.equal([await text(terminal, 'First'), await text(terminal, 'Second')], ['one', 'two']);
});

textPrompt('gives up on Ctrl-C', async () => {
  const { terminal, type } = fakeTerminal();
  const answer = text(terminal, 'Name');
  type('abc', KEYS.ctrlC);
  try {
    await answer;
    assert.unreachable('should have been cancelled');
  } catch (error) {
    assert.instance(error, PromptAborted);
  }
});

const keys = suite('splitKeys');

keys('splits escape sequences, Enter and characters apart', () => {
  assert.equal(splitKeys('\u001b[Aab\r\n\u001bOB\u0003é'), ['\u001b[A', 'a', 'b', '\r', '\u001bOB', '\u0003', 'é']);
});

selectPrompt.run();
textPrompt.run();
keys.run();
