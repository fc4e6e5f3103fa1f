import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { findDevDependencies, isDevDependencyFile } from '../../src/package/dependencies';
import { walkFiles } from '../../src/package/files';
import { removeDir, tempDir, writeTree, type Tree } from './helpers';

const dependencies = suite('development dependencies');
let dir = '';
dependencies.before.each(() => {
  dir = tempDir();
});
dependencies.after.each(() => removeDir(dir));

const pkg = (manifest: object) => JSON.stringify(manifest);
const devFiles = (tree: Tree) => {
  writeTree(dir, tree);
  const files = walkFiles(dir);
  const dev = findDevDependencies(dir, files);
  return files.map((file) => file.path).filter((path) => isDevDependencyFile(path, dev));
};

dependencies('leaves out devDependencies and what only they need, keeps what production also needs', () => {
  const excluded = devFiles({
    'package.json': pkg({ dependencies: { lib: '1' }, devDependencies: { test: '1' } }),
    'node_modules/lib/package.json': pkg({ dependencies: { shared: '1' } }),
    'node_modules/test/package.json': pkg({ dependencies: { shared: '1', only: '1' } }),
    'node_modules/shared/package.json': pkg({}),
    'node_modules/only/package.json': pkg({}),
    'node_modules/only/index.js': '',
    'node_modules/stray/package.json': pkg({}),
  });
  assert.equal(excluded, ['node_modules/only/index.js', 'node_modules/only/package.json', 'node_modules/test/package.json']);
});

dependencies('resolves through nested node_modules the way Node does', () => {
  const excluded = devFiles({
    'package.json': pkg({ dependencies: { a: '1' }, devDependencies: { d: '1' } }),
    'node_modules/a/package.json': pkg({ dependencies: { b: '1' } }),
    'node_modules/b/package.json': pkg({ version: '1' }),
    'node_modules/d/package.json': pkg({ dependencies: { b: '2' } }),
    'node_modules/d/node_modules/b/package.json': pkg({ version: '2' }),
    'node_modules/a/node_modules/c/package.json': pkg({}),
  });
  assert.equal(excluded, ['node_modules/d/node_modules/b/package.json', 'node_modules/d/package.json']);
});

dependencies('leaves out the bin links of development packages, scoped ones included', () => {
  const excluded = devFiles({
    'package.json': pkg({ devDependencies: { '@scope/tool': '1', other: '1' } }),
    'node_modules/@scope/tool/package.json': pkg({ name: '@scope/tool', bin: 'cli.js' }),
    'node_modules/@scope/tool/cli.js': '',
    'node_modules/other/package.json': pkg({ bin: { run: 'run.js' } }),
    'node_modules/.bin/tool': { link: '../@scope/tool/cli.js' },
    'node_modules/.bin/run': '',
    'node_modules/.bin/keep': '',
  });
  assert.equal(excluded, [
    'node_modules/.bin/run',
    'node_modules/.bin/tool',
    'node_modules/@scope/tool/cli.js',
    'node_modules/@scope/tool/package.json',
    'node_modules/other/package.json',
  ]);
});

dependencies('reads every package.json outside node_modules as a root', () => {
  const excluded = devFiles({
    'package.json': pkg({}),
    'api/package.json': pkg({ devDependencies: { jest: '1' } }),
    'api/node_modules/jest/package.json': pkg({}),
  });
  assert.equal(excluded, ['api/node_modules/jest/package.json']);
});

dependencies('finds nothing without node_modules', () => {
  assert.equal(devFiles({ 'package.json': pkg({ devDependencies: { x: '1' } }) }), []);
});

dependencies.run();
