import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import satisfies = require('semver/functions/satisfies');
import minVersion = require('semver/ranges/min-version');

const root = join(__dirname, '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));

const engines = suite("what fw-deploy installs runs on every Node.js its engines allow");

engines('every package an install of fw-deploy brings (the lock file, which npm pack ships as npm-shrinkwrap.json) accepts the oldest Node.js engines allows', () => {
  const oldest = minVersion(manifest.engines.node)!.version;
  const refusing = Object.entries(lock.packages as Record<string, { dev?: boolean; engines?: { node?: string } }>)
    .filter(([name, entry]) => name !== '' && !entry.dev && entry.engines?.node && !satisfies(oldest, entry.engines.node))
    .map(([name, entry]) => `${name.replace(/^.*node_modules\//, '')} needs Node.js ${entry.engines!.node}`);
  assert.equal(refusing, [], `engines says ${manifest.engines.node}`);
});

engines('npm pack ships the lock file as npm-shrinkwrap.json, so an install gets the tree the tests ran with', () => {
  assert.ok(manifest.files.includes('npm-shrinkwrap.json'));
  assert.match(manifest.scripts.prepack, /node scripts\/shrinkwrap\.js write$/);
  assert.is(manifest.scripts.postpack, 'node scripts/shrinkwrap.js remove');
});

engines.run();
