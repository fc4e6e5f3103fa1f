/**
 * Seeded mutants of a service: each one a service folder (file name → text) that fw must
 * either package or refuse with a clean one-line error. Shared by the fuzz suite
 * (test/config/fuzz.test.ts) and the longer `npm run fuzz` (scripts/fuzz.js).
 */

export interface Mutant {
  /** What was changed, enough to rebuild it by hand. */
  description: string;
  /** The service folder: `fw.yml`, `fw.json` or `fw.js`, plus the handler. */
  files: Record<string, string>;
  /** Only meaningful through the CLI (its event loop is kept busy): skipped in-process. */
  cliOnly?: boolean;
}

/** mulberry32: small, fast, and the same numbers for the same seed everywhere. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A service touching most of what fw reads: provider settings, a role, functions with several event types, resources. */
export function baseService(): { [key: string]: Json } {
  return {
    service: 'fuzz',
    frameworkVersion: '3',
    provider: {
      name: 'aws',
      runtime: 'nodejs20.x',
      stage: 'dev',
      region: 'eu-west-1',
      memorySize: 512,
      timeout: 10,
      architecture: 'arm64',
      logRetentionInDays: 14,
      environment: { TABLE: 'items', DEBUG: 'true' },
      tags: { team: 'core' },
      stackTags: { cost: 'fuzz' },
      tracing: { lambda: true, apiGateway: true },
      iam: { role: { statements: [{ Effect: 'Allow', Action: ['s3:GetObject'], Resource: 'arn:aws:s3:::b/*' }], managedPolicies: ['arn:aws:iam::aws:policy/ReadOnlyAccess'] } },
      vpc: { securityGroupIds: ['sg-1'], subnetIds: ['subnet-1'] },
      httpApi: { cors: true, payload: '2.0' },
      apiGateway: { apiKeys: ['k1'] },
      deploymentPrefix: 'deploys',
      versionFunctions: true,
    },
    package: { patterns: ['!tmp/**'], individually: false },
    custom: { table: 'items', nested: { list: [1, 'two', { three: 3 }] } },
    functions: {
      hello: {
        handler: 'handler.hello',
        description: 'Says hello',
        memorySize: 256,
        timeout: 5,
        runtime: 'nodejs20.x',
        environment: { GREETING: 'hi' },
        tags: { fn: 'hello' },
        layers: ['arn:aws:lambda:eu-west-1:123456789012:layer:x:1'],
        url: { cors: true },
        reservedConcurrency: 5,
        maximumRetryAttempts: 1,
        destinations: { onFailure: 'arn:aws:sqs:eu-west-1:123456789012:dlq' },
        events: [
          { httpApi: 'GET /hello/{id}' },
          { http: { method: 'post', path: 'items', cors: true } },
          { sqs: { arn: 'arn:aws:sqs:eu-west-1:123456789012:q', batchSize: 5 } },
          { schedule: { rate: 'rate(5 minutes)', input: { a: 1 } } },
          { sns: 'alerts' },
          { s3: { bucket: 'uploads', event: 's3:ObjectCreated:*' } },
        ],
      },
      'other-fn_2': { handler: 'handler.other', vpc: null, events: [{ eventBridge: { pattern: { source: ['app'] } } }] },
    },
    resources: {
      Resources: { Table: { Type: 'AWS::DynamoDB::Table', Properties: { TableName: 'items', BillingMode: 'PAY_PER_REQUEST' } } },
      Outputs: { TableArn: { Value: { 'Fn::GetAtt': ['Table', 'Arn'] } } },
      extensions: { HelloLogGroup: { Properties: { RetentionInDays: 7 } } },
    },
  };
}

const HANDLER = 'exports.hello = async () => ({ statusCode: 200 });\nexports.other = async () => {};\n';

/** Values a key may be swapped to: every JSON type, edges of each, and hostile text. */
const SWAPS: Array<{ label: string; value: () => Json }> = [
  { label: 'null', value: () => null },
  { label: 'true', value: () => true },
  { label: '0', value: () => 0 },
  { label: '-1', value: () => -1 },
  { label: '1e308', value: () => 1e308 },
  { label: '1.5', value: () => 1.5 },
  { label: '""', value: () => '' },
  { label: '"x"', value: () => 'x' },
  { label: 'a 200 000-character string', value: () => 'y'.repeat(200_000) },
  { label: 'a string with control characters', value: () => 'a\u0000b\nc\u001b[31md\u200be' },
  { label: '[]', value: () => [] },
  { label: '[1, "a"]', value: () => [1, 'a'] },
  { label: '[[[]]]', value: () => [[[]]] },
  { label: '{}', value: () => ({}) },
  { label: '{ a: 1 }', value: () => ({ a: 1 }) },
  { label: '{ Ref: "X" }', value: () => ({ Ref: 'X' }) },
  { label: 'a list of 2 000 items', value: () => Array.from({ length: 2000 }, (_, i) => `i${i}`) },
];

/** YAML-only values the JSON ones above cannot spell. */
const YAML_SWAPS = ['.inf', '-.inf', '.nan', '!Ref X', '!GetAtt [A, B]', '~', '0x1F', '2024-01-01', '"\\u0000"', '&a [*a]'];

const HOSTILE_NAMES = [
  'he llo', 'a/b', 'nul\u0000', 'line\nbreak', 'emoji😀', 'zero\u200bwidth', '', 'x'.repeat(300), 'Hello', 'other-fn_2',
  'otherDashfnUnderscore2', '__proto__', 'constructor', 'toString', '1', 'a.b', 'tab\there', 'ünïcode',
];

/** Every path (list of keys) in the value, parents before children. */
function paths(value: Json, prefix: string[] = []): string[][] {
  const found: string[][] = [prefix];
  if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) found.push(...paths(child, [...prefix, key]));
  }
  return found;
}

function setAt(root: Json, path: string[], value: Json | undefined): void {
  let parent = root as Record<string, Json>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, Json>;
  const last = path[path.length - 1];
  if (value === undefined) {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else Object.defineProperty(parent, last, { value, enumerable: true, writable: true, configurable: true });
}

function nest(depth: number): Json {
  let value: Json = 'bottom';
  for (let i = 0; i < depth; i += 1) value = i % 2 === 0 ? [value] : { k: value };
  return value;
}

const show = (path: string[]) => path.map((key) => JSON.stringify(key)).join(' > ') || '(root)';

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)];
}

function yamlMutant(description: string, text: string): Mutant {
  return { description, files: { 'fw.yml': text, 'handler.js': HANDLER } };
}

function jsonMutant(description: string, config: Json): Mutant {
  return { description, files: { 'fw.json': JSON.stringify(config, null, 2), 'handler.js': HANDLER } };
}

function jsMutant(description: string, body: string, cliOnly = false): Mutant {
  return { description, files: { 'fw.js': body, 'handler.js': HANDLER }, cliOnly };
}

/** A JS service file that builds the base config, then runs `tweak` on it (`config`, `at(path)` are in scope). */
function jsTweak(description: string, path: string[], tweak: string): Mutant {
  const body = [
    `const config = ${JSON.stringify(baseService())};`,
    `const path = ${JSON.stringify(path)};`,
    'const parent = path.slice(0, -1).reduce((node, key) => node[key], config);',
    'const key = path[path.length - 1];',
    tweak,
    'module.exports = config;',
  ].join('\n');
  return jsMutant(description, body);
}

/** The mutant `index` of the run seeded `seed`: the same pair always gives the same mutant. */
export function mutant(seed: number, index: number): Mutant {
  const next = random(seed * 100_003 + index);
  const base = baseService();
  const everyPath = paths(base).filter((path) => path.length > 0);
  const kind = Math.floor(next() * 11);
  switch (kind) {
    case 0:
    case 1:
    case 2: {
      // Deep type swap of one key (the most common mutant: every key, every type).
      const path = pick(next, everyPath);
      const swap = pick(next, SWAPS);
      setAt(base, path, swap.value());
      return jsonMutant(`${show(path)} set to ${swap.label}`, base);
    }
    case 3: {
      const path = pick(next, everyPath);
      const swap = pick(next, YAML_SWAPS);
      const { stringify } = require('yaml') as typeof import('yaml');
      setAt(base, path, '__SWAP__');
      return yamlMutant(`${show(path)} set to YAML ${swap}`, stringify(base).replace(/(["']?)__SWAP__\1/, swap));
    }
    case 4: {
      const path = pick(next, everyPath);
      setAt(base, path, undefined);
      return jsonMutant(`${show(path)} removed`, base);
    }
    case 5: {
      // A hostile function name: replaces hello, or joins it.
      const name = pick(next, HOSTILE_NAMES);
      const functions = base.functions as Record<string, Json>;
      const replace = next() < 0.5;
      const renamed: Record<string, Json> = {};
      for (const [key, fn] of Object.entries(functions)) Object.defineProperty(renamed, replace && key === 'hello' ? name : key, { value: fn, enumerable: true, writable: true, configurable: true });
      if (!replace) Object.defineProperty(renamed, name, { value: { handler: 'handler.hello' }, enumerable: true, writable: true, configurable: true });
      base.functions = renamed;
      return jsonMutant(`function ${JSON.stringify(name)} ${replace ? 'instead of hello' : 'added'}`, base);
    }
    case 6: {
      // Deep nesting, under or over the cap, at a random object.
      const objects = everyPath.filter((path) => path.length < 4);
      const path = [...pick(next, objects), 'deep'];
      const depth = pick(next, [50, 150, 250, 1500]);
      const target = path.slice(0, -1).reduce<Json>((node, key) => (node as Record<string, Json>)[key], base);
      if (target === null || typeof target !== 'object' || Array.isArray(target)) return jsonMutant(`${show(path)} nested ${depth} levels (parent not an object)`, base);
      setAt(base, path, nest(depth));
      return jsonMutant(`${show(path)} nested ${depth} levels`, base);
    }
    case 7: {
      const texts = [
        ['billion laughs', billionLaughs()],
        ['an alias of its own ancestor', 'service: fuzz\nprovider:\n  name: aws\ncustom: &c\n  self: *c\n'],
        ['5 000 nested flow lists', `service: fuzz\nprovider:\n  name: aws\ncustom: ${'['.repeat(5000)}${']'.repeat(5000)}\n`],
        ['300 nested block maps', `service: fuzz\nprovider:\n  name: aws\ncustom:\n${Array.from({ length: 300 }, (_, i) => `${' '.repeat(2 + i)}k:`).join('\n')} 1\n`],
        ['a 5 000-character service name', `service: ${'s'.repeat(5000)}\nprovider:\n  name: aws\nfunctions:\n  hello:\n    handler: handler.hello\n`],
        ['statements: .inf', 'service: fuzz\nprovider:\n  name: aws\n  iam:\n    role:\n      statements: .inf\nfunctions:\n  hello:\n    handler: handler.hello\n'],
        ['runtime: 12', 'service: fuzz\nprovider:\n  name: aws\n  runtime: 12\nfunctions:\n  hello:\n    handler: handler.hello\n'],
        ['a 300 000-character description', `service: fuzz\nprovider:\n  name: aws\nfunctions:\n  hello:\n    handler: handler.hello\n    description: ${'d'.repeat(300_000)}\n`],
        ['duplicate keys', 'service: fuzz\nservice: again\nprovider:\n  name: aws\n'],
        ['an empty file', ''],
        ['a scalar document', 'just text\n'],
        ['a list document', '- a\n- b\n'],
      ] as const;
      const [description, text] = pick(next, texts);
      return yamlMutant(description, text);
    }
    case 8: {
      // JS service files that misbehave at a random path.
      const path = pick(next, everyPath);
      const tweaks = [
        ['a getter that throws', "Object.defineProperty(parent, key, { get() { throw new Error('getter boom'); }, enumerable: true });"],
        ['a circular reference', 'parent[key] = config;'],
        ['a BigInt', 'parent[key] = 10n;'],
        ['a function', 'parent[key] = () => 1;'],
        ['a Symbol', "parent[key] = Symbol('s');"],
        ['undefined', 'parent[key] = undefined;'],
        ['a Map', 'parent[key] = new Map([[1, 2]]);'],
        ['a Proxy whose keys throw', "parent[key] = new Proxy({}, { ownKeys() { throw new Error('keys boom'); } });"],
      ] as const;
      const [label, tweak] = pick(next, tweaks);
      return jsTweak(`fw.js with ${label} at ${show(path)}`, path, tweak);
    }
    case 9: {
      // Several swaps at once, in any validation mode: problems that only show together.
      const changes: string[] = [];
      base.configValidationMode = pick(next, ['warn', 'error', 'off']);
      for (let count = 0; count < 3; count += 1) {
        const path = pick(next, paths(base).filter((candidate) => candidate.length > 0));
        const parent = path.slice(0, -1).reduce<Json>((node, key) => (node as Record<string, Json>)[key], base);
        if (parent === null || typeof parent !== 'object') continue;
        const swap = pick(next, SWAPS);
        setAt(base, path, swap.value());
        changes.push(`${show(path)} set to ${swap.label}`);
      }
      return jsonMutant(`configValidationMode ${String(base.configValidationMode)}, ${changes.join(', ')}`, base);
    }
    default: {
      const bodies = [
        ['a promise that never settles', 'module.exports = new Promise(() => {});'],
        ['a function returning a promise that never settles', 'module.exports = () => new Promise(() => {});'],
        ['a rejected promise', "module.exports = Promise.reject(new Error('rejected boom'));"],
        ['a rejection that is not an Error', "module.exports = Promise.reject('plain string');"],
        ['a function that throws', "module.exports = () => { throw new TypeError('thrown boom'); };"],
        ['a top-level throw', "throw new Error('top boom');"],
        ['a syntax error', 'module.exports = {'],
        ['a number', 'module.exports = 42;'],
        ['null', 'module.exports = null;'],
        ['a thenable that never calls back', 'module.exports = { then() {} };'],
        ['a promise that never settles while a timer keeps Node busy', 'setInterval(() => {}, 1000);\nmodule.exports = new Promise(() => {});', true],
      ] as const;
      const [label, body, cliOnly] = pick(next, bodies);
      return jsMutant(`fw.js exporting ${label}`, body, cliOnly === true);
    }
  }
}

function billionLaughs(): string {
  const lines = ['service: fuzz', 'provider:', '  name: aws', 'custom:', '  l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
  for (let level = 1; level < 10; level += 1) {
    lines.push(`  l${level}: &l${level} [${Array.from({ length: 9 }, () => `*l${level - 1}`).join(', ')}]`);
  }
  return `${lines.join('\n')}\n`;
}
