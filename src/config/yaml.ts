import type { Tags } from 'yaml';
import { ConfigError } from '../errors';
import { parseYamlSubset, SHORT_TAGS, shortTagScalar } from './yaml-subset';

/**
 * Parses a YAML service file: CloudFormation's short forms (`!Ref x`, `!GetAtt a.b`, `!Join [...]`, …)
 * become their long JSON forms, so the rest of fw only ever sees `{ Ref: x }`. Most files are read by
 * the quick subset reader; anything else (and every error) goes through the `yaml` library.
 */
export function parseYaml(text: string, file: string): unknown {
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
  const { isScalar, LineCounter, parseDocument, visit } = require('yaml') as typeof import('yaml');
  const lineCounter = new LineCounter();
  customTags ??= cloudFormationTags();
  const doc = parseDocument(text, { customTags, merge: true, prettyErrors: true, uniqueKeys: false, lineCounter });
  const problem = doc.errors[0];
  if (problem) {
    const where = problem.linePos?.[0];
    const position = where ? `:${where.line}:${where.col}` : '';
    const reason = problem.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    throw new ConfigError(`Cannot parse ${file}${position}: ${reason}`);
  }
  visit(doc, {
    Map(_, map) {
      const seen = new Set<unknown>();
      for (const { key } of map.items) {
        const value = isScalar(key) ? key.value : key;
        if (!seen.has(value)) {
          seen.add(value);
          continue;
        }
        const at = isScalar(key) && key.range ? lineCounter.linePos(key.range[0]) : undefined;
        throw new ConfigError(`Cannot parse ${file}${at ? `:${at.line}:${at.col}` : ''}: Map keys must be unique (${JSON.stringify(value)} appears twice)`);
      }
    },
  });
  return doc.toJS({ maxAliasCount: 10000 }) ?? {};
}
