/**
 * The `${source:address, fallback, …}` syntax, parsed without resolving anything.
 *
 * A `${…}` whose body does not start like a variable source (`${AWS::Region}`,
 * `${MyBucket.Arn}` inside `Fn::Sub`) is plain text and stays as written, and
 * `\${…}` is the escape for a literal `${…}`.
 */

/** One `${…}` found in a string. */
export interface VariableNode {
  /** The text as written, `${opt:stage, 'dev'}`. */
  text: string;
  /** The source, then the fallbacks, as written (trimmed, may hold nested `${…}`). */
  entries: string[];
}

/** A string split into literal text (escapes already undone) and variables. */
export type Template = Array<string | VariableNode>;

/** A fallback or first entry of a variable, classified. */
export type Entry =
  | { kind: 'literal'; value: string | number | boolean | null }
  | { kind: 'variable'; node: VariableNode }
  | { kind: 'source'; text: string };

/** A source reference once nested variables in it are resolved: `ssm(eu-west-1, raw):/path`. */
export interface SourceRef {
  type: string;
  params: string[];
  /** Undefined when the reference has no `:address` part (`file(x.yml)`, `strToBool(true)`). */
  address: string | undefined;
}

const SOURCE_START = /^\s*[a-zA-Z][a-zA-Z0-9]*\s*(\(|:(?!:))/;

/** True when the string holds at least one variable (escaped ones do not count). */
export function hasVariables(value: string): boolean {
  if (!value.includes('${')) return false;
  const template = parseTemplate(value);
  return template.some((part) => typeof part !== 'string');
}

/**
 * Index of the `}` closing the `${` whose body starts at `start`, or -1.
 * A quote opens a literal only where an entry begins (`, 'a}b'`), so an
 * apostrophe inside an address is just a character.
 */
function findClose(text: string, start: number): number {
  let depth = 0;
  let entryStart = true;
  for (let i = start; i < text.length; i += 1) {
    const char = text[i];
    if (entryStart && depth === 0 && (char === '"' || char === "'")) {
      const end = text.indexOf(char, i + 1);
      if (end !== -1) {
        i = end;
        entryStart = false;
        continue;
      }
    }
    if (char === ',' && depth === 0) {
      entryStart = true;
      continue;
    }
    if (char !== ' ') entryStart = false;
    if (char === '$' && text[i + 1] === '{') {
      depth += 1;
      i += 1;
    } else if (char === '}') {
      if (depth === 0) return i;
      depth -= 1;
    }
  }
  return -1;
}

/** Splits a string into literal text and variables. Parsing never fails: odd text stays text. */
export function parseTemplate(value: string): Template {
  const parts: Template = [];
  let literal = '';
  let i = 0;
  while (i < value.length) {
    if (value[i] === '\\' && value[i + 1] === '$' && value[i + 2] === '{') {
      literal += '${';
      i += 3;
      continue;
    }
    if (value[i] === '$' && value[i + 1] === '{') {
      const end = findClose(value, i + 2);
      const body = end === -1 ? '' : value.slice(i + 2, end);
      if (end !== -1 && SOURCE_START.test(body)) {
        if (literal !== '') parts.push(literal);
        literal = '';
        parts.push({ text: value.slice(i, end + 1), entries: splitTopLevel(body, ',').map((entry) => entry.trim()) });
        i = end + 1;
        continue;
      }
      if (end !== -1) {
        // Not a variable (CloudFormation's own `${…}`), but it may still hold variables inside.
        literal += '${';
        i += 2;
        continue;
      }
    }
    literal += value[i];
    i += 1;
  }
  if (literal !== '' || parts.length === 0) parts.push(literal);
  return parts;
}

/** Splits on `separator` outside nested `${…}`, parentheses and quoted literals. */
export function splitTopLevel(text: string, separator: string): string[] {
  const pieces: string[] = [];
  let depth = 0;
  let current = '';
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if ((char === '"' || char === "'") && current.trim() === '') {
      const end = text.indexOf(char, i + 1);
      if (end !== -1) {
        current += text.slice(i, end + 1);
        i = end;
        continue;
      }
    }
    if (char === '$' && text[i + 1] === '{') {
      depth += 1;
      current += '${';
      i += 1;
      continue;
    }
    if (char === '(') depth += 1;
    if ((char === '}' || char === ')') && depth > 0) depth -= 1;
    if (char === separator && depth === 0) {
      pieces.push(current);
      current = '';
      continue;
    }
    current += char;
  }
  pieces.push(current);
  return pieces;
}

/** What an entry of a variable is: a literal, a nested `${…}`, or a source reference. */
export function classifyEntry(entry: string): Entry | undefined {
  if (entry.length >= 2 && (entry[0] === '"' || entry[0] === "'") && entry.endsWith(entry[0])) {
    return { kind: 'literal', value: entry.slice(1, -1) };
  }
  if (/^-?\d+(\.\d+)?$/.test(entry)) return { kind: 'literal', value: Number(entry) };
  if (entry === 'true' || entry === 'false') return { kind: 'literal', value: entry === 'true' };
  if (entry === 'null') return { kind: 'literal', value: null };
  if (entry.startsWith('${')) {
    const template = parseTemplate(entry);
    if (template.length === 1 && typeof template[0] !== 'string') return { kind: 'variable', node: template[0] };
  }
  if (SOURCE_START.test(entry)) return { kind: 'source', text: entry };
  return undefined;
}

/** Reads `type(param, …):address` once nested variables are resolved; undefined when malformed. */
export function parseSourceRef(text: string): SourceRef | undefined {
  const head = /^\s*([a-zA-Z][a-zA-Z0-9]*)\s*/.exec(text);
  if (!head) return undefined;
  const type = head[1];
  let rest = text.slice(head[0].length);
  let params: string[] = [];
  if (rest.startsWith('(')) {
    let depth = 0;
    let end = -1;
    for (let i = 0; i < rest.length; i += 1) {
      if (rest[i] === '(') depth += 1;
      else if (rest[i] === ')') {
        depth -= 1;
        if (depth === 0) {
          end = i;
          break;
        }
      }
    }
    if (end === -1) return undefined;
    params = splitTopLevel(rest.slice(1, end), ',').map((param) => param.trim()).filter((param) => param !== '');
    rest = rest.slice(end + 1);
  }
  if (rest.trim() === '') return { type, params, address: undefined };
  if (!rest.startsWith(':')) return undefined;
  return { type, params, address: rest.slice(1).trim() };
}
