import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildArtifacts } from '../../src/package/build';
import { bundleHandlers, esbuildOptions, keepBundlerContexts, nodeTarget, runtimeModules } from '../../src/package/bundle';
import { fn, input, names, readZip, removeDir, tempDir, text, writeTree } from './helpers';

const bundle = suite('TypeScript handlers');
let dir = '';
let other = '';
bundle.before.each(() => {
  dir = tempDir();
  other = tempDir();
});
bundle.after.each(() => {
  removeDir(dir);
  removeDir(other);
});

const tsService = (root: string) =>
  writeTree(root, {
    'src/handler.ts': [
      "import { greet } from './greet';",
      "import pad from 'left-pad';",
      'export const main = async (event: { name: string }): Promise<string> => pad(greet(event.name), 12);',
    ].join('\n'),
    'src/greet.ts': 'export function greet(name: string): string { return `hi ${name}`; }\n',
    'package.json': JSON.stringify({ dependencies: { 'left-pad': '1' } }),
    'node_modules/left-pad/package.json': JSON.stringify({ name: 'left-pad', main: 'index.js' }),
    'node_modules/left-pad/index.js': "module.exports = (s, n) => ' '.repeat(Math.max(0, n - s.length)) + s;",
    'tsconfig.json': '{}',
  });

/** Unpacks a zip into a folder so its files can be required. */
function unpack(zip: string, into: string): void {
  for (const entry of readZip(zip)) {
    const file = join(into, entry.name);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, entry.content);
  }
}

bundle('bundles a .ts handler into <module>.js in the zip, and the handler runs', async () => {
  tsService(dir);
  const artifacts = await buildArtifacts(input(dir, { functions: [fn('hello', { handler: 'src/handler.main', runtime: 'nodejs20.x' })] }));
  const listed = names(artifacts.service!.path);
  assert.ok(listed.includes('src/handler.js'), listed.join(','));
  const unpacked = join(other, 'unpacked');
  unpack(artifacts.service!.path, unpacked);
  const handler = require(join(unpacked, 'src/handler.js')) as { main: (event: { name: string }) => Promise<string> };
  assert.is(await handler.main({ name: 'Ada' }), '      hi Ada');
  assert.not.match(text(artifacts.service!.path, 'src/handler.js')!, 'require("left-pad")');
});

bundle('leaves build.esbuild.external modules out of the bundle, to be loaded from node_modules', async () => {
  tsService(dir);
  const artifacts = await buildArtifacts(
    input(dir, { build: { esbuild: { external: ['left-pad'] } }, functions: [fn('hello', { handler: 'src/handler.main' })] }),
  );
  assert.match(text(artifacts.service!.path, 'src/handler.js')!, 'require("left-pad")');
  assert.ok(names(artifacts.service!.path).includes('node_modules/left-pad/index.js'));
  const unpacked = join(other, 'unpacked');
  unpack(artifacts.service!.path, unpacked);
  const handler = require(join(unpacked, 'src/handler.js')) as { main: (event: { name: string }) => Promise<string> };
  assert.is(await handler.main({ name: 'Bo' }), '       hi Bo');
});

bundle('adds a source map with sourcemap: true', async () => {
  tsService(dir);
  const artifacts = await buildArtifacts(input(dir, { build: { esbuild: { sourcemap: true } }, functions: [fn('hello', { handler: 'src/handler.main' })] }));
  const map = JSON.parse(text(artifacts.service!.path, 'src/handler.js.map')!) as { sources: string[] };
  assert.equal(map.sources.filter((source) => !source.includes('node_modules')).sort(), ['greet.ts', 'handler.ts']);
  assert.match(text(artifacts.service!.path, 'src/handler.js')!, '//# sourceMappingURL=handler.js.map');
});

bundle('puts only the function\'s own bundle in an individual zip', async () => {
  tsService(dir);
  writeTree(dir, { 'src/other.ts': 'export const go = () => 1;' });
  const artifacts = await buildArtifacts(
    input(dir, {
      package: { individually: true, patterns: ['!node_modules/**'] },
      functions: [fn('hello', { handler: 'src/handler.main' }), fn('other', { handler: 'src/other.go' })],
    }),
  );
  assert.ok(names(artifacts.functions.hello.path).includes('src/handler.js'));
  assert.not.ok(names(artifacts.functions.hello.path).includes('src/other.js'));
  assert.ok(names(artifacts.functions.other.path).includes('src/other.js'));
  assert.not.ok(names(artifacts.functions.other.path).includes('src/handler.js'));
});

bundle('bundles a handler whose sources the patterns leave out, shipping only the bundle', async () => {
  tsService(dir);
  const artifacts = await buildArtifacts(
    input(dir, { package: { patterns: ['!src/**', '!node_modules/**'] }, functions: [fn('hello', { handler: 'src/handler.main' })] }),
  );
  assert.equal(names(artifacts.service!.path), ['package.json', 'src/handler.js', 'tsconfig.json']);
});

bundle('does not bundle when the .js file exists next to the .ts one', async () => {
  writeTree(dir, { 'handler.ts': 'export const main = 1;', 'handler.js': 'exports.main = 2;' });
  const artifacts = await buildArtifacts(input(dir));
  assert.is(text(artifacts.service!.path, 'handler.js'), 'exports.main = 2;');
});

bundle('gives the same bytes for the same sources in another folder', async () => {
  tsService(dir);
  tsService(other);
  const options = { build: { esbuild: { sourcemap: true } }, functions: [fn('hello', { handler: 'src/handler.main' })] };
  const here = await buildArtifacts(input(dir, options));
  const there = await buildArtifacts(input(other, options));
  assert.is(there.service!.sha256, here.service!.sha256);
});

bundle('reports a TypeScript syntax error as a configuration error naming the function', async () => {
  writeTree(dir, { 'handler.ts': 'export const main = (;' });
  try {
    await buildArtifacts(input(dir));
    assert.unreachable();
  } catch (error) {
    assert.is((error as Error).name, 'ConfigError');
    assert.match((error as Error).message, 'Cannot bundle the TypeScript handlers of hello:\n  handler.ts:1:');
  }
});

/** A handler importing both AWS SDKs, neither of which is in node_modules (the Lambda runtime provides one). */
const sdkService = (root: string) =>
  writeTree(root, {
    'handler.ts': [
      "import { S3 } from 'aws-sdk';",
      "import { S3Client } from '@aws-sdk/client-s3';",
      'export const v2 = () => new S3();',
      'export const v3 = () => new S3Client({});',
    ].join('\n'),
  });

/** The message packaging `hello` on `runtime` fails with (the SDK the runtime lacks is not in node_modules). */
async function bundlingError(runtime: string): Promise<string> {
  try {
    await buildArtifacts(input(dir, { functions: [fn('hello', { runtime })] }));
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`packaging for ${runtime} succeeded`);
}

bundle('leaves aws-sdk (v2) out of bundles for nodejs16.x and older, which provide it', async () => {
  sdkService(dir);
  const artifacts = await buildArtifacts(input(dir, { build: { esbuild: { exclude: ['aws-sdk', '@aws-sdk/*'] } }, functions: [fn('hello', { runtime: 'nodejs16.x' })] }));
  const js = text(artifacts.service!.path, 'handler.js')!;
  assert.match(js, 'require("aws-sdk")');
  assert.match(js, 'require("@aws-sdk/client-s3")');
  assert.equal(runtimeModules('nodejs16.x'), ['aws-sdk']);
  assert.equal(runtimeModules('nodejs14.x'), ['aws-sdk']);
  assert.match(await bundlingError('nodejs16.x'), /^Cannot bundle the TypeScript handlers of hello:\n {2}handler\.ts:2:\d+: Could not resolve "@aws-sdk\/client-s3"/);
});

bundle('leaves @aws-sdk/* (v3) and aws-sdk (v2) out of bundles for nodejs18.x and later, and says once that the runtime lacks v2', async () => {
  writeTree(dir, { 'handler.ts': "import { S3Client } from '@aws-sdk/client-s3';\nexport const main = () => new S3Client({});" });
  const v3Only = input(dir, { functions: [fn('hello', { runtime: 'nodejs20.x' }), fn('other', { runtime: 'nodejs18.x' })] });
  const artifacts = await buildArtifacts(v3Only);
  assert.match(text(artifacts.service!.path, 'handler.js')!, 'require("@aws-sdk/client-s3")');
  assert.equal(v3Only.warnings, []);
  assert.equal(runtimeModules('nodejs18.x'), ['@aws-sdk/*', 'aws-sdk']);
  // What serverless-esbuild does with a v2 import (its default exclude is aws-sdk): v3 services that bundle with it bundle with fw.
  sdkService(dir);
  const both = input(dir, { functions: [fn('hello', { runtime: 'nodejs20.x' }), fn('other', { runtime: 'nodejs20.x' })] });
  const js = text((await buildArtifacts(both)).service!.path, 'handler.js')!;
  assert.match(js, 'require("aws-sdk")');
  assert.match(js, 'require("@aws-sdk/client-s3")');
  assert.equal(both.warnings, [
    'aws-sdk (v2) is left out of the bundle of hello, other (as serverless-esbuild leaves it out), and the nodejs20.x runtime does not provide it: package it from node_modules, bundle it with build.esbuild.exclude: [], or move to @aws-sdk/* (v3)',
  ]);
});

bundle('build.esbuild.exclude replaces the runtime\'s modules: [] bundles the SDK from node_modules', async () => {
  writeTree(dir, {
    'handler.ts': "import { S3Client } from '@aws-sdk/client-s3';\nexport const main = () => new S3Client().name;",
    'node_modules/@aws-sdk/client-s3/package.json': JSON.stringify({ name: '@aws-sdk/client-s3', main: 'index.js' }),
    'node_modules/@aws-sdk/client-s3/index.js': "exports.S3Client = class { constructor() { this.name = 'bundled'; } };",
  });
  const artifacts = await buildArtifacts(input(dir, { build: { esbuild: { exclude: [] } }, functions: [fn('hello', { runtime: 'nodejs20.x' })] }));
  const js = text(artifacts.service!.path, 'handler.js')!;
  assert.not.match(js, 'require("@aws-sdk/client-s3")');
  assert.match(js, /this.name = "bundled"/);
});

bundle('reads build.esbuild and refuses wrong values', () => {
  assert.equal(esbuildOptions(undefined), { external: [], sourcemap: false, minify: false });
  assert.equal(esbuildOptions({ esbuild: { external: ['@aws-sdk/*'], sourcemap: 'inline', minify: true } }), {
    external: ['@aws-sdk/*'],
    sourcemap: 'inline',
    minify: true,
  });
  assert.throws(() => esbuildOptions({ esbuild: { external: 'x' } }), /Invalid configuration in 'build.esbuild.external': expected a list of module names, got "x"/);
  assert.throws(() => esbuildOptions({ esbuild: { sourcemap: 'yes' } }), /build.esbuild.sourcemap/);
  // Serverless v4's documented object form
  assert.equal(esbuildOptions({ esbuild: { sourcemap: { type: 'inline', setNodeOptions: true } } }).sourcemap, 'inline');
  assert.equal(esbuildOptions({ esbuild: { sourcemap: { setNodeOptions: false } } }).sourcemap, 'linked');
  assert.throws(() => esbuildOptions({ esbuild: { sourcemap: { type: 'both' } } }), /^Invalid configuration in 'build.esbuild.sourcemap.type': expected "linked", "inline" or "external", got "both"/);
  assert.equal(esbuildOptions({ esbuild: { exclude: ['aws-sdk'] } }), { external: [], exclude: ['aws-sdk'], sourcemap: false, minify: false });
  assert.throws(() => esbuildOptions({ esbuild: { exclude: 'aws-sdk' } }), /Invalid configuration in 'build.esbuild.exclude': expected a list of module names, got "aws-sdk"/);
  assert.is(nodeTarget('nodejs18.x'), 'node18');
  assert.is(nodeTarget('nodejs22.x'), 'node22');
});

bundle('with kept contexts (fw dev), a rebuild after an edit gives the bytes of a one-off build', async () => {
  tsService(dir);
  const request = [{ module: 'src/handler', runtime: 'nodejs20.x', functions: ['hello'] }];
  const options = esbuildOptions({ esbuild: { external: ['left-pad'] } });
  const kept = keepBundlerContexts();
  try {
    await bundleHandlers(dir, request, options);
    writeFileSync(join(dir, 'src/greet.ts'), 'export function greet(name: string): string { return `hello ${name}`; }\n');
    const rebuilt = await bundleHandlers(dir, request, options);
    await kept();
    const oneOff = await bundleHandlers(dir, request, options);
    assert.equal(rebuilt, oneOff);
    assert.match(rebuilt.get('src/handler')!.files[0].contents.toString(), 'return `hello ${name}`;');
  } finally {
    await kept();
  }
});

bundle.run();
