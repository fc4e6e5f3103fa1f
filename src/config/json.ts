import { ConfigError } from '../errors';

/** Parses JSON; a syntax error names the file, and the line and column when Node says where. */
export function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = /at position (\d+)/.exec(message);
    if (!position) return fail(file, '', message.split('\n')[0]);
    const before = text.slice(0, Number(position[1]));
    const line = before.split('\n').length;
    const column = before.length - before.lastIndexOf('\n');
    return fail(file, `:${line}:${column}`, message.replace(/ in JSON at position \d+.*$/s, ''));
  }
}

function fail(file: string, where: string, reason: string): never {
  throw new ConfigError(`Cannot parse ${file}${where}: ${reason}`);
}
