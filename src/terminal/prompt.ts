import type { Readable, Writable } from 'node:stream';
import { colorsEnabled, style, type Style } from './output';

/**
 * Minimal prompts for a raw-mode terminal: a list to pick from with the arrow keys
 * and a line of text. Small enough not to need a prompt library (and its start-up cost).
 */
export interface Terminal {
  input: Readable & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  output: Writable & { columns?: number };
  /** Default: whether the output is a terminal that wants colours. */
  colors?: boolean;
}

/** The user pressed Ctrl-C (or closed the input): leave without doing anything. */
export class PromptAborted extends Error {
  constructor() {
    super('Cancelled');
    this.name = 'PromptAborted';
  }
}

export const KEYS = {
  up: '\u001b[A',
  down: '\u001b[B',
  enter: '\r',
  backspace: '\u007f',
  ctrlC: '\u0003',
} as const;

const HIDE_CURSOR = '\u001b[?25l';
const SHOW_CURSOR = '\u001b[?25h';
const CLEAR_DOWN = '\u001b[0J';
const up = (lines: number) => (lines > 0 ? `\u001b[${lines}A` : '');
const right = (columns: number) => (columns > 0 ? `\u001b[${columns}C` : '');

export interface Choice<T> {
  label: string;
  hint?: string;
  value: T;
}

export async function select<T>(terminal: Terminal, message: string, choices: Choice<T>[], initial = 0): Promise<T> {
  if (choices.length === 0) throw new Error(`Nothing to choose for "${message}"`);
  const s = styleFor(terminal);
  const width = Math.max(...choices.map((choice) => choice.label.length));
  let index = initial;
  let drawn = 0;

  const draw = () => {
    const lines = [`${s.cyan('?')} ${s.bold(message)} ${s.dim('(↑/↓, Enter)')}`];
    choices.forEach((choice, i) => {
      const hint = choice.hint === undefined ? '' : `  ${choice.hint}`;
      const line = fit(`${i === index ? '❯' : ' '} ${choice.label.padEnd(width)}${hint}`, terminal.output.columns);
      lines.push(i === index ? s.cyan(line) : line);
    });
    terminal.output.write(`${drawn > 0 ? `\r${up(drawn - 1)}` : ''}${CLEAR_DOWN}${lines.join('\n')}`);
    drawn = lines.length;
  };

  terminal.output.write(HIDE_CURSOR);
  try {
    enterRawMode(terminal);
    draw();
    await readKeys(terminal, (key) => {
      if (key === KEYS.up || key === 'k') index = (index + choices.length - 1) % choices.length;
      else if (key === KEYS.down || key === 'j') index = (index + 1) % choices.length;
      else if (key === KEYS.enter || key === '\n') return true;
      else return false;
      draw();
      return false;
    });
  } finally {
    leaveRawMode(terminal);
    terminal.output.write(`\r${up(drawn - 1)}${CLEAR_DOWN}${SHOW_CURSOR}`);
  }
  terminal.output.write(`${s.green('✔')} ${s.bold(message)} ${choices[index]!.label}\n`);
  return choices[index]!.value;
}

export interface TextOptions {
  /** Taken when the user just presses Enter. */
  initial?: string;
  /** A reason to refuse the value, shown under the prompt; undefined accepts it. */
  validate?: (value: string) => string | undefined;
}

export async function text(terminal: Terminal, message: string, options: TextOptions = {}): Promise<string> {
  const s = styleFor(terminal);
  let value = '';
  let problem: string | undefined;
  const answer = () => (value === '' ? options.initial ?? '' : value);

  const draw = () => {
    const prefix = `${s.cyan('?')} ${s.bold(message)}${options.initial ? s.dim(` (${options.initial})`) : ''}: `;
    const line = `${prefix}${value}`;
    let frame = `\r${CLEAR_DOWN}${line}`;
    if (problem !== undefined) frame += `\n${s.red(`✖ ${problem}`)}${up(1)}\r${right(visibleLength(line))}`;
    terminal.output.write(frame);
  };

  try {
    enterRawMode(terminal);
    draw();
    await readKeys(terminal, (key) => {
      if (key === KEYS.enter || key === '\n') {
        problem = options.validate?.(answer());
        if (problem === undefined) return true;
      } else if (key === KEYS.backspace || key === '\b') {
        value = [...value].slice(0, -1).join('');
        problem = undefined;
      } else if (isPrintable(key)) {
        value += key;
        problem = undefined;
      } else {
        return false;
      }
      draw();
      return false;
    });
  } finally {
    leaveRawMode(terminal);
    terminal.output.write(`\r${CLEAR_DOWN}`);
  }
  terminal.output.write(`${s.green('✔')} ${s.bold(message)} ${answer()}\n`);
  return answer();
}

/** Keys typed ahead of the prompt that will read them (a paste, fast typing, a test). */
const typedAhead = new WeakMap<object, string[]>();

/**
 * Feeds each key pressed to `onKey` until it returns true. Ctrl-C or the end of
 * the input rejects with PromptAborted. The terminal is back in cooked mode afterwards.
 */
function readKeys(terminal: Terminal, onKey: (key: string) => boolean): Promise<void> {
  const { input } = terminal;
  return new Promise<void>((resolve, reject) => {
    let done = false;
    const finish = (error?: Error) => {
      done = true;
      input.off('data', onData);
      input.off('end', onEnd);
      leaveRawMode(terminal);
      input.pause();
      if (error) reject(error);
      else resolve();
    };
    const onEnd = () => finish(new PromptAborted());
    const feed = (keys: string[]) => {
      while (keys.length > 0 && !done) {
        const key = keys.shift()!;
        if (key === KEYS.ctrlC) return finish(new PromptAborted());
        try {
          if (onKey(key)) finish();
        } catch (error) {
          finish(error as Error);
        }
      }
      if (keys.length > 0) typedAhead.set(input, keys);
    };
    const onData = (chunk: Buffer | string) => feed(splitKeys(chunk.toString()));
    enterRawMode(terminal);
    input.on('data', onData);
    input.on('end', onEnd);
    const pending = typedAhead.get(input);
    typedAhead.delete(input);
    if (pending) feed(pending);
    if (done) return;
    if (input.readableEnded) finish(new PromptAborted());
    else input.resume();
  });
}

/** Before the prompt shows, so no key typed after seeing it reaches the cooked terminal. */
function enterRawMode(terminal: Terminal): void {
  if (terminal.input.isTTY) terminal.input.setRawMode?.(true);
}

function leaveRawMode(terminal: Terminal): void {
  if (terminal.input.isTTY) terminal.input.setRawMode?.(false);
}

/** One chunk of input may hold several keys (fast typing, a paste, a test). */
export function splitKeys(chunk: string): string[] {
  const keys: string[] = [];
  let i = 0;
  while (i < chunk.length) {
    const escape = /^\u001b(\[[0-9;]*[A-Za-z~]|O[A-Za-z])/.exec(chunk.slice(i));
    if (escape) {
      keys.push(escape[0]);
      i += escape[0].length;
    } else if (chunk.startsWith('\r\n', i)) {
      keys.push('\r');
      i += 2;
    } else {
      const char = String.fromCodePoint(chunk.codePointAt(i)!);
      keys.push(char);
      i += char.length;
    }
  }
  return keys;
}

function isPrintable(key: string): boolean {
  return [...key].length === 1 && key >= ' ' && key !== '\u007f';
}

function styleFor(terminal: Terminal): Style {
  return style(terminal.colors ?? colorsEnabled(terminal.output));
}

function visibleLength(text: string): number {
  return [...text.replace(/\u001b\[[0-9;]*m/g, '')].length;
}

/** Long lines would wrap and break the redraw; cut them to the terminal width. */
function fit(line: string, columns: number | undefined): string {
  if (columns === undefined || columns <= 1 || [...line].length < columns) return line;
  return `${[...line].slice(0, columns - 2).join('')}…`;
}
