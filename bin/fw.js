#!/usr/bin/env node
'use strict';
// Runs the bundled CLI (dist/fw.js) from V8's code cache (dist/fw.js.cache, written by the build
// after a sample `fw package`): compiling fw's code on every run was a large share of a short
// command's time. V8 rejects a cache from another Node.js version; the bundle then compiles as usual.
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const vm = require('node:vm');
const Module = require('node:module');

const filename = join(__dirname, '..', 'dist', 'fw.js');
const cacheFile = `${filename}.cache`;
const writeCache = process.env.FW_WRITE_CODE_CACHE === '1';
const script = new vm.Script(Module.wrap(readFileSync(filename, 'utf8')), {
  filename,
  cachedData: !writeCache && existsSync(cacheFile) ? readFileSync(cacheFile) : undefined,
});
const bundle = new Module(filename, module);
bundle.filename = filename;
bundle.paths = Module._nodeModulePaths(dirname(filename));
script.runInThisContext()(bundle.exports, Module.createRequire(filename), bundle, filename, dirname(filename));
bundle.loaded = true;
// The build runs a sample command this way, so the cache holds the code a command actually runs.
if (writeCache) process.on('exit', () => writeFileSync(cacheFile, script.createCachedData()));
bundle.exports.main(process.argv.slice(2));
