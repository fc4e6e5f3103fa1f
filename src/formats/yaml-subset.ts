/**
 * A quick reader for the YAML that service files are nearly always written in: block mappings
 * and sequences, one-line plain and quoted scalars, one-line flow collections, literal and
 * folded block scalars, comments and CloudFormation's short tags. It reads what it accepts
 * exactly as the `yaml` library does (YAML 1.2, core schema; a differential test holds it to
 * that), and declines everything else: anchors, aliases and merge keys, multi-line plain or
 * quoted scalars, directives and several documents, duplicate keys, tabs, anything malformed.
 * `parseYaml` then hands the text to the library, which also phrases the errors.
 *
 * Why: the library builds a full syntax tree through several layers, and on a command's single
 * cold run that was a sixth of `fw package` for a 100-function service (about 25 ms).
 */

/** CloudFormation's short forms (`!Ref x`, `!GetAtt a.b`, `!Join [...]`) and their long JSON names. */
export const SHORT_TAGS: Readonly<Record<string, string>> = {
  Ref: 'Ref',
  Condition: 'Condition',
  GetAtt: 'Fn::GetAtt',
  Sub: 'Fn::Sub',
  Join: 'Fn::Join',
  If: 'Fn::If',
  Select: 'Fn::Select',
  Split: 'Fn::Split',
  FindInMap: 'Fn::FindInMap',
  ImportValue: 'Fn::ImportValue',
  Base64: 'Fn::Base64',
  GetAZs: 'Fn::GetAZs',
  Equals: 'Fn::Equals',
  Not: 'Fn::Not',
  And: 'Fn::And',
  Or: 'Fn::Or',
  Cidr: 'Fn::Cidr',
  Transform: 'Fn::Transform',
  Length: 'Fn::Length',
  ToJsonString: 'Fn::ToJsonString',
};

/** The long form of a short tag on a scalar: `!GetAtt a.b` is `{ "Fn::GetAtt": ["a", "b"] }`. */
export function shortTagScalar(short: string, text: string): Record<string, unknown> {
  const long = SHORT_TAGS[short];
  if (short !== 'GetAtt') return { [long]: text };
  const dot = text.indexOf('.');
  return { [long]: dot === -1 ? [text] : [text.slice(0, dot), text.slice(dot + 1)] };
}

/** Thrown (never seen outside this file) where the text leaves the subset. */
const DECLINE = Symbol('outside the YAML subset');
const decline = (): never => {
  throw DECLINE;
};

/** The YAML 1.2 core schema's plain scalars, in the library's order. */
const NULL = /^(?:~|[Nn]ull|NULL)?$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT_OCT = /^0o[0-7]+$/;
const INT = /^[-+]?[0-9]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;
/** A first character that makes a plain scalar a string whatever follows. */
const STRING_START = /^[A-EG-MO-SU-Za-eg-mo-su-z/_$]/;

function resolvePlain(text: string): unknown {
  if (STRING_START.test(text)) return text;
  if (NULL.test(text)) return null;
  if (BOOL.test(text)) return text[0] === 't' || text[0] === 'T';
  if (INT_OCT.test(text)) return parseInt(text.substring(2), 8);
  if (INT.test(text)) return parseInt(text, 10);
  if (INT_HEX.test(text)) return parseInt(text.substring(2), 16);
  if (FLOAT_NAN.test(text)) return text.slice(-3).toLowerCase() === 'nan' ? NaN : text[0] === '-' ? -Infinity : Infinity;
  if (FLOAT_EXP.test(text) || FLOAT.test(text)) return parseFloat(text);
  return text;
}

/** A plain key whose JS property name is its own text (`201` is; `0x10` becomes "16", `~` becomes ""). */
function isPlainKey(text: string): boolean {
  const value = resolvePlain(text);
  return typeof value === 'string' || (value !== null && String(value) === text);
}

/** Characters the subset does not take anywhere (the library may, or may call them errors). */
const OUTSIDE = /[\t\r\uFEFF\x00-\x08\x0B\x0C\x0E-\x1F\x7F\x85\u2028\u2029]/;
const TAG = /!([A-Za-z0-9]+)(?= |$)/y;
/** Characters that cannot start a plain scalar (`-` can, when a non-space follows). */
const INDICATORS = new Set(['?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', "'", '"', '%', '@', '`']);
const ESCAPES: Record<string, string> = {
  '0': '\0', a: '\x07', b: '\b', t: '\t', n: '\n', v: '\v', f: '\f', r: '\r', e: '\x1b',
  ' ': ' ', '"': '"', '/': '/', '\\': '\\', N: '\x85', _: '\xa0', L: '\u2028', P: '\u2029',
};
const HEX_LENGTH: Record<string, number> = { x: 2, u: 4, U: 8 };

interface Parsed {
  value: unknown;
  /** The line after the node's last line. */
  next: number;
}

interface Inline {
  value: unknown;
  /** The column after the node, on the same line. */
  end: number;
}

const skipSpaces = (line: string, at: number) => {
  while (line.charCodeAt(at) === 32) at++;
  return at;
};
/** `-` starts a plain scalar when a character that could continue one follows (in flow context, not `,[]{}` either). */
const isPlainStart = (line: string, at: number, flow = false) =>
  at < line.length &&
  (line[at] === '-' ? at + 1 < line.length && line[at + 1] !== ' ' && !(flow && ',[]{}'.includes(line[at + 1])) : !INDICATORS.has(line[at]));
const isDashItem = (line: string, at: number) => line[at] === '-' && (at + 1 === line.length || line[at + 1] === ' ');

class SubsetReader {
  private readonly lines: string[];
  /** Each line's indentation; -1 for a blank or comment-only line. */
  private readonly indents: number[];
  private readonly endsWithNewline: boolean;

  constructor(text: string) {
    this.lines = text.split('\n');
    this.endsWithNewline = this.lines[this.lines.length - 1] === '';
    if (this.endsWithNewline) this.lines.pop();
    this.indents = this.lines.map(line => {
      const indent = skipSpaces(line, 0);
      return indent === line.length || line[indent] === '#' ? -1 : indent;
    });
  }

  document(): unknown {
    let at = this.nextContent(0);
    if (at < this.lines.length && /^---(?: +#.*| *)$/.test(this.lines[at])) at = this.nextContent(at + 1);
    if (at >= this.lines.length) return null;
    const first = this.lines[at];
    if (this.indents[at] === 0 && (first[0] === '%' || first.startsWith('---') || first.startsWith('...'))) decline();
    const root = this.node(at, this.indents[at], -1, false);
    // Anything after the root node (a second document, `...`, a stray line) is the library's to judge.
    if (this.nextContent(root.next) < this.lines.length) decline();
    return root.value;
  }

  private nextContent(line: number): number {
    while (line < this.lines.length && this.indents[line] === -1) line++;
    return line;
  }

  /**
   * The node starting at `column` of `line`, inside a collection indented `parent`. `inline`: it
   * follows a key on the same line, so it cannot open a block collection there.
   */
  private node(line: number, column: number, parent: number, inline: boolean): Parsed {
    const text = this.lines[line];
    const first = text[column];
    if (isDashItem(text, column)) return inline ? decline() : this.sequence(line, column);
    if (first === '[' || first === '{') {
      const flow = this.flow(text, column);
      return this.scalarEnd(line, flow.end, parent, flow.value);
    }
    if (first === '"' || first === "'") {
      const quoted = this.quoted(text, column);
      if (this.isKeyIndicator(text, skipSpaces(text, quoted.end))) return inline ? decline() : this.mapping(line, column);
      return this.scalarEnd(line, quoted.end, parent, quoted.value);
    }
    if (first === '!') return this.tagged(line, column, parent);
    if (first === '|' || first === '>') return this.blockScalar(line, column, parent);
    if (!isPlainStart(text, column)) decline();
    const end = this.plainEnd(text, column);
    if (text[end] === ':') return inline ? decline() : this.mapping(line, column);
    return this.scalarEnd(line, end, parent, resolvePlain(text.slice(column, end).trimEnd()));
  }

  /** A one-line scalar ends its line (a comment may follow) and is not continued on the next one. */
  private scalarEnd(line: number, end: number, parent: number, value: unknown): Parsed {
    this.lineEnd(this.lines[line], end);
    const next = this.nextContent(line + 1);
    if (next < this.lines.length && this.indents[next] > parent) decline();
    return { value, next: line + 1 };
  }

  private lineEnd(text: string, at: number): void {
    const end = skipSpaces(text, at);
    if (end < text.length && !(text[end] === '#' && text[end - 1] === ' ')) decline();
  }

  private isKeyIndicator(text: string, at: number): boolean {
    return text[at] === ':' && (at + 1 === text.length || text[at + 1] === ' ');
  }

  /** Where a plain scalar in block context stops: at `: `, ` #` or the end of the line. */
  private plainEnd(text: string, at: number): number {
    for (let end = at; end < text.length; end++) {
      const char = text[end];
      if (char === ':' && (end + 1 === text.length || text[end + 1] === ' ')) return end;
      if (char === '#' && text[end - 1] === ' ') return end;
    }
    return text.length;
  }

  private mapping(line: number, column: number): Parsed {
    const map: Record<string, unknown> = {};
    let start = column;
    for (;;) {
      const text = this.lines[line];
      let key: string;
      let colon: number;
      if (text[start] === '"' || text[start] === "'") {
        const quoted = this.quoted(text, start);
        key = String(quoted.value);
        colon = skipSpaces(text, quoted.end);
        if (!this.isKeyIndicator(text, colon)) decline();
      } else {
        if (!isPlainStart(text, start)) decline();
        colon = this.plainEnd(text, start);
        if (text[colon] !== ':') decline();
        key = text.slice(start, colon).trimEnd();
        if (!isPlainKey(key)) decline();
      }
      if (key === '<<' || key === '__proto__' || Object.hasOwn(map, key)) decline();
      const valueAt = skipSpaces(text, colon + 1);
      const node = valueAt === text.length || text[valueAt] === '#' ? this.valueBelow(line, column) : this.node(line, valueAt, column, true);
      map[key] = node.value;
      const next = this.nextContent(node.next);
      if (next >= this.lines.length || this.indents[next] < column) return { value: map, next };
      if (this.indents[next] > column) decline();
      line = next;
      start = column;
    }
  }

  /** The value of a key that ends its line: a node indented further, a sequence at the key's own indentation, or null. */
  private valueBelow(line: number, column: number): Parsed {
    const next = this.nextContent(line + 1);
    if (next < this.lines.length) {
      const indent = this.indents[next];
      if (indent > column) return this.nodeBelow(line, next, column);
      if (indent === column && isDashItem(this.lines[next], column)) return this.sequence(next, column);
    }
    return { value: null, next: line + 1 };
  }

  /**
   * The node on line `next` that is the value of the key or dash on `line`. The library misreads a
   * scalar there when a comment line comes between (`key:`, `#note`, `  value`): left to it.
   */
  private nodeBelow(line: number, next: number, parent: number): Parsed {
    if (next > line + 1 && !this.startsBlockCollection(next)) {
      for (let between = line + 1; between < next; between++) if (this.lines[between].trim() !== '') decline();
    }
    return this.node(next, this.indents[next], parent, false);
  }

  /** A `- item` or `key:` (plain key) begins at the line's indentation. */
  private startsBlockCollection(line: number): boolean {
    const text = this.lines[line];
    const indent = this.indents[line];
    return isDashItem(text, indent) || (isPlainStart(text, indent) && text[this.plainEnd(text, indent)] === ':');
  }

  private sequence(line: number, column: number): Parsed {
    const items: unknown[] = [];
    for (;;) {
      const text = this.lines[line];
      const at = skipSpaces(text, column + 1);
      let node: Parsed;
      if (at === text.length || text[at] === '#') {
        const next = this.nextContent(line + 1);
        node = next < this.lines.length && this.indents[next] > column ? this.nodeBelow(line, next, column) : { value: null, next: line + 1 };
      } else {
        node = this.node(line, at, column, false);
      }
      items.push(node.value);
      const next = this.nextContent(node.next);
      if (next >= this.lines.length || this.indents[next] < column) return { value: items, next };
      if (this.indents[next] > column) decline();
      if (!isDashItem(this.lines[next], column)) return { value: items, next };
      line = next;
    }
  }

  private tagged(line: number, column: number, parent: number): Parsed {
    const text = this.lines[line];
    TAG.lastIndex = column;
    const match = TAG.exec(text);
    if (!match || !Object.hasOwn(SHORT_TAGS, match[1])) decline();
    const short = match![1];
    const at = skipSpaces(text, column + match![0].length);
    if (at === text.length || text[at] === '#') {
      // `!Join` alone on its line: the collection below is its argument.
      const next = this.nextContent(line + 1);
      if (next >= this.lines.length || this.indents[next] <= parent) decline();
      if (!this.startsBlockCollection(next)) decline();
      const node = this.node(next, this.indents[next], parent, false);
      return { value: { [SHORT_TAGS[short]]: node.value }, next: node.next };
    }
    const first = text[at];
    if (first === '[' || first === '{') {
      const flow = this.flow(text, at);
      return this.scalarEnd(line, flow.end, parent, { [SHORT_TAGS[short]]: flow.value });
    }
    if (first === '|' || first === '>') {
      const block = this.blockScalar(line, at, parent);
      return { value: shortTagScalar(short, block.value as string), next: block.next };
    }
    if (first === '"' || first === "'") {
      const quoted = this.quoted(text, at);
      return this.scalarEnd(line, quoted.end, parent, shortTagScalar(short, quoted.value as string));
    }
    if (!isPlainStart(text, at)) decline();
    const end = this.plainEnd(text, at);
    if (text[end] === ':') decline();
    return this.scalarEnd(line, end, parent, shortTagScalar(short, text.slice(at, end).trimEnd()));
  }

  /** `|` and `>` with an optional `-`/`+`; the indentation is found from the first line, never given. */
  private blockScalar(line: number, column: number, parent: number): Parsed {
    const header = this.lines[line];
    const chomping = header[column + 1] === '-' ? 'strip' : header[column + 1] === '+' ? 'keep' : 'clip';
    this.lineEnd(header, column + (chomping === 'clip' ? 1 : 2));
    const body: string[] = [];
    let indent = -1;
    for (let next = line + 1; next < this.lines.length; next++) {
      const text = this.lines[next];
      const spaces = skipSpaces(text, 0);
      if (spaces < text.length) {
        if (spaces <= parent) break;
        if (indent === -1) indent = spaces;
        else if (spaces < indent) decline();
      }
      body.push(text);
    }
    if (indent === -1) decline();
    // A blank line holding more spaces than the indentation carries content (or is an error): the library's.
    if (body.some(text => text.length > indent && skipSpaces(text, 0) === text.length)) decline();
    let end = body.length;
    while (end > 0 && skipSpaces(body[end - 1], 0) === body[end - 1].length) end--;
    // A last line without a line break, or kept trailing blank lines: left to the library.
    if ((line + end === this.lines.length - 1 && !this.endsWithNewline) || (chomping === 'keep' && end < body.length)) decline();
    const content = body.slice(0, end).map(text => (text.length > indent ? text.slice(indent) : ''));
    let value: string;
    if (header[column] === '|') {
      value = content.join('\n');
    } else {
      // Folded: lines join with a space, a run of blank lines becomes that many line breaks.
      if (content[0] === '' || content[0][0] === ' ') decline();
      value = content[0];
      let blanks = 0;
      for (const text of content.slice(1)) {
        if (text === '') {
          blanks++;
          continue;
        }
        if (text[0] === ' ') decline();
        value += blanks > 0 ? '\n'.repeat(blanks) : ' ';
        value += text;
        blanks = 0;
      }
    }
    if (chomping !== 'strip') value += '\n';
    return { value, next: line + 1 + end };
  }

  private quoted(text: string, at: number): Inline {
    if (text[at] === "'") {
      let value = '';
      for (let from = at + 1; ; ) {
        const quote = text.indexOf("'", from);
        if (quote === -1) return decline();
        value += text.slice(from, quote);
        if (text[quote + 1] !== "'") return { value, end: quote + 1 };
        value += "'";
        from = quote + 2;
      }
    }
    let value = '';
    let from = at + 1;
    for (let index = from; index < text.length; index++) {
      const char = text[index];
      if (char === '"') return { value: value + text.slice(from, index), end: index + 1 };
      if (char !== '\\') continue;
      value += text.slice(from, index);
      const escape = text[index + 1];
      const length = HEX_LENGTH[escape];
      if (length !== undefined) {
        const hex = text.substr(index + 2, length);
        if (hex.length !== length || !/^[0-9a-fA-F]+$/.test(hex)) decline();
        value += String.fromCodePoint(parseInt(hex, 16));
        index += 1 + length;
      } else {
        if (!Object.hasOwn(ESCAPES, escape)) decline();
        value += ESCAPES[escape];
        index += 1;
      }
      from = index + 1;
    }
    return decline();
  }

  /** A flow collection that closes on its own line (`[a, b]`, `{ Ref: x }`). */
  private flow(text: string, at: number): Inline {
    const close = text[at] === '[' ? ']' : '}';
    const items: unknown[] = [];
    const map: Record<string, unknown> = {};
    let index = skipSpaces(text, at + 1);
    while (text[index] !== close) {
      if (close === ']') {
        const item = this.flowNode(text, index);
        items.push(item.value);
        index = skipSpaces(text, item.end);
      } else {
        let key: string;
        if (text[index] === '"' || text[index] === "'") {
          const quoted = this.quoted(text, index);
          key = quoted.value as string;
          index = quoted.end;
        } else {
          if (!isPlainStart(text, index, true)) decline();
          const end = this.flowPlainEnd(text, index);
          key = text.slice(index, end).trimEnd();
          if (!isPlainKey(key)) decline();
          index = end;
        }
        index = skipSpaces(text, index);
        if (text[index] !== ':' || key === '<<' || key === '__proto__' || Object.hasOwn(map, key)) decline();
        index = skipSpaces(text, index + 1);
        if (text[index] === ',' || text[index] === '}') {
          map[key] = null;
        } else {
          const value = this.flowNode(text, index);
          map[key] = value.value;
          index = skipSpaces(text, value.end);
        }
      }
      if (text[index] === ',') index = skipSpaces(text, index + 1);
      else if (text[index] !== close) decline();
    }
    return { value: close === ']' ? items : map, end: index + 1 };
  }

  private flowNode(text: string, at: number): Inline {
    const first = text[at];
    let node: Inline;
    if (first === '[' || first === '{') {
      node = this.flow(text, at);
    } else if (first === '"' || first === "'") {
      node = this.quoted(text, at);
    } else if (first === '!') {
      TAG.lastIndex = at;
      const match = TAG.exec(text);
      if (!match || !Object.hasOwn(SHORT_TAGS, match[1])) decline();
      const short = match![1];
      const start = skipSpaces(text, at + match![0].length);
      if (text[start] === '[' || text[start] === '{') {
        const flow = this.flow(text, start);
        node = { value: { [SHORT_TAGS[short]]: flow.value }, end: flow.end };
      } else if (text[start] === '"' || text[start] === "'") {
        const quoted = this.quoted(text, start);
        node = { value: shortTagScalar(short, quoted.value as string), end: quoted.end };
      } else {
        if (!isPlainStart(text, start, true)) decline();
        const end = this.flowPlainEnd(text, start);
        node = { value: shortTagScalar(short, text.slice(start, end).trimEnd()), end };
      }
    } else {
      if (!isPlainStart(text, at, true)) decline();
      const end = this.flowPlainEnd(text, at);
      node = { value: resolvePlain(text.slice(at, end).trimEnd()), end };
    }
    // `[a: b]` (a pair in a sequence) or `{a: b: c}`: the library's to read or refuse.
    if (text[skipSpaces(text, node.end)] === ':') decline();
    return node;
  }

  /** Where a plain scalar in flow context stops: at a flow indicator, `: `, ` #` or the end of the line. */
  private flowPlainEnd(text: string, at: number): number {
    for (let end = at; end < text.length; end++) {
      const char = text[end];
      if (char === ',' || char === '[' || char === ']' || char === '{' || char === '}') return end;
      if (char === ':' && (end + 1 === text.length || ' ,[]{}'.includes(text[end + 1]))) return end;
      if (char === '#' && text[end - 1] === ' ') return end;
    }
    return text.length;
  }
}

/** The document's value, or undefined when the text is outside the subset (the caller then uses the library). */
export function parseYamlSubset(text: string): { value: unknown } | undefined {
  if (OUTSIDE.test(text)) return undefined;
  try {
    return { value: new SubsetReader(text).document() };
  } catch (error) {
    if (error === DECLINE) return undefined;
    throw error;
  }
}
