import { ConfigError } from '../errors';

/** Lines longer than this are cut around the column, so a minified file cannot flood the terminal. */
const WIDTH = 100;

/** The 1-based line and column of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const start = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: before.length - start + 1 };
}

/** Lines shown before and after the one in error. */
const CONTEXT = 2;

/** One line of the file as the frame shows it: tabs as arrows (v3 does the same), cut around `column` when long. */
function shownLine(source: string, column: number): { text: string; caret: number } {
  const visible = source.replace(/\t/g, '\u2192').replace(/[\u0000-\u001f\u007f]/g, '?');
  const from = column > WIDTH ? column - Math.floor(WIDTH / 2) : 0;
  const text = `${from > 0 ? '…' : ''}${visible.slice(from, from + WIDTH)}${visible.length > from + WIDTH ? '…' : ''}`;
  return { text, caret: Math.min(column - 1 - from + (from > 0 ? 1 : 0), text.length) };
}

/**
 * The line a syntax error is on, marked with `>` and a caret under its column, between the two
 * lines before and after it:
 *
 *     2 | provider:
 *     3 |   name: aws
 *   > 4 |   stage: "dev
 *       |          ^
 *     5 |   runtime: nodejs20.x
 *     6 | functions:
 */
export function codeFrame(text: string, line: number, column: number): string {
  const lines = text.split(/\r?\n/);
  if (lines[line - 1] === undefined) return '';
  const first = Math.max(1, line - CONTEXT);
  // A file's final newline is no line of its own.
  const last = Math.min(lines.length - (lines.at(-1) === '' && line < lines.length ? 1 : 0), line + CONTEXT);
  const width = String(last).length;
  const frame: string[] = [];
  for (let number = first; number <= last; number++) {
    const gutter = String(number).padStart(width);
    if (number !== line) {
      frame.push(`  ${gutter} | ${shownLine(lines[number - 1], 0).text}`.trimEnd());
      continue;
    }
    const { text: shown, caret } = shownLine(lines[number - 1], column);
    frame.push(`> ${gutter} | ${shown}`, `  ${' '.repeat(width)} | ${' '.repeat(Math.max(0, caret))}^`);
  }
  return frame.join('\n');
}

/** "Cannot parse fw.yml:4:10: Missing closing "quote", followed by the line and a caret under the column. */
export function syntaxError(file: string, text: string, reason: string, at?: { line: number; column: number }): ConfigError {
  if (!at) return new ConfigError(`Cannot parse ${file}: ${reason}`);
  const frame = codeFrame(text, at.line, at.column);
  return new ConfigError(`Cannot parse ${file}:${at.line}:${at.column}: ${reason}${frame ? `\n${frame}` : ''}`);
}
