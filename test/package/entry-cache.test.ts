import { readFileSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Artifacts } from '../../src/artifacts/artifact';
import { buildArtifacts } from '../../src/package/build';
import { ENTRY_CACHE_FILE } from '../../src/package/entry-cache';
import { fn, input, removeDir, tempDir, text, writeTree } from './helpers';

const cache = suite('incremental packaging (EntryCache)');
let dir = '';
let out = '';
let round = 0;
cache.before.each(() => {
  dir = tempDir();
  out = tempDir('fw-package-out-');
  round = 0;
});
cache.after.each(() => {
  removeDir(dir);
  removeDir(out);
});

const functions = [fn('hello', { handler: 'handler.main' }), fn('solo', { handler: 'solo.main', package: { individually: true, patterns: ['!handler.js', 'solo.js'] } })];
const servicePackage = { patterns: ['!solo.js'] };

/** Packages with the cache of the previous round and from scratch; returns both folders' zips and the cache counts. */
async function packageBoth(options: { bundle?: boolean } = {}): Promise<{ cached: Record<string, Buffer>; fresh: Record<string, Buffer>; counts: Artifacts['cache'] }> {
  const previous = join(out, `round-${round}`);
  round++;
  const next = join(out, `round-${round}`);
  const fresh = join(out, `fresh-${round}`);
  const extra = options.bundle ? [fn('typed', { handler: 'typed.main' })] : [];
  const incremental = await buildArtifacts(input(dir, { outDir: next, cacheDir: previous, package: servicePackage, functions: [...functions, ...extra] }));
  await buildArtifacts(input(dir, { outDir: fresh, package: servicePackage, functions: [...functions, ...extra] }));
  const zips = (folder: string) => Object.fromEntries(readdirSync(folder).filter(name => name.endsWith('.zip')).sort().map(name => [name, readFileSync(join(folder, name))]));
  return { cached: zips(next), fresh: zips(fresh), counts: incremental.cache };
}

const tree = () =>
  writeTree(dir, {
    'serverless.yml': 'service: app',
    'handler.js': 'exports.main = async () => "one";',
    'solo.js': 'exports.main = async () => "solo";',
    'bin/tool': { content: '#!/bin/sh\necho hi\n', mode: 0o755 },
    'node_modules/lib/index.js': 'module.exports = "x".repeat(1000);\n'.repeat(50),
    'node_modules/lib/package.json': '{"name":"lib"}',
    'package.json': JSON.stringify({ dependencies: { lib: '1' } }),
  });

/** Sets a file's modification time back, as if it had been written long before packaging. */
const age = (path: string) => utimesSync(join(dir, path), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
const ageAll = () => ['handler.js', 'solo.js', 'bin/tool', 'node_modules/lib/index.js', 'node_modules/lib/package.json', 'package.json'].forEach(age);

cache('a first package has nothing to reuse and writes the zips a package from scratch writes', async () => {
  tree();
  const { cached, fresh, counts } = await packageBoth();
  assert.equal(Object.keys(cached), ['app.zip', 'solo.zip']);
  assert.equal(cached, fresh);
  assert.equal(counts, { reused: 0, compressed: 6 });
  assert.ok(readFileSync(join(out, 'round-1', ENTRY_CACHE_FILE), 'utf8').startsWith('{"format":1,"files":{'));
});

cache('an unchanged service reuses every file; edits, additions, removals, renames and touches give the bytes of a package from scratch', async () => {
  tree();
  ageAll();
  await packageBoth();
  let result = await packageBoth();
  assert.equal(result.cached, result.fresh);
  assert.equal(result.counts, { reused: 6, compressed: 0 });

  writeFileSync(join(dir, 'handler.js'), 'exports.main = async () => "two, longer";');
  result = await packageBoth();
  assert.equal(result.cached, result.fresh);
  assert.is(text(join(out, `round-${round}`, 'app.zip'), 'handler.js'), 'exports.main = async () => "two, longer";');
  assert.equal(result.counts, { reused: 5, compressed: 1 });

  writeTree(dir, { 'lib/new.js': 'module.exports = "new";' });
  rmSync(join(dir, 'bin/tool'));
  renameSync(join(dir, 'node_modules/lib/package.json'), join(dir, 'node_modules/lib/renamed.json'));
  result = await packageBoth();
  assert.equal(result.cached, result.fresh);
  // the new file and the renamed one are compressed (a rename is a new path); the edited handler, still racy, is hashed and reused
  assert.equal(result.counts, { reused: 4, compressed: 2 });

  const before = statSync(join(dir, 'solo.js'));
  utimesSync(join(dir, 'solo.js'), new Date(), new Date());
  assert.is.not(statSync(join(dir, 'solo.js')).mtimeMs, before.mtimeMs);
  result = await packageBoth();
  assert.equal(result.cached, result.fresh);
});

cache('a same-size edit that keeps the modification time is caught by the content hash of a recently changed file', async () => {
  tree();
  await packageBoth();
  const file = join(dir, 'handler.js');
  const { atime, mtime } = statSync(file);
  writeFileSync(file, 'exports.main = async () => "ONE";');
  utimesSync(file, atime, mtime);
  const result = await packageBoth();
  assert.equal(result.cached, result.fresh);
  assert.is(text(join(out, `round-${round}`, 'app.zip'), 'handler.js'), 'exports.main = async () => "ONE";');
});

cache('a changed execute bit is a change', async () => {
  tree();
  ageAll();
  await packageBoth();
  const { chmodSync } = await import('node:fs');
  chmodSync(join(dir, 'handler.js'), 0o755);
  const result = await packageBoth();
  assert.equal(result.cached, result.fresh);
  assert.equal(result.counts, { reused: 5, compressed: 1 });
});

cache('bytes missing from the last zip (replaced or cut short) are compressed again, not trusted', async () => {
  tree();
  ageAll();
  await packageBoth();
  writeFileSync(join(out, 'round-1', 'app.zip'), 'not a zip any more');
  const result = await packageBoth();
  assert.equal(result.cached, result.fresh);
  // solo.zip still holds solo.js; everything else was in app.zip
  assert.equal(result.counts, { reused: 1, compressed: 5 });
});

cache('an index from another format or unreadable is no cache', async () => {
  tree();
  ageAll();
  await packageBoth();
  writeFileSync(join(out, 'round-1', ENTRY_CACHE_FILE), '{"format":0,"files":{}}');
  let result = await packageBoth();
  assert.equal(result.counts, { reused: 0, compressed: 6 });
  writeFileSync(join(out, 'round-2', ENTRY_CACHE_FILE), '{');
  result = await packageBoth();
  assert.equal(result.counts, { reused: 0, compressed: 6 });
  assert.equal(result.cached, result.fresh);
});

cache('bundled TypeScript handlers are reused when esbuild gives the same bytes', async () => {
  tree();
  writeTree(dir, { 'typed.ts': 'export const main = async (): Promise<string> => "typed";\n' });
  ageAll();
  age('typed.ts');
  await packageBoth({ bundle: true });
  let result = await packageBoth({ bundle: true });
  assert.equal(result.cached, result.fresh);
  // typed.ts itself is packaged too (patterns select it), and its bundle typed.js comes from the cache
  assert.equal(result.counts, { reused: 8, compressed: 0 });
  writeFileSync(join(dir, 'typed.ts'), 'export const main = async (): Promise<string> => "changed";\n');
  result = await packageBoth({ bundle: true });
  assert.equal(result.cached, result.fresh);
  assert.equal(result.counts, { reused: 6, compressed: 2 });
});

cache.run();
