import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { relativeInside, walkFiles } from '../../src/package/files';
import { removeDir, tempDir, writeTree } from './helpers';

const files = suite('walkFiles');
let dir = '';
let outside = '';
files.before.each(() => {
  dir = tempDir();
  outside = tempDir();
});
files.after.each(() => {
  removeDir(dir);
  removeDir(outside);
});

files('lists every file once, sorted, with forward-slash relative paths', () => {
  writeTree(dir, { 'b.js': '', 'a/z.js': '', 'a/b/c.js': '', '.hidden': '' });
  assert.equal(walkFiles(dir).map((file) => file.path), ['.hidden', 'a/b/c.js', 'a/z.js', 'b.js']);
});

files('does not descend into pruned folders', () => {
  writeTree(dir, { '.git/config': '', '.serverless/app.zip': '', 'h.js': '' });
  assert.equal(walkFiles(dir, { prune: new Set(['.git', '.serverless']) }).map((file) => file.path), ['h.js']);
});

files('follows symlinks inside the root and skips, with a warning, those pointing outside', () => {
  writeTree(outside, { 'secret.txt': 'no', 'lib/x.js': 'no' });
  writeTree(dir, {
    'src/h.js': 'yes',
    'alias.js': { link: 'src/h.js' },
    'linked': { link: 'src' },
    'secret.txt': { link: join(outside, 'secret.txt') },
    'lib': { link: join(outside, 'lib') },
    'dangling': { link: 'nowhere' },
    'loop/self': { link: '..' },
  });
  const warnings: string[] = [];
  const listed = walkFiles(dir, { warn: (message) => warnings.push(message) });
  assert.equal(listed.map((file) => file.path), ['alias.js', 'linked/h.js', 'src/h.js']);
  assert.equal(warnings.map((warning) => warning.split(' ').slice(0, 3).join(' ')).sort(), ['Symbolic link dangling', 'Symbolic link lib', 'Symbolic link secret.txt']);
});

files('tells whether a folder is inside another', () => {
  assert.is(relativeInside('/srv/app', '/srv/app/.serverless'), '.serverless');
  assert.is(relativeInside('/srv/app', '/srv/app/a/b'), 'a/b');
  assert.is(relativeInside('/srv/app', '/srv/other'), undefined);
  assert.is(relativeInside('/srv/app', '/srv/app'), undefined);
});

files.run();
