#!/usr/bin/env node
// Developer aid: `node scripts/golden-diff.js [case-regex] [golden|events]` packages each
// golden case with fw (from dist/) and prints where fw's template differs from the reference's.
'use strict';
const { rmSync } = require('node:fs');
const golden = require('../dist/test/helpers/golden.js');

function diff(a, b, path, out) {
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) diff(a[key], b[key], `${path}.${key}`, out);
    return;
  }
  out.push(`  ${path}\n    fw:  ${JSON.stringify(a)?.slice(0, 400)}\n    ref: ${JSON.stringify(b)?.slice(0, 400)}`);
}

(async () => {
  const pattern = new RegExp(process.argv[2] ?? '.');
  let failing = 0;
  for (const c of golden.goldenCases(process.argv[3] ?? 'golden').filter(c => pattern.test(c.name))) {
    let result;
    try {
      result = await golden.packageCopy(c.dir, c.options);
      rmSync(result.cwd, { recursive: true, force: true });
    } catch (error) {
      console.log(`${c.expected ? 'FAIL' : 'ok  '} ${c.name}: threw ${error.message}`);
      if (c.expected) failing++;
      continue;
    }
    if (!c.expected) { console.log(`FAIL ${c.name}: expected an error, packaged`); failing++; continue; }
    const out = [];
    diff(golden.normalize(result.template), golden.normalize(c.expected.update), 'update', out);
    if (c.expected.create) diff(golden.normalize(result.create), golden.normalize(c.expected.create), 'create', out);
    console.log(`${out.length ? 'FAIL' : 'ok  '} ${c.name}${out.length ? `\n${out.join('\n')}` : ''}`);
    if (out.length) failing++;
  }
  console.log(`${failing} failing`);
})();
