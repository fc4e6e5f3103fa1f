import { lineColumn, syntaxError } from './code-frame';

/** Parses JSON; a syntax error names the file, and shows the line and column when Node says where. */
export function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = /at position (\d+)/.exec(message);
    const reason = message.split('\n')[0].replace(/ in JSON at position \d+.*$/s, '');
    throw syntaxError(file, text, reason, position ? lineColumn(text, Number(position[1])) : undefined);
  }
}
