import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { excludedFolders, isIncluded, negate, rules } from '../../src/package/patterns';

const patterns = suite('package patterns');
const select = (files: string[], list: string[]) => files.filter((file) => isIncluded(file, rules(list)));
const files = ['handler.js', 'src/a.js', 'src/a.test.js', 'src/lib/b.js', 'docs/x.md', '.env', 'node_modules/x/index.js'];

patterns('includes every file when there are no patterns', () => {
  assert.equal(select(files, []), files);
});

patterns('excludes with !pattern, dotfiles included', () => {
  assert.equal(select(files, ['!src/**', '!.env']), ['handler.js', 'docs/x.md', 'node_modules/x/index.js']);
});

patterns('lets a later pattern re-include what an earlier one excluded', () => {
  assert.equal(select(files, ['!src/**', 'src/lib/**']), ['handler.js', 'src/lib/b.js', 'docs/x.md', '.env', 'node_modules/x/index.js']);
});

patterns('lets a later !pattern exclude again what was re-included', () => {
  assert.equal(select(files, ['!**', 'src/**', '!**/*.test.js']), ['src/a.js', 'src/lib/b.js']);
});

patterns('matches a name without a slash at the top level only', () => {
  assert.equal(select(['a.md', 'docs/a.md'], ['!*.md']), ['docs/a.md']);
});

patterns('accepts a leading ./', () => {
  assert.equal(select(files, ['!./src/**']), ['handler.js', 'docs/x.md', '.env', 'node_modules/x/index.js']);
});

patterns('turns an exclude list into patterns and back', () => {
  assert.equal(['a/**', '!b'].map(negate), ['!a/**', 'b']);
});

patterns.run();

const fastPaths = suite('package patterns without picomatch');
fastPaths('matches plain names and folder/** exactly as picomatch does', async () => {
  const picomatch = (await import('picomatch')).default;
  const globs = ['a/**', './a/**', 'serverless.yml', './serverless.yml', '.git/**', 'a', 'a/b/**', 'node_modules/@x/y/**', 'yarn-*.log', '.env*', 'src/*.js', '*', '*.md', 'a*b', 'fn.v2*'];
  const paths = [
    'a', 'a/b', 'a/b/c', 'ab', 'ab/c', 'b/a', 'axb', 'a/xb', 'serverless.yml', 'x/serverless.yml', '.git', '.git/HEAD', '.github/x',
    'node_modules/@x/y/z.js', 'node_modules/@x/yz', 'yarn-.log', 'yarn-error.log', 'x/yarn-1.log', '.env', '.env.local', 'x/.env',
    'src/a.js', 'src/.hidden.js', 'src/x/a.js', 'README.md', '.md', 'docs/a.md', 'fn.v2', 'fnxv2', 'fn.v2.1',
  ];
  for (const glob of globs) {
    const expected = paths.filter((path) => picomatch(glob, { dot: true })(path));
    assert.equal(select(paths, [`!${glob}`]), paths.filter((path) => !expected.includes(path)), glob);
  }
});
fastPaths.run();

const folders = suite('excludedFolders');
folders('finds the folders a walk can skip: excluded whole, nothing later re-including inside', () => {
  assert.equal([...excludedFolders([['!.git/**', '!node_modules/**', 'node_modules/keep/**', '!./src/legacy/**', '!docs/**', 'docs']])].sort(), ['.git', 'src/legacy']);
  assert.equal([...excludedFolders([['!node_modules/**', '**/*.json']])], []);
  assert.equal([...excludedFolders([['!node_modules/**', 'node_*/x']])], []);
  assert.equal([...excludedFolders([['!a/**', 'a/b/c.js', '!a/**']])], ['a']);
  assert.equal([...excludedFolders([['!a/**'], ['!a/**', 'a/x']])], []);
  assert.equal([...excludedFolders([['!src/**/x/**', '!a*/**']])], []);
  assert.equal([...excludedFolders([])], []);
});
folders.run();
