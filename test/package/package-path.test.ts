import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { packageService } from '../../src/package/service';
import { GOLDEN_TIME } from '../helpers/golden';
import { names } from './helpers';

const packagePath = suite('package.path');

packagePath('is the folder the package is written to, as serverless@3.40.0 writes it; the next package leaves it out of the zip', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'fw-package-path-'));
  try {
    writeFileSync(join(cwd, 'handler.js'), 'exports.hello = async () => 1;\n');
    writeFileSync(
      join(cwd, 'serverless.yml'),
      ['service: app', 'package:', '  path: build/pkg', 'provider:', '  name: aws', '  runtime: nodejs18.x', 'functions:', '  hello:', '    handler: handler.hello', ''].join('\n'),
    );
    const first = await packageService({ cwd, options: {}, now: GOLDEN_TIME });
    assert.is(first.outDir, join(cwd, 'build', 'pkg'));
    assert.not.ok(existsSync(join(cwd, '.serverless')));
    // The files v3 writes there (fw adds its cache of compressed entries).
    assert.equal(readdirSync(first.outDir).filter((f) => f !== 'package-cache.json').sort(), [
      'app.zip', 'cloudformation-template-create-stack.json', 'cloudformation-template-update-stack.json', 'serverless-state.json',
    ]);
    // v3 zips its last package into the next one; fw does not.
    const second = await packageService({ cwd, options: {}, now: GOLDEN_TIME });
    assert.equal(names(join(second.outDir, 'app.zip')), ['handler.js']);
    // --package still wins.
    const given = await packageService({ cwd, options: {}, outDir: 'elsewhere', now: GOLDEN_TIME });
    assert.is(given.outDir, join(cwd, 'elsewhere'));
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});

packagePath('fw deploy reads what fw package wrote there instead of packaging again, as v3 deploys package.path; with nothing there it stops on one line', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'fw-package-path-'));
  try {
    writeFileSync(join(cwd, 'handler.js'), 'exports.hello = async () => 1;\n');
    writeFileSync(
      join(cwd, 'serverless.yml'),
      ['service: app', 'package:', '  path: build/pkg', 'provider:', '  name: aws', '  runtime: nodejs18.x', 'functions:', '  hello:', '    handler: handler.hello', ''].join('\n'),
    );
    const error = await packageService({ cwd, options: {}, fromPackagePath: true }).catch((caught: Error) => caught);
    assert.is((error as Error).message, 'Invalid package.path "build/pkg": expected a folder written by "fw package" (with cloudformation-template-update-stack.json and serverless-state.json)');
    const packaged = await packageService({ cwd, options: {}, now: GOLDEN_TIME });
    // A change after `fw package` is not deployed: the folder is, as v3 deploys it.
    writeFileSync(join(cwd, 'handler.js'), 'exports.hello = async () => 2;\n');
    const read = await packageService({ cwd, options: {}, fromPackagePath: true });
    assert.is(read.outDir, join(cwd, 'build', 'pkg'));
    assert.equal(read.state, JSON.parse(JSON.stringify(packaged.state)));
    assert.equal(read.template, packaged.template);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});

packagePath.run();
