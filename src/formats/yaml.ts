import type { Tags } from 'yaml';
import { ConfigError } from '../errors';
import { lineColumn, syntaxError } from './code-frame';
import { MAX_NESTING } from './plain-data';
import { explainYamlMistake } from './yaml-mistakes';
import { parseYamlSubset, SHORT_TAGS, shortTagScalar } from './yaml-subset';

/**
 * Parses a YAML service file: CloudFormation's short forms (`!Ref x`, `!GetAtt a.b`, `!Join [...]`, …)
 * become their long JSON forms, so the rest of fw only ever sees `{ Ref: x }`. Most files are read by
 * the quick subset reader; anything else (and every error) goes through the `yaml` library.
 */
export function parseYaml(text: string, file: string): unknown {
  checkNesting(text, file);
  const quick = parseYamlSubset(text);
  return quick ? (quick.value ?? {}) : parseYamlWithLibrary(text, file);
}

let customTags: Tags | undefined;

function cloudFormationTags(): Tags {
  const { Pair, Scalar, YAMLMap } = require('yaml') as typeof import('yaml');
  const wrap = (long: string, node: unknown) => {
    const map = new YAMLMap();
    map.items.push(new Pair(new Scalar(long), node));
    return map;
  };
  const tags: Tags = [];
  for (const [short, long] of Object.entries(SHORT_TAGS)) {
    const tag = `!${short}`;
    tags.push({ tag, identify: () => false, resolve: (value: string) => shortTagScalar(short, value) });
    tags.push({ tag, collection: 'seq', identify: () => false, resolve: seq => wrap(long, seq) });
    tags.push({ tag, collection: 'map', identify: () => false, resolve: map => wrap(long, map) });
  }
  return tags;
}

/**
 * The full YAML library; a syntax error names the file, line and column. Duplicate keys are
 * an error, as in Serverless v3; they are found with one set per mapping here, because the
 * library's own check compares every pair of keys (a third of the parse for a 100-function file).
 */
export function parseYamlWithLibrary(text: string, file: string): unknown {
  const { isScalar, parseDocument, visit } = require('yaml') as typeof import('yaml');
  customTags ??= cloudFormationTags();
  const doc = parseDocument(text, { customTags, merge: true, prettyErrors: true, uniqueKeys: false });
  const problem = doc.errors[0];
  if (problem) {
    const reason = problem.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    const offset = errorOffset(text, problem.code, reason, problem.pos[0]);
    const plain = explainYamlMistake(text, problem.code, reason, offset);
    throw syntaxError(file, text, plain?.reason ?? reason, lineColumn(text, plain?.offset ?? offset));
  }
  visit(doc, {
    Map(_, map) {
      const seen = new Map<unknown, unknown>();
      for (const { key } of map.items) {
        const value = isScalar(key) ? key.value : key;
        if (!seen.has(value)) {
          seen.set(value, key);
          continue;
        }
        const first = seen.get(value);
        const firstLine = isScalar(first) && first.range ? ` (first set on line ${lineColumn(text, first.range[0]).line})` : '';
        const at = isScalar(key) && key.range ? lineColumn(text, key.range[0]) : undefined;
        throw syntaxError(file, text, `duplicated mapping key ${JSON.stringify(value)}${firstLine}: a key may appear once in a mapping`, at);
      }
    },
  });
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? {};
  } catch (error) {
    if (!/excessive alias count/i.test((error as Error).message)) throw error;
    throw new ConfigError(`Cannot parse ${file}: its aliases (*name) expand to too many nodes (the limit, ${MAX_ALIAS_COUNT}, stops "billion laughs" files that would exhaust memory)`);
  }
}

/** How many nodes aliases may expand to in total (the `yaml` library's own measure). */
export const MAX_ALIAS_COUNT = 10_000;

/**
 * Refuses YAML nested deeper than any configuration needs before a parser sees it: the
 * `yaml` library recurses per level and runs out of stack, or of memory, on a few thousand
 * nested `[`. Counts block indentation levels and open flow brackets outside quotes and
 * comments (brackets inside a block scalar count too, which only errs on the safe side).
 */
function checkNesting(text: string, file: string): void {
  const indents: number[] = [];
  let flow = 0;
  let line = 1;
  let lineStart = 0;
  let quote = '';
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === '\n') {
      line += 1;
      lineStart = index + 1;
      continue;
    }
    if (quote !== '') {
      if (char === '\\' && quote === '"') index += 1;
      else if (char === quote) quote = '';
      continue;
    }
    if (index === lineStart && flow === 0) {
      let indent = 0;
      while (text[index + indent] === ' ') indent += 1;
      const next = text[index + indent];
      if (next !== undefined && next !== '\n' && next !== '#') {
        while (indents.length > 0 && indents[indents.length - 1] >= indent) indents.pop();
        indents.push(indent);
      }
    }
    if (char === '#' && (index === lineStart || /\s/.test(text[index - 1]))) {
      const end = text.indexOf('\n', index);
      index = (end === -1 ? text.length : end) - 1;
    } else if ((char === '"' || char === "'") && (index === lineStart || /[\s[{,:]/.test(text[index - 1]))) quote = char;
    else if (char === '[' || char === '{') flow += 1;
    else if ((char === ']' || char === '}') && flow > 0) flow -= 1;
    if (indents.length + flow > MAX_NESTING) {
      throw new ConfigError(`Cannot parse ${file}:${line}:${index - lineStart + 1}: nested more than ${MAX_NESTING} levels deep`);
    }
  }
}

/**
 * Where the user should look for a YAML error. The parser reports where it noticed the problem:
 * for an unclosed quote or bracket that is the end of the file, and for a misplaced item the start
 * of its line. The quote or bracket that was opened, or the item itself, is what needs fixing.
 */
function errorOffset(text: string, code: string, reason: string, offset: number): number {
  const unclosed = code === 'MISSING_CHAR' && /quote/.test(reason) ? (/'quote/.test(reason) ? "'" : '"') : /^Flow (sequence|map)/.exec(reason) ? (reason.includes('sequence') ? '[' : '{') : undefined;
  if (unclosed) {
    const open = openedBefore(text, offset, unclosed);
    if (open >= 0) return open;
  }
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  if (offset === lineStart) {
    const indent = /^[ \t]*/.exec(text.slice(lineStart))?.[0].length ?? 0;
    const lineEnd = text.indexOf('\n', lineStart);
    if (lineStart + indent < (lineEnd < 0 ? text.length : lineEnd)) return lineStart + indent;
  }
  return offset;
}

/** The last `"`, `'`, `[` or `{` before `offset` that starts a value (after `: `, `- `, `[`, `,` or an indent). */
function openedBefore(text: string, offset: number, char: string): number {
  for (let at = text.lastIndexOf(char, offset - 1); at >= 0; at = text.lastIndexOf(char, at - 1)) {
    const before = text.slice(text.lastIndexOf('\n', at - 1) + 1, at);
    if (before.trim() === '' || /[:\-[{,]\s*$/.test(before)) return at;
  }
  return -1;
}
