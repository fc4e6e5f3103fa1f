import { isScalar, LineCounter, parseDocument, Pair, Scalar, visit, YAMLMap, type Tags } from 'yaml';
import { ConfigError } from '../errors';

/**
 * CloudFormation's YAML short forms (`!Ref x`, `!GetAtt a.b`, `!Join [...]`, …)
 * become their long JSON forms, so the rest of fw only ever sees `{ Ref: x }`.
 */
const FUNCTIONS: Record<string, string> = {
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

function wrapNode(key: string, node: unknown): YAMLMap {
  const map = new YAMLMap();
  map.items.push(new Pair(new Scalar(key), node));
  return map;
}

function cloudFormationTags(): Tags {
  const tags: Tags = [];
  for (const [short, long] of Object.entries(FUNCTIONS)) {
    const tag = `!${short}`;
    tags.push({
      tag,
      identify: () => false,
      resolve: (value: string) => {
        if (short === 'GetAtt') {
          const dot = value.indexOf('.');
          return { [long]: dot === -1 ? [value] : [value.slice(0, dot), value.slice(dot + 1)] };
        }
        return { [long]: value };
      },
    });
    tags.push({ tag, collection: 'seq', identify: () => false, resolve: (seq) => wrapNode(long, seq) });
    tags.push({ tag, collection: 'map', identify: () => false, resolve: (map) => wrapNode(long, map) });
  }
  return tags;
}

const customTags = cloudFormationTags();

/**
 * Parses a YAML service file; a syntax error names the file, line and column. Duplicate keys are
 * an error, as in Serverless v3; they are found with one set per mapping here, because the
 * library's own check compares every pair of keys (a third of the parse for a 100-function file).
 */
export function parseYaml(text: string, file: string): unknown {
  const lineCounter = new LineCounter();
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
