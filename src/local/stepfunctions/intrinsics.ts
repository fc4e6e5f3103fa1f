import { createHash, randomInt, randomUUID } from 'node:crypto';
import { resolvePath, type PathScope } from './json-path';
import { StatesError } from './states-error';

/**
 * The Amazon States Language's intrinsic functions (`States.Format('{}', $.name)` in a `.$` field):
 * a small grammar of literals ('text', numbers, true/false/null), paths and nested calls.
 */

type Argument = { literal: unknown } | { path: string } | { call: string; args: Argument[] };

const intrinsicFailure = (cause: string) => new StatesError('States.IntrinsicFailure', cause);

export const isIntrinsic = (value: string) => /^States\.[A-Za-z0-9]+\(/.test(value.trim());

class Parser {
  private at = 0;
  constructor(private readonly text: string) {}

  parse(): Argument {
    const found = this.argument();
    this.space();
    if (this.at !== this.text.length) throw this.fail();
    return found;
  }

  private fail(): StatesError {
    return intrinsicFailure(`The intrinsic function '${this.text}' could not be parsed at character ${this.at + 1}`);
  }

  private space(): void {
    while (this.text[this.at] === ' ') this.at++;
  }

  private argument(): Argument {
    this.space();
    const rest = this.text.slice(this.at);
    if (rest.startsWith("'")) return { literal: this.string() };
    const call = /^States\.[A-Za-z0-9]+/.exec(rest);
    if (call) {
      this.at += call[0].length;
      if (this.text[this.at] !== '(') throw this.fail();
      this.at++;
      const args: Argument[] = [];
      this.space();
      if (this.text[this.at] === ')') this.at++;
      else {
        for (;;) {
          args.push(this.argument());
          this.space();
          const next = this.text[this.at++];
          if (next === ')') break;
          if (next !== ',') throw this.fail();
        }
      }
      return { call: call[0], args };
    }
    const path = /^\$[^,)]*/.exec(rest);
    if (path) {
      this.at += path[0].length;
      return { path: path[0].trim() };
    }
    const literal = /^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null)/.exec(rest);
    if (literal) {
      this.at += literal[0].length;
      return { literal: JSON.parse(literal[0]) };
    }
    throw this.fail();
  }

  private string(): string {
    let value = '';
    this.at++;
    while (this.at < this.text.length) {
      const char = this.text[this.at++];
      if (char === "'") return value;
      // A backslash keeps the next character as it is (\' \{ \} \\), and States.Format sees the escape.
      if (char === '\\' && this.at < this.text.length) value += char + this.text[this.at++];
      else value += char;
    }
    throw this.fail();
  }
}

const unescape = (text: string) => text.replace(/\\(.)/g, '$1');

function evaluate(argument: Argument, scope: PathScope, raw: boolean): unknown {
  if ('literal' in argument) return typeof argument.literal === 'string' && !raw ? unescape(argument.literal) : argument.literal;
  if ('path' in argument) return resolvePath(argument.path, scope, argument.path);
  return call(argument.call, argument.args, scope);
}

const typeName = (value: unknown) => (Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value);

function expect<T>(name: string, value: unknown, type: 'string' | 'number' | 'array' | 'object', index: number): T {
  const ok = type === 'array' ? Array.isArray(value) : type === 'object' ? value !== null && typeof value === 'object' && !Array.isArray(value) : typeof value === type;
  if (!ok) throw intrinsicFailure(`Invalid arguments in ${name}: argument ${index + 1} must be a ${type}, got ${typeName(value)}`);
  return value as T;
}

function count(name: string, args: unknown[], min: number, max = min): void {
  if (args.length < min || args.length > max) throw intrinsicFailure(`Invalid arguments in ${name}: expected ${min === max ? min : `${min} to ${max}`} arguments, got ${args.length}`);
}

const json = (value: unknown) => JSON.stringify(value);

function format(args: Argument[], scope: PathScope): string {
  if (args.length === 0 || !('literal' in args[0]) || typeof args[0].literal !== 'string') throw intrinsicFailure('Invalid arguments in States.Format: the first argument must be a string literal');
  const values = args.slice(1).map((argument) => evaluate(argument, scope, false));
  const template = args[0].literal;
  let next = 0;
  let out = '';
  for (let i = 0; i < template.length; i++) {
    const char = template[i];
    if (char === '\\' && i + 1 < template.length) out += template[++i];
    else if (char === '{' && template[i + 1] === '}') {
      if (next >= values.length) throw intrinsicFailure('Invalid arguments in States.Format: more placeholders than arguments');
      const value = values[next++];
      out += typeof value === 'string' ? value : json(value);
      i++;
    } else out += char;
  }
  if (next !== values.length) throw intrinsicFailure('Invalid arguments in States.Format: more arguments than placeholders');
  return out;
}

function call(name: string, argumentList: Argument[], scope: PathScope): unknown {
  if (name === 'States.Format') return format(argumentList, scope);
  const args = argumentList.map((argument) => evaluate(argument, scope, false));
  switch (name) {
    case 'States.StringToJson': {
      count(name, args, 1);
      try {
        return JSON.parse(expect<string>(name, args[0], 'string', 0));
      } catch (error) {
        if (error instanceof StatesError) throw error;
        throw intrinsicFailure(`Invalid arguments in States.StringToJson: '${String(args[0])}' is not JSON`);
      }
    }
    case 'States.JsonToString':
      count(name, args, 1);
      return json(args[0]);
    case 'States.Array':
      return args;
    case 'States.ArrayPartition': {
      count(name, args, 2);
      const items = expect<unknown[]>(name, args[0], 'array', 0);
      const size = expect<number>(name, args[1], 'number', 1);
      if (!Number.isInteger(size) || size < 1) throw intrinsicFailure('Invalid arguments in States.ArrayPartition: the chunk size must be a positive integer');
      const chunks: unknown[][] = [];
      for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
      return chunks;
    }
    case 'States.ArrayContains':
      count(name, args, 2);
      return expect<unknown[]>(name, args[0], 'array', 0).some((item) => json(item) === json(args[1]));
    case 'States.ArrayRange': {
      count(name, args, 3);
      const [start, end, step] = args.map((value, index) => expect<number>(name, value, 'number', index));
      if (step === 0) throw intrinsicFailure('Invalid arguments in States.ArrayRange: the step must not be 0');
      const range: number[] = [];
      for (let value = start; step > 0 ? value <= end : value >= end; value += step) {
        range.push(value);
        if (range.length > 1000) throw intrinsicFailure('Invalid arguments in States.ArrayRange: more than 1000 items');
      }
      return range;
    }
    case 'States.ArrayGetItem': {
      count(name, args, 2);
      const items = expect<unknown[]>(name, args[0], 'array', 0);
      const index = expect<number>(name, args[1], 'number', 1);
      if (!Number.isInteger(index) || index < 0 || index >= items.length) throw intrinsicFailure(`Invalid arguments in States.ArrayGetItem: index ${index} is out of bounds`);
      return items[index];
    }
    case 'States.ArrayLength':
      count(name, args, 1);
      return expect<unknown[]>(name, args[0], 'array', 0).length;
    case 'States.ArrayUnique': {
      count(name, args, 1);
      const seen = new Set<string>();
      return expect<unknown[]>(name, args[0], 'array', 0).filter((item) => !seen.has(json(item)) && !!seen.add(json(item)));
    }
    case 'States.Base64Encode':
      count(name, args, 1);
      return Buffer.from(expect<string>(name, args[0], 'string', 0), 'utf8').toString('base64');
    case 'States.Base64Decode':
      count(name, args, 1);
      return Buffer.from(expect<string>(name, args[0], 'string', 0), 'base64').toString('utf8');
    case 'States.Hash': {
      count(name, args, 2);
      const algorithms: Record<string, string> = { MD5: 'md5', 'SHA-1': 'sha1', 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' };
      const algorithm = algorithms[expect<string>(name, args[1], 'string', 1)];
      if (!algorithm) throw intrinsicFailure(`Invalid arguments in States.Hash: the algorithm must be one of ${Object.keys(algorithms).join(', ')}`);
      const data = typeof args[0] === 'string' ? args[0] : json(args[0]);
      return createHash(algorithm).update(data).digest('hex');
    }
    case 'States.JsonMerge': {
      count(name, args, 3);
      const left = expect<Record<string, unknown>>(name, args[0], 'object', 0);
      const right = expect<Record<string, unknown>>(name, args[1], 'object', 1);
      if (args[2] !== false) throw intrinsicFailure('Invalid arguments in States.JsonMerge: only a shallow merge (false) is supported');
      return { ...left, ...right };
    }
    case 'States.MathRandom': {
      count(name, args, 2, 3);
      const start = expect<number>(name, args[0], 'number', 0);
      const end = expect<number>(name, args[1], 'number', 1);
      return randomInt(Math.trunc(start), Math.trunc(end));
    }
    case 'States.MathAdd':
      count(name, args, 2);
      return expect<number>(name, args[0], 'number', 0) + expect<number>(name, args[1], 'number', 1);
    case 'States.StringSplit': {
      count(name, args, 2);
      const text = expect<string>(name, args[0], 'string', 0);
      const separators = [...expect<string>(name, args[1], 'string', 1)];
      return separators.length === 0 ? [text] : text.split(new RegExp(`[${separators.map((char) => char.replace(/[\\\]^-]/g, '\\$&')).join('')}]`)).filter((part) => part !== '');
    }
    case 'States.UUID':
      count(name, args, 0);
      return randomUUID();
    default:
      throw intrinsicFailure(`The intrinsic function ${name} is not supported`);
  }
}

/** The value of an intrinsic function call in a `.$` field. */
export function evaluateIntrinsic(text: string, scope: PathScope): unknown {
  return evaluate(new Parser(text.trim()).parse(), scope, true);
}
