#!/usr/bin/env node
'use strict';
// Runs the bundled CLI from V8 code caches: compiling fw's code on every run was a large share of a
// short command's time. The CLI is split in bundles (scripts/bundle.js): the core, dist/fw.js, which
// every command runs, and chunks, dist/fw-<name>.js (the local cloud, fw dev, …), each loaded the
// first time the code asks for one of its modules (`__fwModule(bundle, path)`), with a cache of its own.
// A cache is only ever used by the exact Node.js release, architecture, V8 version, flags and bundle
// that wrote it (`key`): V8 of one Node.js 20 release crashed (segmentation fault) on the cache of
// another instead of rejecting it.
// A cache comes from the package (dist/code-cache/<key>, written by the build for the Node.js
// that built it) or from the user's cache folder ($XDG_CACHE_HOME/fw or ~/.cache/fw), where a run
// that found none writes one as it exits. The install folder itself is never written to, and any
// failure to read or write a cache only means the bundle compiles as usual.
const { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { createHash } = require('node:crypto');
const { homedir } = require('node:os');
const { basename, dirname, join } = require('node:path');
const vm = require('node:vm');
const Module = require('node:module');

const dist = join(__dirname, '..', 'dist');
const building = process.env.FW_WRITE_CODE_CACHE === '1';
const userCacheDir = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'fw');
const runtime = [process.version, process.arch, process.versions.v8, JSON.stringify(process.execArgv), process.env.NODE_OPTIONS ?? ''].join('\n');
// A cache holds the functions its run compiled: one written by `fw --version` or a help page lacks
// most of what a command runs, so it is kept under its own name and the next command replaces it.
const args = process.argv.slice(2);
const startupOnly = args[0] === 'help' || args.some((arg) => ['--version', '-v', '--help', '-h'].includes(arg));
// One user cache per bundle, Node.js release, flags and fw version: keep the newest few.
const KEPT_USER_CACHES = 16;

/** The loaded bundles by name: their exports, and their scripts to write caches from at exit. */
const bundles = new Map();

/** What a stub in one bundle asks for: a module of another bundle (scripts/bundle.js). */
function fwModule(name, file) {
  return loadBundle(name).fwModule(file);
}

function loadBundle(name) {
  const loaded = bundles.get(name);
  if (loaded !== undefined) return loaded.exports;
  const filename = join(dist, name === 'core' ? 'fw.js' : `fw-${name}.js`);
  // The build escapes every non-ASCII character, so the bytes are the text: latin1 is the cheapest decoding.
  const bytes = readFileSync(filename);
  const key = createHash('sha256').update(runtime).update(bundleId(filename, bytes)).digest('hex').slice(0, 40);
  const packaged = join(dist, 'code-cache', key);
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
  // Module.wrap's wrapper, with one more parameter: how the bundle asks for another bundle's module.
  const source = `(function (exports, require, module, __filename, __dirname, __fwModule) { ${bytes.toString('latin1')}\n});`;
  // The build's caches are compiled under a name of no machine (V8 keeps the name in the cache; a
  // run gives its own, which is what stack traces show). Made from `name`, not cut from the path: a
  // cut of 13 characters or more would be a V8 slice, which keeps (and serializes) the whole path.
  const neutralName = `/fw-deploy/dist/${name === 'core' ? 'fw' : `fw-${name}`}.js`;
  const script = new vm.Script(source, { filename: building ? neutralName : filename, cachedData });
  const bundle = new Module(filename, module);
  bundle.filename = filename;
  bundle.paths = Module._nodeModulePaths(dirname(filename));
  // Registered before it runs: a module of the bundle may, as it loads, ask for another module of it.
  const entry = { name, script, bundle, packaged, found, full, thin, get exports() { return bundle.exports; } };
  bundles.set(name, entry);
  script.runInThisContext()(bundle.exports, Module.createRequire(filename), bundle, filename, dirname(filename), fwModule);
  bundle.loaded = true;
  return bundle.exports;
}

// Written at exit, so each cache also holds the functions the command compiled as it ran.
process.on('exit', () => {
  if (building) {
    // The build's sample run: the chunks it did not use get their modules run, so their caches hold at least that.
    for (const name of readdirSync(dist).map((file) => /^fw-([a-z]+)\.js$/.exec(file)?.[1]).filter(Boolean)) {
      const chunk = loadBundle(name);
      for (const file of chunk.fwModules) chunk.fwModule(file);
    }
    for (const entry of bundles.values()) writeAtomically(entry.packaged, entry.script.createCachedData());
    return;
  }
  for (const entry of bundles.values()) {
    const { found, thin, full, script } = entry;
    if (found === undefined || script.cachedDataRejected || (found === thin && !startupOnly)) {
      saveUserCache(script, startupOnly ? thin : full, found === thin ? thin : undefined);
    }
  }
});

loadBundle('core').main(args);

/**
 * What identifies a bundle: the hash the build wrote beside it (hashing the core's 900 kB costs
 * about 1 ms of every start), with its size (not its modification time: npm sets that when it
 * installs, and the packaged cache must still match); the bundle's own hash when the build wrote none.
 */
function bundleId(filename, bytes) {
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

function saveUserCache(script, file, replacedThin) {
  try {
    writeAtomically(file, script.createCachedData());
    if (replacedThin !== undefined && replacedThin !== file) rmSync(replacedThin, { force: true });
    const entries = readdirSync(userCacheDir).filter((name) => /^[0-9a-f]{40}(\.startup)?$/.test(name));
    const newestFirst = entries.map((name) => ({ name, time: statSync(join(userCacheDir, name)).mtimeMs })).sort((a, b) => b.time - a.time);
    for (const old of newestFirst.slice(KEPT_USER_CACHES)) rmSync(join(userCacheDir, old.name), { force: true });
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
