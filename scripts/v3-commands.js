#!/usr/bin/env node
// Writes test/fixtures/v3-cli/commands.json: every command of the reference (Serverless Framework
// v3.40.0) and the options it accepts, read from the reference's commands schema. The file is
// committed, so the test that checks fw accepts each of them (test/cli/v3-commands-accepted.test.ts)
// runs where the reference is not installed (CI).
//
//   node scripts/v3-commands.js
//
// Environment: FW_REFERENCE_DIR, a folder whose node_modules/serverless is v3.40.0
// (default: ~/.cache/fw-reference). Plain Node, no dependencies.
'use strict';

const { join } = require('node:path');
const { homedir } = require('node:os');
const { writeFileSync } = require('node:fs');

const referenceDir = process.env.FW_REFERENCE_DIR || join(homedir(), '.cache', 'fw-reference');
const schema = require(join(referenceDir, 'node_modules', 'serverless', 'lib', 'cli', 'commands-schema'));
const version = require(join(referenceDir, 'node_modules', 'serverless', 'package.json')).version;

const commands = [];
for (const [name, definition] of schema) {
  if (definition.isHidden) continue;
  const options = Object.entries(definition.options || {}).map(([option, spec]) => ({
    name: option,
    ...(spec.shortcut ? { shortcut: spec.shortcut } : {}),
    type: spec.type || 'string',
  }));
  commands.push({ command: name, ...(definition.usage ? { usage: definition.usage } : {}), options });
}
const file = join(__dirname, '..', 'test', 'fixtures', 'v3-cli', 'commands.json');
writeFileSync(file, `${JSON.stringify({ reference: `serverless@${version}`, commands }, null, 2)}\n`);
console.log(`Wrote ${commands.length} commands to ${file}`);
