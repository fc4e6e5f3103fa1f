#!/usr/bin/env node
// Bundles the CLI: resolving and reading ~500 small modules would be most of a short command's run
// time. The bundle is split by what commands use (scripts/bundle-chunks.js): the core (dist/fw.js)
// holds what `fw package` and the other short commands run; each chunk (dist/fw-<name>.js: the
// local cloud, fw dev, compose, the v3 plugin surface, create, the YAML library) is read and
// compiled only when one of its modules is first required. Every module is in exactly one bundle: a
// module another bundle imports is replaced there by a stub, `module.exports = __fwModule(bundle, path)`,
// that bin/fw.js answers by loading that bundle (once) and requiring the module from its registry
// (`fwModule(path)`), so classes and module state are never duplicated.
// The AWS SDK, esbuild and ajv stay external: they are loaded only by the commands that use them.
// Whitespace is minified (names are kept, so errors still name functions): the bundle is a quarter
// smaller, which every command reads, hashes against its code cache and holds in memory.
// Then writes dist/import-module.js (import() for ES modules, which code run from V8's code
// cache cannot call itself) and the code caches for the Node.js that builds (dist/code-cache/<key>,
// see bin/fw.js) from a sample `fw package`.
'use strict';
const { build } = require('esbuild');
const { spawnSync } = require('node:child_process');
const { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { createHash } = require('node:crypto');
const { tmpdir } = require('node:os');
const path = require('node:path');
const { assignModules } = require('./bundle-chunks');

const root = path.join(__dirname, '..');
const dist = path.join(root, 'dist');
const ENTRY = 'src/cli/main.ts';
const OPTIONS = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  external: ['@aws-sdk/*', '@smithy/*', 'esbuild', 'ajv'],
  logLevel: 'warning',
  legalComments: 'none',
  minifyWhitespace: true,
};

/** The file a bundle is written to: bin/fw.js reads the same names. */
const bundleFile = (name) => path.join(dist, name === 'core' ? 'fw.js' : `fw-${name}.js`);

async function main() {
  // The whole CLI once, for its module graph.
  const whole = await build({ ...OPTIONS, entryPoints: [ENTRY], write: false, metafile: true, outfile: path.join(dist, 'fw.js') });
  const owner = assignModules(whole.metafile, ENTRY);
  const exposed = new Map([...new Set(owner.values())].map((name) => [name, new Set()]));
  for (const [file, from] of owner) {
    for (const edge of whole.metafile.inputs[file].imports) {
      const to = owner.get(edge.path);
      if (!edge.external && to !== undefined && to !== from) exposed.get(to).add(edge.path);
    }
  }
  for (const old of readdirSync(dist).filter((name) => /^fw(-[a-z]+)?\.js(\.sha256)?$/.test(name))) rmSync(path.join(dist, old));
  await Promise.all([...exposed].map(([name, modules]) => bundle(name, [...modules].sort(), owner)));
  writeFileSync(path.join(dist, 'import-module.js'), "'use strict';\nmodule.exports = (specifier) => import(specifier);\n");
  writeCodeCaches();
}

/** Builds one bundle: its registry of the modules other bundles import, and, for the core, `main`. */
async function bundle(name, modules, owner) {
  const registry = modules.map((file) => `  ${JSON.stringify(file)}: () => require(${JSON.stringify(`./${file}`)}),`);
  const contents = [
    ...(name === 'core' ? [`exports.main = (argv) => require(${JSON.stringify(`./${ENTRY}`)}).main(argv);`] : []),
    'const modules = {',
    ...registry,
    '};',
    'const loaded = {};',
    '/** A module of this bundle that another one imports (see scripts/bundle.js). */',
    'exports.fwModule = (file) => loaded[file] ??= modules[file]();',
    'exports.fwModules = Object.keys(modules);',
    '',
  ].join('\n');
  const elsewhere = {
    name: 'modules-of-other-bundles',
    setup(builder) {
      builder.onLoad({ filter: /.*/ }, (args) => {
        const file = path.relative(root, args.path).split(path.sep).join('/');
        const home = owner.get(file);
        if (home === undefined || home === name) return undefined;
        return { contents: `module.exports = __fwModule(${JSON.stringify(home)}, ${JSON.stringify(file)});\n`, loader: 'js' };
      });
    },
  };
  const result = await build({
    ...OPTIONS,
    stdin: { contents, resolveDir: root, sourcefile: `fw-${name}-bundle.js`, loader: 'js' },
    outfile: bundleFile(name),
    write: false,
    plugins: [elsewhere, lazyStdin],
  });
  // esbuild writes strings as ASCII escapes but keeps comments as they are: one "→" in a comment
  // makes V8 hold the whole source as a two-byte string (twice, while bin/fw.js wraps it).
  // Escaped, the comments read the same and the source stays one byte per character.
  const ascii = result.outputFiles[0].text.replace(/[^\x00-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  writeFileSync(bundleFile(name), ascii);
  // The bundle's hash, which keys its code caches: bin/fw.js reads it instead of hashing the bundle on every start.
  writeFileSync(`${bundleFile(name)}.sha256`, createHash('sha256').update(ascii, 'latin1').digest('hex'));
}

/**
 * clipanion's default context reads `process.stdin` when clipanion loads, and Node.js then creates
 * the stream (with fs streams and fs/promises behind it): several ms of every command, of which only
 * `fw` with no command (is stdin a terminal?) and its prompts use it. In the bundle the context's
 * `stdin` is a getter that is not enumerable, so spreading the context (as clipanion does for each
 * command) leaves it out; those commands fall back to `process.stdin` (src/cli/create.ts).
 */
const lazyStdin = {
  name: 'clipanion-lazy-stdin',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]clipanion[\\/]lib[\\/]advanced[\\/]Cli\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const eager = '    stdin: process.stdin,\n';
      const end = '    colorDepth: platform.getDefaultColorDepth(),\n};\n';
      if (!source.includes(eager) || !source.includes(end)) throw new Error(`${args.path} no longer reads process.stdin as scripts/bundle.js expects: update its lazyStdin`);
      const lazy = "Object.defineProperty(Cli.defaultContext, 'stdin', { get: () => process.stdin, enumerable: false, configurable: true });\n";
      return { contents: source.replace(eager, '').replace(end, `${end}${lazy}`), loader: 'js' };
    });
  },
};

/**
 * The code caches of the Node.js that builds, from a sample `fw package` (the core's) that also loads
 * every chunk at its end and runs the modules other bundles import (the chunks' own).
 */
function writeCodeCaches() {
  // A sample service touching the common paths: YAML with short tags, HTTP and REST events, a queue, resources,
  // and enough functions (over 500 resources) that the template is split into nested stacks.
  const sample = mkdtempSync(path.join(tmpdir(), 'fw-code-cache-'));
  rmSync(path.join(dist, 'code-cache'), { recursive: true, force: true });
  rmSync(path.join(dist, 'fw.js.cache'), { force: true }); // where builds before the keyed cache left it
  try {
    writeFileSync(
      path.join(sample, 'fw.yml'),
      [
        'service: sample',
        'provider:',
        '  name: aws',
        '  runtime: nodejs20.x',
        '  environment:',
        '    TABLE: !Ref Table',
        'functions:',
        ...Array.from({ length: 90 }, (_, i) => i).flatMap((i) => [
          `  f${i}:`,
          `    handler: handler.f${i}`,
          '    events:',
          `      - httpApi: 'GET /f${i}/{id}'`,
          `      - http: POST f${i}`,
          `      - sqs: arn:aws:sqs:us-east-1:123456789012:q${i}`,
        ]),
        'resources:',
        '  Resources:',
        '    Table:',
        '      Type: AWS::DynamoDB::Table',
        '',
      ].join('\n'),
    );
    writeFileSync(path.join(sample, 'handler.js'), 'exports.f0 = async () => ({});\n');
    const run = spawnSync(process.execPath, [path.join(root, 'bin', 'fw.js'), 'package'], {
      cwd: sample,
      env: { ...process.env, FW_WRITE_CODE_CACHE: '1', NO_COLOR: '1' },
      encoding: 'utf8',
    });
    if (run.status !== 0) {
      // Without a cache fw runs as well, only slower: say so, do not fail the build.
      rmSync(path.join(dist, 'code-cache'), { recursive: true, force: true });
      console.warn(`No code cache written: the sample fw package failed:\n${run.stderr}`);
    }
  } finally {
    rmSync(sample, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
