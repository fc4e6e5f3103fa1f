import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseYamlWithLibrary } from '../../src/formats/yaml';
import { parseYamlSubset } from '../../src/formats/yaml-subset';

const subset = suite('YAML subset reader');

/** The library's reading of a text, or the error it raises. */
function library(text: string): { value: unknown } | { error: string } {
  try {
    return { value: parseYamlWithLibrary(text, 'fw.yml') };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** The subset reader either declines or reads exactly what the library reads (null documents aside: both become {}). */
function agrees(text: string): boolean {
  const quick = parseYamlSubset(text);
  if (!quick) return false;
  const expected = library(text);
  if ('error' in expected) assert.unreachable(`accepted a text the library refuses (${expected.error}):\n${text}`);
  else assert.equal(quick.value ?? {}, expected.value, `read differently from the library:\n${text}`);
  return true;
}

const accepted = (text: string, value: unknown) => {
  assert.ok(agrees(text), `declined:\n${text}`);
  assert.equal(parseYamlSubset(text)!.value, value);
};

subset('reads block mappings, sequences and the core schema scalars as the library does', () => {
  accepted(
    [
      '# a service',
      '---',
      'service: app',
      'frameworkVersion: \'3\'',
      'provider:',
      '  name: aws',
      '  memorySize: 512 # MB',
      '  tracing: true',
      '  stage: ~',
      '  ratio: 1.5',
      '  hex: 0x1F',
      '  octal: 0o17',
      '  big: 1e3',
      '  notANumber: 1.2.3',
      '  yes: yes',
      'functions:',
      '  hello:',
      '    handler: src/hello.handler',
      '    events:',
      '    - httpApi: GET /hello/{id}',
      '    -   http:',
      '          path: a#b',
      '          method: post',
      '    - sqs: arn:aws:sqs:us-east-1:123456789012:q',
      '    -',
      '    - - nested',
      '      - list',
      '  empty:',
      '  "quoted key": \'it\'\'s\'',
      '  escaped: "tab\\there \\u00e9 \\x41"',
      '  201: created',
      '  Fn::GetAtt: x',
      '',
    ].join('\n'),
    {
      service: 'app',
      frameworkVersion: '3',
      provider: { name: 'aws', memorySize: 512, tracing: true, stage: null, ratio: 1.5, hex: 31, octal: 15, big: 1000, notANumber: '1.2.3', yes: 'yes' },
      functions: {
        hello: {
          handler: 'src/hello.handler',
          events: [
            { httpApi: 'GET /hello/{id}' },
            { http: { path: 'a#b', method: 'post' } },
            { sqs: 'arn:aws:sqs:us-east-1:123456789012:q' },
            null,
            ['nested', 'list'],
          ],
        },
        empty: null,
        'quoted key': "it's",
        escaped: 'tab\there é A',
        '201': 'created',
        'Fn::GetAtt': 'x',
      },
    },
  );
});

subset('reads short tags, flow collections and block scalars', () => {
  accepted(
    [
      'a: !Ref Bucket',
      'b: !GetAtt Fn.Arn.Extra',
      'c: !Join [\'-\', [a, !Ref B, "c"]]',
      'd: { Ref: X, "k": [1, 2,], e: }',
      'e: !Base64 |',
      '  #!/bin/bash',
      '  echo hi',
      '',
      '    indented',
      'f: >-',
      '  folded',
      '  text',
      '',
      '  para',
      'g: |+',
      '  kept',
      'h: !Sub',
      '  - ${A}-${B}',
      '  - { A: !Ref X, B: b }',
      'i: []',
      'j: {}',
      '',
    ].join('\n'),
    {
      a: { Ref: 'Bucket' },
      b: { 'Fn::GetAtt': ['Fn', 'Arn.Extra'] },
      c: { 'Fn::Join': ['-', ['a', { Ref: 'B' }, 'c']] },
      d: { Ref: 'X', k: [1, 2], e: null },
      e: { 'Fn::Base64': '#!/bin/bash\necho hi\n\n  indented\n' },
      f: 'folded text\npara',
      g: 'kept\n',
      h: { 'Fn::Sub': ['${A}-${B}', { A: { Ref: 'X' }, B: 'b' }] },
      i: [],
      j: {},
    },
  );
});

subset('declines what it does not read and leaves it, and every error, to the library', () => {
  const declined = [
    'base: &base { a: 1 }\nfn:\n  <<: *base\n', // anchors, aliases, merge keys
    'a: b\n  c\n', // a multi-line plain scalar
    'a: "one\n  two"\n', // a multi-line quoted scalar
    'a: [1,\n  2]\n', // a multi-line flow collection
    'a: 1\na: 2\n', // a duplicate key
    '%YAML 1.2\n---\na: 1\n', // a directive
    'a: 1\n---\nb: 2\n', // two documents
    'a:\n\tb: 1\n', // a tab
    'a: !Unknown x\n', // a tag fw does not know
    'a: |2\n   x\n', // an explicit indentation indicator
    '0x10: a\n', // a key the library turns into another string ("16")
    'a: b: c\n', // an error
    'a:\n  - b\n c: 1\n', // bad indentation
    '[a, b]: c\n', // a complex key
    'a: [-]\n', // a block sequence indicator inside a flow collection (found by the generator below)
    'null: x\n', // a key the library turns into ""
    'c:\n#note\n  x\nb: 1\n', // a comment between a key and its scalar: the library misreads it (found by the generator)
  ];
  for (const text of declined) assert.is(parseYamlSubset(text), undefined, text);
});

/** A small seeded generator (mulberry32): the same documents on every run. */
function random(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  return { next, pick };
}

const PLAIN = [
  'null', 'Null', '~', 'true', 'False', 'TRUE', 'yes', 'off', '0', '-0', '+5', '007', '0o17', '0o8', '0x1F', '0xg', '1.5', '.5', '1.', '1e3',
  '-1E-3', '.inf', '-.Inf', '.nan', '.NaN', 'nan', 'abc', 'a b', 'a:b', 'a: b', 'a #b', 'a#b', '-a', '- a', '--', '?x', ':x', '@x', '%x',
  'GET /f0', 'arn:aws:sqs:us-east-1:1:q', '${self:custom.x}', 'http://x.y/z', 'C:\\dir', "it's", 'a"b', '[x', '{x', 'x]', 'x,y', '!Ref',
  '&a', '*a', 'é', '日本', 'trailing ', 'a  b', 'x:', '|', '>', "'", '"', '#', '-', 'a}',
];
/** Plain scalars that are valid anywhere a block value may stand. */
const SAFE_PLAIN = PLAIN.filter(text => !/^[-?:@%[{&*!|>'"#]|: | #|:$|^$| $/.test(text) || /^-[^ ]/.test(text));
const KEYS = ['a', 'b', 'Fn::GetAtt', '201', '007', 'true', 'null', '<<', '__proto__', 'key with space', 'x-y', 'c', 'a#b', "'q'", '"d"', '1.0'];
const TAGS = ['!Ref', '!GetAtt', '!Sub', '!Join', '!If', '!Base64', '!Equals', '!Foo', '!!str', '!'];
const SAFE_KEYS = KEYS.filter(key => !['<<', '__proto__', 'null', '1.0', '007'].includes(key));
const SAFE_TAGS = TAGS.slice(0, 7);

/** `wild`: tokens that are errors or outside the subset are common; otherwise rare. */
function generate(seed: number, wild: boolean): string {
  const { next, pick } = random(seed);
  const either = <T>(safe: readonly T[], all: readonly T[]): T => pick(!wild && next() < 0.97 ? safe : all);
  const plain = () => either(SAFE_PLAIN, PLAIN);
  const key = () => either(SAFE_KEYS, KEYS);
  const tag = () => either(SAFE_TAGS, TAGS);
  const scalar = (): string => {
    const text = plain();
    const style = next();
    if (style < 0.55) return text;
    if (style < 0.7) return `'${text.replace(/'/g, "''")}'`;
    if (style < 0.8) return JSON.stringify(text).replace(/é/g, '\\u00e9').replace(/a/g, () => (next() < 0.2 ? '\\x61' : 'a'));
    if (style < 0.9) return `${tag()} ${next() < 0.5 ? text : `'${text.replace(/'/g, "''")}'`}`;
    return flow(2);
  };
  const flow = (depth: number): string => {
    const count = Math.floor(next() * 4);
    const items = Array.from({ length: count }, () => (depth > 0 && next() < 0.25 ? flow(depth - 1) : either(SAFE_PLAIN, PLAIN).replace(/[,[\]{}]/g, '')));
    if (next() < 0.5) return `${next() < 0.3 ? `${tag()} ` : ''}[${items.join(', ')}${next() < 0.1 ? ',' : ''}]`;
    return `{${items.map((item, i) => `${key()}${i % 3 === 2 ? ':' : ': '}${item}`).join(', ')}}`;
  };
  const lines: string[] = [];
  const comment = (indent: number) => {
    if (next() < 0.08) lines.push(`${' '.repeat(Math.floor(next() * (indent + 3)))}${pick(['# note', '#note', '#'])}`);
    if (next() < 0.05) lines.push(next() < 0.5 ? '' : ' '.repeat(Math.floor(next() * 6)));
  };
  const trailing = () => (next() < 0.1 ? ' # why' : next() < 0.05 ? '#no' : next() < 0.05 ? '  ' : '');
  const blockScalar = (indent: number): string[] => {
    const count = 1 + Math.floor(next() * 3);
    const body = Array.from({ length: count }, () => {
      const roll = next();
      if (roll < 0.15) return '';
      if (roll < 0.25) return ' '.repeat(indent + Math.floor(next() * 3));
      return `${' '.repeat(indent + (next() < 0.15 ? 2 : 0))}${pick(['line', '# hash', 'a: b', '- item', 'x'])}`;
    });
    return body;
  };
  const value = (indent: number, depth: number, inSequence: boolean): { inline: string; below: string[] } => {
    const roll = next();
    const step = 1 + Math.floor(next() * 3);
    if (depth <= 0 || roll < 0.45) return { inline: ` ${scalar()}${trailing()}`, below: [] };
    if (roll < 0.55) {
      const indicator = `${pick(['|', '>'])}${pick(wild ? ['', '-', '+', '2'] : ['', '-', '+'])}`;
      return { inline: ` ${next() < 0.2 ? '!Sub ' : ''}${indicator}${trailing()}`, below: blockScalar(indent + step) };
    }
    if (roll < 0.6) return { inline: trailing(), below: [] };
    const saved = lines.length;
    if (roll < 0.8) {
      const zeroIndent = !inSequence && next() < 0.3;
      block(zeroIndent ? indent : indent + step, depth - 1, 'sequence');
    } else {
      block(indent + step, depth - 1, 'mapping');
    }
    const below = lines.splice(saved);
    return { inline: next() < 0.1 ? ` ${tag()}` : trailing(), below };
  };
  const block = (indent: number, depth: number, kind: 'mapping' | 'sequence') => {
    const count = 1 + Math.floor(next() * 4);
    for (let i = 0; i < count; i++) {
      comment(indent);
      const pad = ' '.repeat(indent);
      if (kind === 'mapping') {
        const entry = value(indent, depth, false);
        lines.push(`${pad}${key()}:${entry.inline}`, ...entry.below);
      } else if (next() < 0.4 && depth > 0) {
        // A compact mapping inside the item: `- key: value` and its siblings under it.
        const gap = 1 + Math.floor(next() * 2);
        const inner = indent + 1 + gap;
        const first = value(inner, depth - 1, true);
        lines.push(`${pad}-${' '.repeat(gap)}${key()}:${first.inline}`, ...first.below);
        if (next() < 0.5) {
          const second = value(inner, depth - 1, true);
          lines.push(`${' '.repeat(inner)}${key()}:${second.inline}`, ...second.below);
        }
      } else {
        const entry = value(indent, depth, true);
        lines.push(`${pad}-${entry.inline}`, ...entry.below);
      }
    }
  };
  if (next() < 0.1) lines.push('---');
  block(next() < 0.1 ? 2 : 0, 3, next() < 0.8 ? 'mapping' : 'sequence');
  return lines.join('\n') + (next() < 0.9 ? '\n' : '');
}

function mutate(text: string, seed: number): string {
  const { next, pick } = random(seed);
  const at = Math.floor(next() * text.length);
  const roll = next();
  if (roll < 0.3) return text.slice(0, at) + text.slice(at + 1);
  if (roll < 0.7) return text.slice(0, at) + pick([' ', ':', '#', '-', '\n', "'", '"', '[', '{', '!', '&', '  ']) + text.slice(at);
  const lines = text.split('\n');
  const line = Math.floor(next() * lines.length);
  lines[line] = next() < 0.5 ? ` ${lines[line]}` : lines[line].replace(/^ /, '');
  return lines.join('\n');
}

subset('agrees with the library on generated documents and their mutations (seeded)', () => {
  let read = 0;
  let total = 0;
  for (let seed = 1; seed <= 1200; seed++) {
    const text = generate(seed, seed % 3 === 0);
    for (const variant of [text, mutate(text, seed * 7 + 1), mutate(text, seed * 7 + 2)]) {
      total += 1;
      if (agrees(variant)) read += 1;
    }
  }
  // Not a target, a guard: a reader that declined everything would agree trivially.
  assert.ok(read > total / 5, `read only ${read} of ${total}`);
});

subset("reads every YAML file of fw's examples and templates, as the library does", () => {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (name === 'node_modules') continue;
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.ya?ml$/.test(name)) files.push(path);
    }
  };
  const root = join(__dirname, '..', '..', '..');
  walk(join(root, 'examples'));
  walk(join(root, 'templates'));
  assert.ok(files.length >= 10, `found ${files.length} files`);
  for (const file of files) assert.ok(agrees(readFileSync(file, 'utf8')), `declined ${file}`);
});

subset.run();
