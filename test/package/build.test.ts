import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildArtifacts } from '../../src/package/build';
import { walkFiles } from '../../src/package/files';
import { writeZip, zipEntry } from '../../src/artifacts/zip';
import { fn, input, names, readZip, removeDir, tempDir, text, writeTree } from './helpers';

const build = suite('buildArtifacts');
let dir = '';
let outside = '';
build.before.each(() => {
  dir = tempDir();
  outside = tempDir();
});
build.after.each(() => {
  removeDir(dir);
  removeDir(outside);
});

const service = () =>
  writeTree(dir, {
    'serverless.yml': 'service: app',
    'handler.js': 'exports.main = async () => "hi";',
    'bin/tool': { content: '#!/bin/sh\necho hi\n', mode: 0o755 },
    'lib/util.js': 'module.exports = 1;',
    'lib/util.test.js': '',
    'package.json': JSON.stringify({ dependencies: { lib: '1' }, devDependencies: { jest: '1' } }),
    'node_modules/lib/package.json': '{}',
    'node_modules/lib/index.js': '',
    'node_modules/jest/package.json': '{"bin":{"jest":"cli.js"}}',
    'node_modules/jest/cli.js': '',
    'node_modules/.bin/jest': '',
    '.git/HEAD': 'ref',
    '.gitignore': 'node_modules',
    '.env': 'SECRET=1',
    '.env.prod': 'SECRET=2',
    '.serverless/old.zip': 'old',
    'npm-debug.log': '',
  });

build('zips the service into <service>.zip with the default excludes and without devDependencies', async () => {
  service();
  const artifacts = await buildArtifacts(input(dir));
  assert.is(artifacts.service?.name, 'app.zip');
  assert.is(artifacts.service?.path, join(dir, '.serverless', 'app.zip'));
  assert.is(artifacts.functions.hello, artifacts.service);
  assert.equal(names(artifacts.service!.path), [
    'bin/tool',
    'handler.js',
    'lib/util.js',
    'lib/util.test.js',
    'node_modules/lib/index.js',
    'node_modules/lib/package.json',
    'package.json',
  ]);
  const bytes = readFileSync(artifacts.service!.path);
  assert.is(artifacts.service!.size, bytes.length);
  assert.is(readZip(artifacts.service!.path).find((entry) => entry.name === 'bin/tool')!.mode, 0o100755);
  assert.is(readZip(artifacts.service!.path).find((entry) => entry.name === 'handler.js')!.mode, 0o100644);
});

build('gives identical bytes when run twice, and after every file is touched', async () => {
  service();
  const first = await buildArtifacts(input(dir));
  const firstBytes = readFileSync(first.service!.path);
  const second = await buildArtifacts(input(dir));
  assert.equal(readFileSync(second.service!.path), firstBytes);
  const later = new Date(Date.now() + 3_600_000);
  for (const file of walkFiles(dir)) utimesSync(file.abs, later, later);
  const third = await buildArtifacts(input(dir));
  assert.equal(readFileSync(third.service!.path), firstBytes);
  assert.is(third.service!.sha256, first.service!.sha256);
  assert.is(third.service!.codeSha256, first.service!.codeSha256);
});

build('gives the same bytes for a copy of the tree in another folder', async () => {
  service();
  const here = await buildArtifacts(input(dir));
  for (const file of walkFiles(dir)) {
    writeTree(outside, { [file.path]: { content: readFileSync(file.abs, 'utf8'), mode: statSync(file.abs).mode & 0o777 } });
  }
  const there = await buildArtifacts(input(outside));
  assert.is(there.service!.sha256, here.service!.sha256);
});

build('gives the same bytes whichever way a file is deflated (small ones on the main thread, big ones on the pool), over 700 files', async () => {
  const tree: Record<string, string | { content: string; mode: number }> = {};
  for (let i = 0; i < 700; i++) {
    const path = `lib/${String(i % 7)}/file-${i}.js`;
    tree[path] = i % 100 === 0 ? '' : `// ${i}\n${'x = x * 31 + 7;\n'.repeat((i * 37) % 50)}`;
  }
  tree['big/data.txt'] = Array.from({ length: 40_000 }, (_, i) => `row ${(i * 7919) % 10007}`).join('\n');
  tree['bin/run'] = { content: '#!/bin/sh\n', mode: 0o755 };
  writeTree(dir, tree);
  const artifacts = await buildArtifacts(input(dir, { functions: [fn('hello', { handler: 'bin/run', runtime: 'provided.al2' })] }));
  const expected = join(outside, 'expected.zip');
  const files = walkFiles(dir, { prune: new Set(['.serverless']) });
  const written = writeZip(expected, files.map((file) => zipEntry(file.path, readFileSync(file.abs), (statSync(file.abs).mode & 0o111) !== 0)));
  assert.is(artifacts.service!.sha256, written.sha256);
  assert.equal(readFileSync(artifacts.service!.path), readFileSync(expected));
});

build('keeps devDependencies with excludeDevDependencies: false', async () => {
  service();
  const artifacts = await buildArtifacts(input(dir, { package: { excludeDevDependencies: false } }));
  assert.ok(names(artifacts.service!.path).includes('node_modules/jest/cli.js'));
  assert.ok(names(artifacts.service!.path).includes('node_modules/.bin/jest'));
});

build('applies package.patterns in order, and devDependencies stay out even when re-included', async () => {
  service();
  const artifacts = await buildArtifacts(input(dir, { package: { patterns: ['!lib/**', 'lib/util.js', '!**/*.test.js', 'node_modules/**', '.env.prod'] } }));
  assert.equal(names(artifacts.service!.path), [
    '.env.prod',
    'bin/tool',
    'handler.js',
    'lib/util.js',
    'node_modules/lib/index.js',
    'node_modules/lib/package.json',
    'package.json',
  ]);
});

build('accepts the older include / exclude lists', async () => {
  service();
  const artifacts = await buildArtifacts(input(dir, { package: { exclude: ['lib/**', 'node_modules/**'], include: ['lib/util.js'] } }));
  assert.equal(names(artifacts.service!.path), ['bin/tool', 'handler.js', 'lib/util.js', 'package.json']);
});

build('does not walk a folder the patterns exclude whole', async () => {
  writeTree(outside, { 'x.js': '' });
  writeTree(dir, { 'handler.js': '', 'node_modules/a/index.js': '', 'node_modules/link': { link: outside }, 'node_modules/keep/k.js': '' });
  const skipped = input(dir, { package: { patterns: ['!node_modules/**'] } });
  assert.equal(names((await buildArtifacts(skipped)).service!.path), ['handler.js']);
  assert.equal(skipped.warnings, []);
  const walked = input(dir, { package: { patterns: ['!node_modules/**', 'node_modules/keep/**'] } });
  assert.equal(names((await buildArtifacts(walked)).service!.path), ['handler.js', 'node_modules/keep/k.js']);
  assert.is(walked.warnings.length, 1);
});

build('never zips the service file, other artifacts or the output folder', async () => {
  writeTree(dir, { 'fw.yml': '', 'h.js': '', 'prebuilt/other.zip': 'zip', 'layer/x.js': '', 'out/app.zip': '' });
  const artifacts = await buildArtifacts(
    input(dir, {
      serviceFile: join(dir, 'fw.yml'),
      outDir: join(dir, 'out'),
      functions: [fn('hello', { handler: 'h.main' }), fn('other', { package: { artifact: 'prebuilt/other.zip' } })],
      layers: { deps: { path: 'layer' } },
    }),
  );
  assert.equal(names(artifacts.service!.path), ['h.js']);
});

build('packages each function in its own zip with package.individually, function patterns after service ones', async () => {
  writeTree(dir, { 'a.js': 'a', 'b.js': 'b', 'shared/s.js': 's', 'extra.json': '{}' });
  const artifacts = await buildArtifacts(
    input(dir, {
      package: { individually: true, patterns: ['!extra.json'] },
      functions: [
        fn('first', { handler: 'a.main', package: { patterns: ['!b.js', 'extra.json'] } }),
        fn('second', { handler: 'b.main', package: { patterns: ['!a.js'] } }),
      ],
    }),
  );
  assert.is(artifacts.service, undefined);
  assert.equal(Object.keys(artifacts.functions), ['first', 'second']);
  assert.is(artifacts.functions.first.name, 'first.zip');
  assert.equal(names(artifacts.functions.first.path), ['a.js', 'extra.json', 'shared/s.js']);
  assert.equal(names(artifacts.functions.second.path), ['b.js', 'shared/s.js']);
  assert.equal(readdirSync(join(dir, '.serverless')).sort(), ['first.zip', 'second.zip']);
});

build('packages one function individually while the others share the service zip', async () => {
  writeTree(dir, { 'a.js': 'a', 'b.js': 'b' });
  const artifacts = await buildArtifacts(
    input(dir, { functions: [fn('first', { handler: 'a.main' }), fn('second', { handler: 'b.main', package: { individually: true, patterns: ['!a.js'] } })] }),
  );
  assert.is(artifacts.functions.first, artifacts.service);
  assert.equal(names(artifacts.service!.path), ['a.js', 'b.js']);
  assert.equal(names(artifacts.functions.second.path), ['b.js']);
});

build('warns that function patterns need individual packaging', async () => {
  writeTree(dir, { 'handler.js': '', 'x.js': '' });
  const options = input(dir, { functions: [fn('hello', { package: { patterns: ['!x.js'] } })] });
  const artifacts = await buildArtifacts(options);
  assert.equal(names(artifacts.service!.path), ['handler.js', 'x.js']);
  assert.equal(options.warnings, [
    'functions.hello.package.patterns apply only to functions packaged individually (package.individually: true); the service-wide patterns are used',
  ]);
});

build('uses a package.artifact as it is, at service and function level', async () => {
  writeTree(dir, { 'handler.js': '', 'build/service.zip': 'service bytes', 'build/one.zip': 'one bytes' });
  const artifacts = await buildArtifacts(
    input(dir, { package: { artifact: 'build/service.zip' }, functions: [fn('a'), fn('b', { package: { artifact: join(dir, 'build/one.zip') } })] }),
  );
  assert.is(artifacts.service, undefined);
  assert.equal(artifacts.functions.a, {
    name: 'service.zip',
    path: join(dir, 'build/service.zip'),
    sha256: createHash('sha256').update('service bytes').digest('hex'),
    codeSha256: createHash('sha256').update('service bytes').digest('base64'),
    size: 13,
  });
  assert.is(artifacts.functions.b.name, 'one.zip');
  assert.is(artifacts.functions.b.path, join(dir, 'build/one.zip'));
  assert.is(artifacts.functions.b.size, 9);
});

build('stops when a package.artifact does not exist, naming the setting and the path', async () => {
  writeTree(dir, { 'handler.js': '' });
  try {
    await buildArtifacts(input(dir, { functions: [fn('hello', { package: { artifact: 'missing.zip' } })] }));
    assert.unreachable();
  } catch (error) {
    assert.is((error as Error).name, 'ConfigError');
    assert.match((error as Error).message, `Invalid configuration in 'functions.hello.package.artifact': the artifact "missing.zip" does not exist`);
  }
});

build('uses an artifact on S3 where it is', async () => {
  writeTree(dir, { 'handler.js': '' });
  const artifacts = await buildArtifacts(
    input(dir, {
      package: { individually: true },
      functions: [
        fn('a', { package: { artifact: 's3://my-bucket/builds/a.zip' } }),
        fn('b', { package: { artifact: 'https://my-bucket.s3.eu-west-1.amazonaws.com/builds/b%20v2.zip' } }),
      ],
    }),
  );
  assert.equal(artifacts.functions.a, { name: 'a.zip', path: 's3://my-bucket/builds/a.zip', sha256: '', codeSha256: '', size: 0, s3: { bucket: 'my-bucket', key: 'builds/a.zip' } });
  assert.equal(artifacts.functions.b.s3, { bucket: 'my-bucket', key: 'builds/b v2.zip' });
});

build('refuses package settings of the wrong type, naming the setting', async () => {
  writeTree(dir, { 'handler.js': '' });
  const attempts: Array<[Partial<Parameters<typeof input>[1]>, string]> = [
    [{ package: { patterns: '!x' as never } }, `Invalid configuration in 'package.patterns': expected a list of glob patterns, got "!x"`],
    [{ package: { individually: 'yes' as never } }, `Invalid configuration in 'package.individually': expected true or false, got "yes"`],
    [{ functions: [fn('hello', { package: { artifact: 3 as never } })] }, `Invalid configuration in 'functions.hello.package.artifact': expected the path of a zip file, got 3`],
  ];
  for (const [overrides, message] of attempts) {
    try {
      await buildArtifacts(input(dir, overrides));
      assert.unreachable(message);
    } catch (error) {
      assert.is((error as Error).message, message);
    }
  }
});

build('leaves out fw\'s own staging folders', async () => {
  writeTree(dir, { 'handler.js': '', '.serverless.tmp-123/app.zip': '', '.serverless.old-9/x': '', 'a/.serverless.tmp-1/kept.js': '' });
  const artifacts = await buildArtifacts(input(dir, { outDir: join(dir, '.serverless.tmp-123') }));
  assert.equal(names(artifacts.service!.path), ['a/.serverless.tmp-1/kept.js', 'handler.js']);
});

build('skips container-image functions', async () => {
  writeTree(dir, { 'handler.js': '' });
  const artifacts = await buildArtifacts(input(dir, { functions: [fn('img', { handler: undefined, image: 'repo@sha256:abc' })] }));
  assert.equal(artifacts, { functions: {}, layers: {} });
});

build('stops when the patterns leave out a function\'s handler file, naming the function and handler', async () => {
  writeTree(dir, { 'src/handler.js': '', 'other.js': '' });
  try {
    await buildArtifacts(input(dir, { package: { patterns: ['!src/**'] }, functions: [fn('hello', { handler: 'src/handler.main' })] }));
    assert.unreachable();
  } catch (error) {
    assert.is((error as Error).name, 'ConfigError');
    assert.is(
      (error as Error).message,
      `Invalid configuration in 'package.patterns': no pattern includes "src/handler.js", the handler file of function "hello" (handler "src/handler.main")`,
    );
  }
});

build('stops when the patterns leave out a Python handler file', async () => {
  writeTree(dir, { 'app/main.py': '', 'x.py': '' });
  try {
    await buildArtifacts(
      input(dir, { package: { individually: true }, functions: [fn('py', { handler: 'app/main.handler', runtime: 'python3.12', package: { patterns: ['!app/**'] } })] }),
    );
    assert.unreachable();
  } catch (error) {
    assert.match((error as Error).message, `'functions.py.package.patterns': no pattern includes "app/main.py", the handler file of function "py"`);
  }
});

build('zips Python handlers as they are', async () => {
  writeTree(dir, { 'app/main.py': 'def handler(event, context):\n    return 1\n', 'requirements.txt': 'requests\n' });
  const artifacts = await buildArtifacts(input(dir, { functions: [fn('py', { handler: 'app/main.handler', runtime: 'python3.12' })] }));
  assert.equal(names(artifacts.service!.path), ['app/main.py', 'requirements.txt']);
  assert.is(text(artifacts.service!.path, 'app/main.py'), 'def handler(event, context):\n    return 1\n');
});

build('stops when nothing matches the patterns', async () => {
  writeTree(dir, { 'handler.js': '' });
  try {
    await buildArtifacts(input(dir, { package: { patterns: ['!**'] } }));
    assert.unreachable();
  } catch (error) {
    assert.is((error as Error).message, `Invalid configuration in 'package.patterns': no file matches the include / exclude patterns of the service package`);
  }
});

build('has no absolute path and no .. in a listing, and skips a symlink to outside the service', async () => {
  writeTree(outside, { 'secret.txt': 'secret' });
  const options = input(dir, { package: { patterns: ['../**', '/etc/**'] } });
  writeTree(dir, { 'handler.js': '', 'secret.txt': { link: join(outside, 'secret.txt') }, 'inner.js': { link: 'handler.js' } });
  const artifacts = await buildArtifacts(options);
  const listed = names(artifacts.service!.path);
  assert.equal(listed, ['handler.js', 'inner.js']);
  for (const name of listed) {
    assert.not.ok(name.startsWith('/') || name.split('/').includes('..') || name.includes('\\'), name);
  }
  assert.is(options.warnings.length, 1);
  assert.match(options.warnings[0], 'Symbolic link secret.txt points outside the service');
});

build('zips each layer from its path into <layer>.zip, and uses a layer artifact as it is', async () => {
  writeTree(dir, {
    'handler.js': '',
    'layers/deps/nodejs/node_modules/x/index.js': 'x',
    'layers/deps/README.md': '',
    'layers/deps/.git/HEAD': '',
    'layer.zip': 'prebuilt',
  });
  const artifacts = await buildArtifacts(
    input(dir, { layers: { deps: { path: 'layers/deps', package: { patterns: ['!README.md'] } }, prebuilt: { package: { artifact: 'layer.zip' } } } }),
  );
  assert.equal(Object.keys(artifacts.layers), ['deps', 'prebuilt']);
  assert.is(artifacts.layers.deps.name, 'deps.zip');
  assert.is(artifacts.layers.deps.path, join(dir, '.serverless', 'deps.zip'));
  assert.equal(names(artifacts.layers.deps.path), ['nodejs/node_modules/x/index.js']);
  assert.equal(artifacts.layers.prebuilt.name, 'layer.zip');
  assert.equal(names(artifacts.service!.path), ['handler.js']);
});

build('stops when a layer path does not exist', async () => {
  writeTree(dir, { 'handler.js': '' });
  try {
    await buildArtifacts(input(dir, { layers: { deps: { path: 'nope' } } }));
    assert.unreachable();
  } catch (error) {
    assert.match((error as Error).message, `Invalid configuration in 'layers.deps.path': the folder "nope" does not exist`);
  }
});

build('hashes a zip the same way Lambda reports CodeSha256', async () => {
  writeTree(dir, { 'handler.js': 'x' });
  const artifacts = await buildArtifacts(input(dir));
  const bytes = readFileSync(artifacts.service!.path);
  assert.is(artifacts.service!.codeSha256, createHash('sha256').update(bytes).digest('base64'));
  assert.is(artifacts.service!.sha256, createHash('sha256').update(bytes).digest('hex'));
  copyFileSync(artifacts.service!.path, join(outside, 'copy.zip'));
  writeFileSync(join(dir, 'handler.js'), 'y');
  assert.is.not((await buildArtifacts(input(dir))).service!.sha256, artifacts.service!.sha256);
});

build.run();
