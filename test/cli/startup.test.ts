import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { childEnv } from '../helpers/env';

const FW = join(__dirname, '..', '..', '..', 'bin', 'fw.js');
const env = childEnv();

/** Runs fw with a hook that lists every AWS SDK module the process loads. */
function sdkModulesLoadedBy(args: string[], cwd: string): { code: number | null; modules: string[]; stdout: string } {
  const probe = `
    const Module = require('module');
    const load = Module._load;
    const seen = new Set();
    Module._load = function (request, ...rest) { if (/^@aws-sdk\\//.test(request)) seen.add(request); return load.call(this, request, ...rest); };
    process.on('exit', () => process.stderr.write('SDK:' + JSON.stringify([...seen]) + '\\n'));
    require(${JSON.stringify(FW)});
  `;
  const run = spawnSync(process.execPath, ['-e', probe, 'fw', ...args], { cwd, encoding: 'utf8', env });
  const modules = JSON.parse(/SDK:(.*)/.exec(run.stderr)?.[1] ?? '[]') as string[];
  return { code: run.status, modules, stdout: run.stdout };
}

const startup = suite('fw startup');

startup('package, --help and --version load no AWS SDK module', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'fw-startup-'));
  writeFileSync(join(cwd, 'fw.yml'), 'service: app\nprovider:\n  name: aws\nfunctions:\n  hello:\n    handler: handler.hello\n    events:\n      - httpApi: GET /\n');
  writeFileSync(join(cwd, 'handler.js'), 'exports.hello = async () => ({})\n');
  try {
    for (const args of [['package'], ['--help'], ['--version']]) {
      const result = sdkModulesLoadedBy(args, cwd);
      assert.is(result.code, 0, `fw ${args.join(' ')} failed`);
      if (args[0] === 'package') assert.match(result.stdout, 'Packaged app for stage dev');
      assert.equal(result.modules, [], `fw ${args.join(' ')} loaded ${result.modules.join(', ')}`);
    }
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});

startup('--version prints the package version', () => {
  const run = spawnSync(process.execPath, [FW, '--version'], { encoding: 'utf8', env });
  assert.is(run.stdout, `${require('../../../package.json').version}\n`);
});

startup('output has no colour codes when NO_COLOR is set or stdout is not a terminal', () => {
  const run = spawnSync(process.execPath, [FW, '--help'], { encoding: 'utf8', env });
  assert.not.match(run.stdout, /\u001b\[/);
});

startup.run();

const codeCache = suite('fw code cache');
const packagedCaches = join(__dirname, '..', '..', '..', 'dist', 'code-cache');
let home = '';
let service = '';
codeCache.before.each(() => {
  home = mkdtempSync(join(tmpdir(), 'fw-cache-home-'));
  service = mkdtempSync(join(tmpdir(), 'fw-cache-service-'));
  writeFileSync(join(service, 'fw.yml'), 'service: app\nprovider:\n  name: aws\nfunctions:\n  hello:\n    handler: handler.hello\n');
  writeFileSync(join(service, 'handler.js'), 'exports.hello = async () => ({})\n');
});
codeCache.after.each(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(service, { recursive: true, force: true });
});

/** Runs fw with `nodeFlags` before bin/fw.js and the user cache folder under `home`: exit code and first line, without the time taken and what was written. */
function fw(args: string[], options: { nodeFlags?: string[]; nodeOptions?: string; cacheHome?: string } = {}): string {
  const run = spawnSync(process.execPath, [...(options.nodeFlags ?? []), FW, ...args], {
    cwd: service,
    encoding: 'utf8',
    env: childEnv({ XDG_CACHE_HOME: options.cacheHome ?? home, NODE_OPTIONS: options.nodeOptions ?? '' }),
  });
  return `${run.status} ${run.stdout.split('\n')[0].replace(/ in \d+ ms(: .*)?$/, '')}`;
}

const userCaches = () => readdirSync(join(home, 'fw')).filter((name) => !name.startsWith('.')).sort();
const version = `0 ${require('../../../package.json').version}`;
const packaged = '0 ✔ Packaged app for stage dev (us-east-1)';

codeCache('on the Node.js that built fw, it runs from the cache in the package and writes none', () => {
  const shipped = readdirSync(packagedCaches);
  assert.equal([fw(['--version']), fw(['package'])], [version, packaged]);
  assert.equal(readdirSync(home), []);
  assert.equal(readdirSync(packagedCaches), shipped);
});

codeCache('other flags get a cache of their own in the user cache folder, written once and then reused', () => {
  const shipped = readdirSync(packagedCaches);
  assert.equal(fw(['package'], { nodeFlags: ['--no-warnings'] }), packaged);
  const [own] = userCaches();
  assert.match(own, /^[0-9a-f]{40}$/);
  const written = statSync(join(home, 'fw', own)).mtimeMs;
  assert.equal(fw(['package'], { nodeFlags: ['--no-warnings'] }), packaged);
  assert.equal(fw(['package'], { nodeOptions: '--no-warnings' }), packaged);
  const caches = userCaches();
  assert.equal([caches.length, caches.includes(own), statSync(join(home, 'fw', own)).mtimeMs], [2, true, written]);
  assert.equal(readdirSync(packagedCaches), shipped);
});

codeCache('a cache written by --version or a help page is provisional: the next command replaces it', () => {
  const flags = { nodeFlags: ['--no-warnings'] };
  assert.equal([fw(['--version'], flags), fw(['package', '--help'], flags).slice(0, 2)], [version, '0 ']);
  const [provisional] = userCaches();
  assert.match(provisional, /^[0-9a-f]{40}\.startup$/);
  assert.equal(fw(['package'], flags), packaged);
  assert.equal(userCaches(), [provisional.replace('.startup', '')]);
});

codeCache('a damaged cache is compiled around and replaced', () => {
  const flags = { nodeFlags: ['--no-warnings'] };
  fw(['package'], flags);
  const [own] = userCaches();
  writeFileSync(join(home, 'fw', own), Buffer.alloc(4096, 7));
  assert.equal(fw(['package'], flags), packaged);
  assert.not.equal(readFileSync(join(home, 'fw', own)), Buffer.alloc(4096, 7));
  assert.equal(fw(['package'], flags), packaged);
});

codeCache('a cache folder that cannot be written only means no cache', () => {
  const notAFolder = join(home, 'file');
  writeFileSync(notAFolder, '');
  assert.equal(fw(['package'], { nodeFlags: ['--no-warnings'], cacheHome: notAFolder }), packaged);
  assert.equal(readdirSync(home), ['file']);
});

codeCache('a chunk is loaded only by a command that uses it, from its own cache in the package', () => {
  // fw print writes YAML with the yaml library, which is in a chunk of its own (dist/fw-yaml.js).
  const printed = '0 service: app';
  assert.equal([fw(['package']), fw(['print'])], [packaged, printed]);
  assert.equal(readdirSync(home), []);
  const flags = { nodeFlags: ['--no-warnings'] };
  assert.equal(fw(['package'], flags), packaged);
  const [core] = userCaches();
  assert.equal(fw(['print'], flags), printed);
  assert.is(userCaches().length, 2);
  assert.match(userCaches().filter((name) => name !== core)[0], /^[0-9a-f]{40}$/);
  const written = userCaches().map((name) => statSync(join(home, 'fw', name)).mtimeMs);
  assert.equal(fw(['print'], flags), printed);
  assert.equal(userCaches().map((name) => statSync(join(home, 'fw', name)).mtimeMs), written);
});

codeCache('the shipped caches hold no path of the machine that built them (each is compiled under /fw-deploy/dist/<bundle>)', () => {
  const buildRoot = Buffer.from(join(packagedCaches, '..', '..'));
  const carrying = readdirSync(packagedCaches).filter((name) => readFileSync(join(packagedCaches, name)).includes(buildRoot));
  assert.equal(carrying, []);
  assert.ok(readdirSync(packagedCaches).every((name) => readFileSync(join(packagedCaches, name)).includes(Buffer.from('/fw-deploy/dist/'))));
});

codeCache('the package holds a code cache for each bundle the build wrote', () => {
  const bundles = readdirSync(join(packagedCaches, '..')).filter((name) => /^fw(-[a-z]+)?\.js$/.test(name)).sort();
  assert.equal(bundles, ['fw-compose.js', 'fw-create.js', 'fw-dev.js', 'fw-local.js', 'fw-plugins.js', 'fw-yaml.js', 'fw.js']);
  assert.is(readdirSync(packagedCaches).length, bundles.length);
});

codeCache.run();
