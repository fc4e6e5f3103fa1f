#!/usr/bin/env node
// `npm pack` (prepack / postpack): the package ships npm-shrinkwrap.json, a copy of package-lock.json,
// so that installing fw-deploy installs the dependency tree its tests ran with, not whatever newer
// releases the ranges allow by then (an AWS SDK that needs a newer Node.js than `engines` says, say).
//   node scripts/shrinkwrap.js write   copy package-lock.json to npm-shrinkwrap.json
//   node scripts/shrinkwrap.js remove  delete it again (a checkout keeps package-lock.json only)
'use strict';
const { copyFileSync, rmSync } = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const shrinkwrap = path.join(root, 'npm-shrinkwrap.json');
if (process.argv[2] === 'write') copyFileSync(path.join(root, 'package-lock.json'), shrinkwrap);
else if (process.argv[2] === 'remove') rmSync(shrinkwrap, { force: true });
else {
  console.error('usage: node scripts/shrinkwrap.js write|remove');
  process.exit(2);
}
