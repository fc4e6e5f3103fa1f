#!/usr/bin/env node
'use strict';
// Runs the bundled CLI (dist/fw.js) from a V8 code cache: compiling fw's code on every run was a
// large share of a short command's time. A cache is only ever used by the exact Node.js release,
// architecture, V8 version, flags and bundle that wrote it (`key`): V8 of one Node.js 20
// release crashed (segmentation fault) on the cache of another instead of rejecting it.
// The cache comes from the package (dist/code-cache/<key>, written by the build for the Node.js
// that built it) or from the user's cache folder ($XDG_CACHE_HOME/fw or ~/.cache/fw), where a run
// that found none writes one as it exits. The install folder itself is never written to, and any
// failure to read or write a cache only means the bundle compiles as usual.
const { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { createHash } = require('node:crypto');
const { homedir } = require('node:os');
const { basename, dirname, join } = require('node:path');
const vm = require('node:vm');
const Module = require('node:module');

const filename = join(__dirname, '..', 'dist', 'fw.js');
// The build escapes every non-ASCII character, so the bytes are the text: latin1 is the cheapest decoding.
const bytes = readFileSync(filename);
const key = createHash('sha256')
  .update([process.version, process.arch, process.versions.v8, JSON.stringify(process.execArgv), process.env.NODE_OPTIONS ?? ''].join('\n'))
  .update(bundleId())
  .digest('hex')
  .slice(0, 40);
const packaged = join(__dirname, '..', 'dist', 'code-cache', key);
const building = process.env.FW_WRITE_CODE_CACHE === '1';
const userCacheDir = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'fw');
// A cache holds the functions its run compiled: one written by `fw --version` or a help page lacks
// most of what a command runs, so it is kept under its own name and the next command replaces it.
const args = process.argv.slice(2);
const startupOnly = args[0] === 'help' || args.some((arg) => ['--version', '-v', '--help', '-h'].includes(arg));
const full = join(userCacheDir, key);
const thin = `${full}.startup`;
let cachedData;
let found;
for (const file of building ? [] : [full, thin, packaged]) {
  cachedData = readIfPresent(file);
  if (cachedData !== undefined) {
    found = file;
    break;
  }
}

const script = new vm.Script(Module.wrap(bytes.toString('latin1')), { filename, cachedData });
const bundle = new Module(filename, module);
bundle.filename = filename;
bundle.paths = Module._nodeModulePaths(dirname(filename));
script.runInThisContext()(bundle.exports, Module.createRequire(filename), bundle, filename, dirname(filename));
bundle.loaded = true;
// Written at exit, so the cache also holds the functions the command compiled as it ran.
if (building) process.on('exit', () => writeAtomically(packaged, script.createCachedData()));
else if (found === undefined || script.cachedDataRejected || (found === thin && !startupOnly)) {
  process.on('exit', () => saveUserCache(startupOnly ? thin : full, found === thin ? thin : undefined));
}
bundle.exports.main(process.argv.slice(2));

/**
 * What identifies the bundle: the hash the build wrote beside it (hashing 1.7 MB costs about 2 ms of
 * every start), with its size (not its modification time: npm sets that when it installs, and the
 * packaged cache must still match); the bundle's own hash when the build wrote none.
 */
function bundleId() {
  try {
    return `${readFileSync(`${filename}.sha256`, 'latin1')} ${bytes.length}`;
  } catch {
    return createHash('sha256').update(bytes).digest('hex');
  }
}

function readIfPresent(file) {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function saveUserCache(file, replacedThin) {
  try {
    writeAtomically(file, script.createCachedData());
    if (replacedThin !== undefined && replacedThin !== file) rmSync(replacedThin, { force: true });
    // One cache per Node.js release, flags and fw version: keep the few newest.
    const entries = readdirSync(userCacheDir).filter((name) => /^[0-9a-f]{40}(\.startup)?$/.test(name));
    const newestFirst = entries.map((name) => ({ name, time: statSync(join(userCacheDir, name)).mtimeMs })).sort((a, b) => b.time - a.time);
    for (const old of newestFirst.slice(4)) rmSync(join(userCacheDir, old.name), { force: true });
  } catch {
    // A read-only or full disk: the next run compiles as usual.
  }
}

function writeAtomically(file, data) {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}`);
  try {
    writeFileSync(temporary, data);
    renameSync(temporary, file);
  } finally {
    rmSync(temporary, { force: true });
  }
}
