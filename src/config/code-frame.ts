import { ConfigError } from '../errors';

/** Lines longer than this are cut around the column, so a minified file cannot flood the terminal. */
const WIDTH = 100;

/** The 1-based line and column of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const start = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: before.length - start + 1 };
}

/**
 * The line a syntax error is on, with a caret under its column:
 *
 *   4 |   stage: "dev
 *     |          ^
 */
export function codeFrame(text: string, line: number, column: number): string {
  const source = text.split(/\r?\n/)[line - 1];
  if (source === undefined) return '';
  const visible = source.replace(/\t/g, ' ').replace(/[\u0000-\u001f\u007f]/g, '?');
  const from = column > WIDTH ? column - Math.floor(WIDTH / 2) : 0;
  const shown = `${from > 0 ? '…' : ''}${visible.slice(from, from + WIDTH)}${visible.length > from + WIDTH ? '…' : ''}`;
  const caret = Math.min(column - 1 - from + (from > 0 ? 1 : 0), shown.length);
  const gutter = String(line);
  return `  ${gutter} | ${shown}\n  ${' '.repeat(gutter.length)} | ${' '.repeat(Math.max(0, caret))}^`;
}

/** "Cannot parse fw.yml:4:10: Missing closing "quote", followed by the line and a caret under the column. */
export function syntaxError(file: string, text: string, reason: string, at?: { line: number; column: number }): ConfigError {
  if (!at) return new ConfigError(`Cannot parse ${file}: ${reason}`);
  const frame = codeFrame(text, at.line, at.column);
  return new ConfigError(`Cannot parse ${file}:${at.line}:${at.column}: ${reason}${frame ? `\n${frame}` : ''}`);
}
