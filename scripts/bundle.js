#!/usr/bin/env node
// Bundles the CLI into one file (dist/fw.js). Resolving and reading ~150 small modules
// is most of a short command's run time; one file cuts fw's startup roughly in half.
// The AWS SDK and esbuild stay external: they are loaded only by the commands that use them.
'use strict';
const { buildSync } = require('esbuild');
const path = require('node:path');

buildSync({
  entryPoints: [path.join(__dirname, '..', 'src', 'cli', 'main.ts')],
  outfile: path.join(__dirname, '..', 'dist', 'fw.js'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  external: ['@aws-sdk/*', '@smithy/*', 'esbuild'],
  logLevel: 'warning',
  legalComments: 'none',
});
