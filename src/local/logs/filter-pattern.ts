import { AwsError } from '../protocol/errors';

/**
 * CloudWatch Logs filter patterns (FilterLogEvents; the same syntax serves metric and subscription filters):
 * plain terms (`ERROR "two words" -debug`, `?ERROR ?WARN`), `%regex%`, JSON patterns
 * (`{ ($.level = "error" || $.latency >= 500) && $.user.id NOT EXISTS }`) and space-delimited patterns
 * (`[ip, user, ..., status = 4*, bytes > 100]`). A malformed pattern is refused as AWS does.
 */
export type EventMatcher = (message: string) => boolean;

export function invalidFilterPattern(): AwsError {
  return new AwsError('InvalidParameterException', 'Invalid filter pattern');
}

/** Compiles a pattern once; an empty pattern matches every event. Throws InvalidParameterException when malformed. */
export function compileFilterPattern(pattern: string | undefined): EventMatcher {
  const text = (pattern ?? '').trim();
  if (!text) return () => true;
  if (text.startsWith('{')) return jsonMatcher(text);
  if (text.startsWith('[')) return delimitedMatcher(text);
  if (text.length > 1 && text.startsWith('%') && text.endsWith('%')) {
    const regex = regexOf(text.slice(1, -1));
    return (message) => regex.test(message);
  }
  return termMatcher(text);
}

function regexOf(source: string): RegExp {
  try {
    return new RegExp(source);
  } catch {
    throw invalidFilterPattern();
  }
}

// ---- plain terms ----

function termMatcher(text: string): EventMatcher {
  const terms: { word: string; kind: 'all' | 'any' | 'not' }[] = [];
  for (const match of text.matchAll(/([?-]?)(?:"((?:[^"\\]|\\.)*)"|(\S+))/g)) {
    if (match[3]?.includes('"')) throw invalidFilterPattern();
    const word = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : match[3];
    terms.push({ word, kind: match[1] === '?' ? 'any' : match[1] === '-' ? 'not' : 'all' });
  }
  if ((text.match(/(?<!\\)"/g) ?? []).length % 2 === 1) throw invalidFilterPattern();
  const any = terms.filter((term) => term.kind === 'any');
  if (any.length > 0) return (message) => any.some((term) => message.includes(term.word));
  return (message) => terms.every((term) => (term.kind === 'not' ? !message.includes(term.word) : message.includes(term.word)));
}

// ---- shared value comparison ----

type Operator = '=' | '!=' | '<' | '>' | '<=' | '>=';
type Value = { kind: 'number'; number: number } | { kind: 'string'; text: string; wildcard: boolean } | { kind: 'regex'; regex: RegExp };

function valueOf(token: Token): Value {
  if (token.type === 'regex') return { kind: 'regex', regex: regexOf(token.text) };
  if (token.type === 'quoted') return { kind: 'string', text: token.text, wildcard: token.text.includes('*') };
  if (token.type !== 'word') throw invalidFilterPattern();
  if (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(token.text)) return { kind: 'number', number: Number(token.text) };
  return { kind: 'string', text: token.text, wildcard: token.text.includes('*') };
}

function wildcardMatches(pattern: string, text: string): boolean {
  const source = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${source}$`, 's').test(text);
}

/** Compares one field (a JSON value, or a delimited field's text) with a pattern value. */
function compare(field: unknown, operator: Operator, value: Value, numericText: boolean): boolean {
  if (value.kind === 'number') {
    const number = typeof field === 'number' ? field : numericText && typeof field === 'string' && field.trim() !== '' ? Number(field) : Number.NaN;
    if (Number.isNaN(number)) return false;
    switch (operator) {
      case '=': return number === value.number;
      case '!=': return number !== value.number;
      case '<': return number < value.number;
      case '>': return number > value.number;
      case '<=': return number <= value.number;
      case '>=': return number >= value.number;
    }
  }
  if (operator !== '=' && operator !== '!=') throw invalidFilterPattern();
  if (field === undefined || field === null || typeof field === 'object') return false;
  const text = String(field);
  const equal = value.kind === 'regex' ? value.regex.test(text) : value.wildcard ? wildcardMatches(value.text, text) : text === value.text;
  return operator === '=' ? equal : !equal;
}

// ---- tokens (JSON and space-delimited patterns) ----

interface Token {
  type: 'punct' | 'op' | 'selector' | 'quoted' | 'regex' | 'word';
  text: string;
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const rest = text.slice(at);
    const space = /^\s+/.exec(rest);
    if (space) { at += space[0].length; continue; }
    const match =
      (/^(&&|\|\|)/.exec(rest) && { type: 'op' as const, raw: /^(&&|\|\|)/.exec(rest)![0] }) ||
      (/^(!=|<=|>=|=|<|>)/.exec(rest) && { type: 'op' as const, raw: /^(!=|<=|>=|=|<|>)/.exec(rest)![0] }) ||
      (/^[{}()[\],]/.exec(rest) && { type: 'punct' as const, raw: rest[0] }) ||
      (/^\$(\.[^\s.[\]=!<>&|(){}]+|\[\d+\])*/.exec(rest) && { type: 'selector' as const, raw: /^\$(\.[^\s.[\]=!<>&|(){}]+|\[\d+\])*/.exec(rest)![0] }) ||
      (/^"((?:[^"\\]|\\.)*)"/.exec(rest) && { type: 'quoted' as const, raw: /^"((?:[^"\\]|\\.)*)"/.exec(rest)![0] }) ||
      (/^%[^%]+%/.exec(rest) && { type: 'regex' as const, raw: /^%[^%]+%/.exec(rest)![0] }) ||
      (/^[^\s=!<>&|(){}[\],"]+/.exec(rest) && { type: 'word' as const, raw: /^[^\s=!<>&|(){}[\],"]+/.exec(rest)![0] });
    if (!match) throw invalidFilterPattern();
    const value = match.type === 'quoted' ? match.raw.slice(1, -1).replace(/\\(.)/g, '$1') : match.type === 'regex' ? match.raw.slice(1, -1) : match.raw;
    tokens.push({ type: match.type, text: value });
    at += match.raw.length;
  }
  return tokens;
}

class Cursor {
  private at = 0;
  constructor(private readonly tokens: Token[]) {}
  peek(): Token | undefined { return this.tokens[this.at]; }
  next(): Token {
    const token = this.tokens[this.at++];
    if (!token) throw invalidFilterPattern();
    return token;
  }
  accept(text: string, type?: Token['type']): boolean {
    const token = this.peek();
    if (token && token.text === text && (!type || token.type === type) && token.type !== 'quoted') { this.at++; return true; }
    return false;
  }
  expect(text: string): void { if (!this.accept(text)) throw invalidFilterPattern(); }
  done(): boolean { return this.at >= this.tokens.length; }
}

/** `a || b`, `a && b`, `( … )`: the boolean frame shared by JSON and delimited conditions; `leaf` reads one comparison. */
function parseBoolean<T>(cursor: Cursor, leaf: (cursor: Cursor) => (input: T) => boolean): (input: T) => boolean {
  const primary = (): ((input: T) => boolean) => {
    if (cursor.accept('(', 'punct')) {
      const inner = or();
      cursor.expect(')');
      return inner;
    }
    return leaf(cursor);
  };
  const and = () => {
    const parts = [primary()];
    while (cursor.accept('&&', 'op')) parts.push(primary());
    return parts.length === 1 ? parts[0] : (input: T) => parts.every((part) => part(input));
  };
  const or = () => {
    const parts = [and()];
    while (cursor.accept('||', 'op')) parts.push(and());
    return parts.length === 1 ? parts[0] : (input: T) => parts.some((part) => part(input));
  };
  return or();
}

// ---- JSON patterns ----

const MISSING = Symbol('missing');

function select(document: unknown, selector: string): unknown {
  let value: unknown = document;
  for (const step of selector.slice(1).matchAll(/\.([^.[]+)|\[(\d+)\]/g)) {
    if (value === null || typeof value !== 'object') return MISSING;
    const key = step[1] ?? Number(step[2]);
    if (step[2] !== undefined && !Array.isArray(value)) return MISSING;
    if (!Object.prototype.hasOwnProperty.call(value, key)) return MISSING;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

/** What a `$.a.b[0]` selector names in a JSON event (what metric filters publish as a value or dimension), or undefined. */
export function selectInEvent(message: string, selector: string): unknown {
  let document: unknown;
  try {
    document = JSON.parse(message);
  } catch {
    return undefined;
  }
  const value = select(document, selector);
  return value === MISSING ? undefined : value;
}

function jsonLeaf(cursor: Cursor): (document: unknown) => boolean {
  const selector = cursor.next();
  if (selector.type !== 'selector' || selector.text === '$') throw invalidFilterPattern();
  const path = selector.text;
  const word = cursor.peek();
  if (word?.type === 'word' && /^(IS|NOT|EXISTS)$/i.test(word.text)) {
    cursor.next();
    const keyword = word.text.toUpperCase();
    if (keyword === 'EXISTS') return (document) => select(document, path) !== MISSING;
    const what = cursor.next().text.toUpperCase();
    if (keyword === 'NOT' && what === 'EXISTS') return (document) => select(document, path) === MISSING;
    if (keyword === 'IS' && what === 'NULL') return (document) => select(document, path) === null;
    if (keyword === 'IS' && (what === 'TRUE' || what === 'FALSE')) return (document) => select(document, path) === (what === 'TRUE');
    throw invalidFilterPattern();
  }
  const operator = cursor.next();
  if (operator.type !== 'op' || operator.text === '&&' || operator.text === '||') throw invalidFilterPattern();
  const token = cursor.next();
  const op = operator.text as Operator;
  // `= *` asks only that the field be there.
  if (token.type === 'word' && token.text === '*' && op === '=') return (document) => { const field = select(document, path); return field !== MISSING && field !== null && typeof field !== 'object'; };
  const value = valueOf(token);
  return (document) => {
    const field = select(document, path);
    return field !== MISSING && compare(field, op, value, false);
  };
}

function jsonMatcher(text: string): EventMatcher {
  const cursor = new Cursor(tokenize(text));
  cursor.expect('{');
  const condition = parseBoolean(cursor, jsonLeaf);
  cursor.expect('}');
  if (!cursor.done()) throw invalidFilterPattern();
  return (message) => {
    let document: unknown;
    try {
      document = JSON.parse(message);
    } catch {
      return false;
    }
    return document !== null && typeof document === 'object' && condition(document);
  };
}

// ---- space-delimited patterns ----

interface DelimitedField {
  ellipsis: boolean;
  condition?: (fields: Record<string, string>) => boolean;
}

/** The words of a space-delimited event: "quoted" and [bracketed] stretches are one field each. */
export function delimitedFields(message: string): string[] {
  return [...message.matchAll(/"([^"]*)"|\[([^\]]*)\]|(\S+)/g)].map((match) => match[1] ?? match[2] ?? match[3]);
}

function delimitedMatcher(text: string): EventMatcher {
  const cursor = new Cursor(tokenize(text));
  cursor.expect('[');
  const fields: { name?: string; field: DelimitedField }[] = [];
  const names = new Set<string>();
  for (;;) {
    if (cursor.accept('...', 'word')) {
      fields.push({ field: { ellipsis: true } });
    } else {
      const name = cursor.next();
      if (name.type !== 'word' || !/^[A-Za-z_][\w-]*$/.test(name.text)) throw invalidFilterPattern();
      names.add(name.text);
      const peek = cursor.peek();
      let condition: DelimitedField['condition'];
      if (peek?.type === 'op' && peek.text !== '&&' && peek.text !== '||') {
        condition = parseBoolean(cursor, delimitedLeaf(name.text));
      }
      fields.push({ name: name.text, field: { ellipsis: false, condition } });
    }
    if (cursor.accept(']', 'punct')) break;
    cursor.expect(',');
  }
  if (!cursor.done()) throw invalidFilterPattern();
  return (message) => matchFields(fields, 0, delimitedFields(message), 0, {});
}

function delimitedLeaf(defaultName: string) {
  return (cursor: Cursor): ((fields: Record<string, string>) => boolean) => {
    let name = defaultName;
    const first = cursor.peek();
    if (first?.type === 'word' && cursor.peek() !== undefined && !/^(\*|-?\d)/.test(first.text)) name = cursor.next().text;
    const operator = cursor.next();
    if (operator.type !== 'op' || operator.text === '&&' || operator.text === '||') throw invalidFilterPattern();
    const value = valueOf(cursor.next());
    return (fields) => fields[name] !== undefined && compare(fields[name], operator.text as Operator, value, true);
  };
}

function matchFields(pattern: { name?: string; field: DelimitedField }[], p: number, words: string[], w: number, bound: Record<string, string>): boolean {
  if (p === pattern.length) return w === words.length;
  const { name, field } = pattern[p];
  if (field.ellipsis) {
    for (let skip = w; skip <= words.length; skip++) if (matchFields(pattern, p + 1, words, skip, bound)) return true;
    return false;
  }
  if (w >= words.length) return false;
  const next = { ...bound, [name!]: words[w] };
  if (field.condition && !field.condition(next)) return false;
  return matchFields(pattern, p + 1, words, w + 1, next);
}
