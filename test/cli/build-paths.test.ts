import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const ROOT = join(__dirname, '..', '..', '..');

/** The built files `npm pack` ships (package.json's `files`, bin/fw.js aside): the bundles, their code caches, the library. */
function shippedBuildOutput(): string[] {
  const dist = join(ROOT, 'dist');
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else found.push(path);
    }
  };
  for (const entry of readdirSync(dist)) {
    const path = join(dist, entry);
    if (/^fw(-[a-z]+)?\.js$/.test(entry) || entry === 'import-module.js') found.push(path);
    else if (['code-cache', 'src', 'schema'].includes(entry)) walk(path);
  }
  return found;
}

const paths = suite("The built output and the build machine's folders");

paths('no bundle, code cache or library file names the folder it was built in (stack traces of an installed fw would)', () => {
  const files = shippedBuildOutput();
  assert.ok(files.some((file) => file.includes(`${join('dist', 'code-cache')}`)), 'the build wrote code caches');
  const naming = files.filter((file) => readFileSync(file).includes(ROOT)).map((file) => relative(ROOT, file));
  assert.equal(naming, []);
});

paths('the code caches name each bundle by its place in the package, as stack traces then do', () => {
  const caches = shippedBuildOutput().filter((file) => file.includes(join('dist', 'code-cache')));
  for (const cache of caches) assert.match(readFileSync(cache).toString('latin1'), /fw-deploy\/dist\/fw(-[a-z]+)?\.js/, relative(ROOT, cache));
});

paths.run();
