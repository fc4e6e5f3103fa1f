#!/usr/bin/env node
// Bundles the CLI into one file (dist/fw.js). Resolving and reading ~150 small modules
// is most of a short command's run time; one file cuts fw's startup roughly in half.
// The AWS SDK, esbuild and ajv stay external: they are loaded only by the commands that use them.
// Whitespace is minified (names are kept, so errors still name functions): the bundle is a quarter
// smaller, which every command reads, hashes against its code cache and holds in memory.
// Then writes dist/import-module.js (import() for ES modules, which code run from V8's code
// cache cannot call itself) and the code cache for the Node.js that builds (dist/code-cache/<key>,
// see bin/fw.js) from a sample `fw package`.
'use strict';
const { buildSync } = require('esbuild');
const { spawnSync } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');

const dist = path.join(__dirname, '..', 'dist');
buildSync({
  entryPoints: [path.join(__dirname, '..', 'src', 'cli', 'main.ts')],
  outfile: path.join(dist, 'fw.js'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  external: ['@aws-sdk/*', '@smithy/*', 'esbuild', 'ajv'],
  logLevel: 'warning',
  legalComments: 'none',
  minifyWhitespace: true,
});
// esbuild writes strings as ASCII escapes but keeps comments as they are: one "→" in a comment
// makes V8 hold the whole 1.3 MB source as a two-byte string (twice, while bin/fw.js wraps it).
// Escaped, the comments read the same and the source stays one byte per character.
const bundled = readFileSync(path.join(dist, 'fw.js'), 'utf8');
const ascii = bundled.replace(/[^\x00-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
writeFileSync(path.join(dist, 'fw.js'), ascii);
// The bundle's hash, which keys its code caches: bin/fw.js reads it instead of hashing 1.7 MB on every start.
writeFileSync(path.join(dist, 'fw.js.sha256'), require('crypto').createHash('sha256').update(ascii, 'latin1').digest('hex'));
writeFileSync(path.join(dist, 'import-module.js'), "'use strict';\nmodule.exports = (specifier) => import(specifier);\n");

// A sample service touching the common paths: YAML with short tags, HTTP and REST events, a queue, resources,
// and enough functions (over 500 resources) that the template is split into nested stacks.
const sample = mkdtempSync(path.join(tmpdir(), 'fw-code-cache-'));
rmSync(path.join(dist, 'code-cache'), { recursive: true, force: true });
rmSync(path.join(dist, 'fw.js.cache'), { force: true }); // where builds before the keyed cache left it
try {
  writeFileSync(
    path.join(sample, 'fw.yml'),
    [
      'service: sample',
      'provider:',
      '  name: aws',
      '  runtime: nodejs20.x',
      '  environment:',
      '    TABLE: !Ref Table',
      'functions:',
      ...Array.from({ length: 90 }, (_, i) => i).flatMap(i => [
        `  f${i}:`,
        `    handler: handler.f${i}`,
        '    events:',
        `      - httpApi: 'GET /f${i}/{id}'`,
        `      - http: POST f${i}`,
        `      - sqs: arn:aws:sqs:us-east-1:123456789012:q${i}`,
      ]),
      'resources:',
      '  Resources:',
      '    Table:',
      '      Type: AWS::DynamoDB::Table',
      '',
    ].join('\n'),
  );
  writeFileSync(path.join(sample, 'handler.js'), 'exports.f0 = async () => ({});\n');
  const run = spawnSync(process.execPath, [path.join(__dirname, '..', 'bin', 'fw.js'), 'package'], {
    cwd: sample,
    env: { ...process.env, FW_WRITE_CODE_CACHE: '1', NO_COLOR: '1' },
    encoding: 'utf8',
  });
  if (run.status !== 0) {
    // Without a cache fw runs as well, only slower: say so, do not fail the build.
    rmSync(path.join(dist, 'code-cache'), { recursive: true, force: true });
    console.warn(`No code cache written: the sample fw package failed:\n${run.stderr}`);
  }
} finally {
  rmSync(sample, { recursive: true, force: true });
}
